// Package toolsearch implements deferred tool loading for LLM agents.
//
// An agent with hundreds of tools cannot afford every tool's JSON Schema in
// its prompt. A [Registry] keeps every tool; the tools that are not
// deferred are sent to the model as usual, the deferred ones are only
// listed by name, and the model calls the ToolSearch tool
// ([Searcher.ToolDefinition]) to fetch the definitions it needs.
// [Searcher.Call] answers such a call, and [Result.Content] renders the
// answer for the model: the tool result's content, and the text blocks
// that follow the tool results in the same message (with Anthropic tool
// references, the tool_result holds only tool_reference blocks and
// "Tool loaded." follows it, as Claude Code sends it).
//
// # Deferral
//
// A tool is deferred when, checked in this order: AlwaysLoad is set → not
// deferred; it is an MCP tool (Server is set, or the name starts with
// "mcp__") → deferred; it is named ToolSearch → not deferred; otherwise →
// deferred iff ShouldDefer is set. The tools of a pending or disconnected
// MCP server are kept but not available: not searched, listed or counted.
//
// # Telling the model what is deferred
//
// There are two ways, one per prompt style; use one of them:
//
//   - in the system prompt: [Searcher.SystemPromptSection] (or
//     [Session.SystemPromptSection]), a header line and the names,
//     comma-separated. Simplest, and right when the deferred set rarely
//     changes: every change alters the system prompt.
//   - in the conversation: [Session.Announce], an
//     <available-deferred-tools> block before the first request, then only
//     what changed (tools that joined, tools whose server disconnected).
//     Right when MCP servers come and go, since the system prompt (and a
//     provider's prompt cache) stays the same.
//
// Both list the names sorted, and are byte-identical for the same deferred
// set whatever the registration order.
//
// # Query forms
//
// A ToolSearch query is tried against four forms, in this order:
//
//  1. select:A,B — the prefix in any case on the raw query, and a rest
//     without a line break. The named tools, in request order, without
//     duplicates, deferred or not; a name is looked up exactly (as a name,
//     then as an alias), deferred tools first; else matched ignoring case
//     when exactly one tool has it; else matched ignoring case with "_",
//     "-" and "." taken as one character when exactly one tool has it (a
//     note in Result.Notes says so). Names that match nothing are
//     reported in Result.NotFound, with up to three close names each in
//     Result.Suggestions (for mcp__server__tool, the server's tools whose
//     names share a word with tool first). max_results does not apply.
//  2. exact name — the query, trimmed, is a tool's name, case included:
//     that tool alone; else, lowercased, it is a tool's lowercased name:
//     that tool alone, a deferred one first.
//  3. MCP prefix — the lowercased query starts with "mcp__" and has more:
//     the deferred tools whose lowercased names start with it, in pool
//     order, up to max_results. If there are none, the next form answers.
//     A strategy that reads patterns (StrategyInput.Pattern) skips this
//     form.
//  4. ranked — the strategy ranks the deferred tools for the query (the
//     default strategy: keywords, below); the best max_results are
//     returned, by score, ties in pool order. Result.Form calls this form
//     FormRanked ("ranked") whatever the strategy. A query that names tools (every
//     token a tool's name or MCP name in any case and separator style,
//     one of them shaped as a name: search_graph trace_path; or a
//     name-shaped token among other words) gets the named tools first,
//     then the ranking, with a note; with the default strategy only when
//     its ranking leaves a named tool out (see the Searcher's names form).
//     An empty query finds nothing, with a note saying what to send.
//
// Names that differ only in case (Read, read, READ) are all kept. The
// exact-name form returns the one the query spells, case included (read
// for "read"), as Claude Code 2.1.332 does; for a query that spells none
// of them (rEaD) the first of them in pool order (READ, since byte order
// puts uppercase first), deferred first. select: finds each by its exact
// name, and a name that matches several of
// them only ignoring case (select:rEaD) is not found, with them (up to
// three) as its suggestions, so the model can pick one.
//
// Whitespace is JavaScript's (Unicode spaces, line terminators and U+FEFF)
// and lowercasing is JavaScript's toLowerCase, as in Claude Code.
// max_results defaults to 5 and must be an integer ≥ 1; above the cap (20)
// it is lowered, and the result says so in Result.Notes. Pool order is:
// tools not from MCP servers sorted by name, then MCP tools sorted by name,
// in byte order; it never depends on the order tools were registered in.
//
// # Ranking (the default strategy)
//
// The query, trimmed and lowercased, is split on whitespace into terms; a
// term written "+term" is required: a tool must have it inside a name part,
// or as a whole word in its description or search hint. Repeated terms
// count again. A tool's name parts are the words of its name: an MCP name
// mcp__server__tool loses its prefix and splits on "__" then "_"; any other
// name splits at lowercase→uppercase boundaries and at "_" (getURLFor →
// get, urlfor; hyphens, dots and digits never split), lowercased. Each term
// adds to a deferred tool's score:
//
//	rule                                                MCP tool  other
//	a name part equals the term                               12     10
//	else a name part contains the term                         6      5
//	else the term, without "_", "-" and ".", equals two
//	  or more adjacent name parts joined (create_issue)        3      3
//	the search hint has the term as a whole word               4      4
//	the description has the term as a whole word               2      2
//
// "Whole word" is the regular expression \bterm\b with ASCII word
// characters and the term taken literally: "c++" does not match "c++ code"
// (there is no word boundary after "++"). Tools that score 0, and tools
// without every required term, are left out. [Match.Rules] says which rules
// fired. The rankings equal Claude Code 2.1.89's ToolSearch on every query
// of at most 32 terms where no term joins name parts (that rule never
// fires there; 2.1.89 scores every term of a longer query); the README
// lists the other deliberate differences.
//
// # Profiles
//
// SearchOptions.Profile names the Claude Code release a Searcher and a
// Session follow. [ClaudeCode2_1_89], the default, is everything above.
// [ClaudeCode2_1_332] ranks, selects and speaks as Claude Code 2.1.332
// does; pick it for Claude models driven as Claude Code drives them today:
//
//   - ranking: name parts and "coarse parts", the names whole: an MCP
//     tool's raw server and tool names (Tool.Server, Tool.MCPName),
//     lowercased, and their parts split on whitespace, '_' and '.'; any
//     other tool's name, and its parts as above. Each term adds, besides
//     the part rules (12/10 equal, else 6/5 contained), 12/10 when a
//     coarse part equals it, else 4/3 when one contains it (a pasted
//     create_issue scores 12), and the hint and description rules; no
//     joined-parts rule. An MCP description is searched up to 4,096 UTF-16
//     code units, a hint likewise.
//   - the query is cut to 16,384 UTF-16 code units, then to its first 32
//     terms (a select: query to its first 64 names), silently, as Claude
//     Code does; the exact-name form tries the very name before ignoring
//     case; select: takes a name or alias (deferred tools first), else
//     every tool, on any server, whose bare MCP tool name it is, and has
//     no loose match; the names form and the note on an empty query do
//     not apply (Claude Code 2.1.332 has neither).
//   - the texts are Claude Code's: the ToolSearch definition (per
//     [ModelTraits]), announcements already in delta form as a
//     <system-reminder> user text or a paragraph for a system message
//     (Announcement.System), the DeferredToolPlaceholder tool before the
//     last tool of Session.Tools, "Tool loaded." only for models that want
//     it, the no-match text naming pending and disconnected servers, and
//     a note naming the loaded tools a query names ("Already available in
//     this conversation: X. Call it directly.").
//
// # Strategies
//
// SearchOptions.Strategy replaces the ranked form: [DefaultStrategy] (the
// scoring above), [BM25Strategy], [RegexStrategy] (the model sends an RE2
// pattern), [HybridStrategy] (name-part precedence plus term rarity, stop
// words and light stemming, for queries written as names in any shape or
// as sentences), the semantic strategy of package semantic (hybrid fused
// with an embedding model's ranking, for requests that paraphrase the
// tools' descriptions), or a [Strategy] of one's own. The select:, exact-name and MCP-prefix forms,
// the scope, the limits and the renderings are the same with every
// strategy. A strategy's [Index] is built once per registry version (on
// the first query that needs it, by [Searcher.Prepare], or as soon as the
// registry changes for a strategy whose input says Eager) and, for a
// comparable Strategy value, shared by every Searcher and Session of the
// registry; it covers all deferred tools (term statistics included),
// and each Searcher drops the hits outside its scope. The default, bm25
// and hybrid indexes of a new version are the previous version's with
// the tools that changed patched in (the default one is rebuilt only
// when it outgrows its tables), and a query visits only the tools its
// terms name. A Strategy of one's own does the same with the same means:
// [Index.Update] makes the next version's index from the previous one,
// [Corpus.Changes] says which tools changed by their slots, and
// [Query.TopHits] keeps only the best hits asked for. Each strategy has a
// term budget (StrategyInput.MaxTerms): the most terms it ranks a query
// with. Package eval measures strategies on datasets of queries with known
// answers, through Searcher.Call as a model's call goes.
//
// # Conversations
//
// A [Session] is one conversation over a shared Registry: the tools the
// model discovered ([Session.Tools] sends them on the next request), the
// announcements, resume from a recorded history ([Session.Resume],
// Anthropic Messages and OpenAI Chat/Responses shapes), snapshots for
// compaction, a subagent's [Scope], auto mode ([ToolSearchMode]), the call
// guard ([Session.CheckCall]) and the optional CallTool bridge that keeps
// the tool list fixed. An agent loop answers a ToolSearch call with
// [Session.Call] and renders it with [Session.Format]. See
// examples/agentloop for a complete loop.
//
// # Limits and errors
//
// [RegistryOptions] bound what a tool definition can make the registry do
// (schema size, depth and validation work, description and hint size);
// [SearchOptions] bound what a query can make a search do (query bytes,
// the terms a strategy ranks, select: names, result schema bytes, and the
// text it may make the search scan, MaxQueryWork); [SessionOptions] bound
// what a tool call can make CheckCall do (argument bytes, validation work)
// and the discovered set. JSON numbers from a model or a server are
// bounded (100 digits, an exponent within ±400) before the schema library
// reads them, and a text that repeats a model's or a server's input quotes
// at most its first 128 bytes. A limit reached is an error, or a cut named
// in Result.Notes; never silent. A query longer than the strategy's term
// budget (32 terms for the default strategy, 128 for bm25 and hybrid) is
// answered with its most informative terms: a repeated term counts once,
// then stop words and the words most tools have are left out first.
//
// Errors wrap the package's sentinels (ErrInvalidName, ErrInvalidSchema,
// ErrInvalidQuery, …): test them with errors.Is. Only the sentinels say
// "toolsearch:". The errors of Searcher.Call, Searcher.Search, Session.Call
// and Session.CheckCall are written for the model, with no Go prefix: send
// err.Error() back as an error tool result. For any other error,
// [ModelText] gives the text to send: the package's without the prefix,
// anyone else's as it is. A call that can partly succeed
// (SetServerTools, Session.Tools, Session.Resume, Session.AddDiscovered)
// returns what it did and, apart, one error per item it skipped; an error
// value of its own means nothing was done.
//
// # Concurrency
//
// A Registry, a Searcher and a Session are safe for concurrent use.
// Searches read an immutable snapshot of the registry and never wait for
// writers; everything derived from the tools (name parts, lowercased
// texts, indexes, rendered prompt texts) is computed once per tool or per
// snapshot and reused. No lock is held while user code runs (a lazy
// schema, a token counter, a Strategy). The context variants
// ([Searcher.SearchContext], [Searcher.CallContext],
// [Session.CallContext]) hand their context to the strategy's ranking, for
// a strategy that makes a network call; the others use
// context.Background().
package toolsearch
