// Package toolsearch implements deferred tool loading for LLM agents.
//
// An agent with hundreds of tools cannot afford every tool's JSON Schema in
// its prompt. A [Registry] keeps every tool; the tools that are not deferred
// are sent to the model as usual, the deferred ones are only listed by name
// (see [Searcher.SystemPromptSection] and [Searcher.DeferredToolsBlock]), and
// the model calls the ToolSearch tool ([Searcher.ToolDefinition]) to fetch
// the definitions it needs. [Searcher.Call] answers such a call.
//
// # Deferral
//
// A tool is deferred when, checked in this order: AlwaysLoad is set → not
// deferred; it is an MCP tool → deferred; it is named ToolSearch → not
// deferred; otherwise → deferred iff ShouldDefer is set.
//
// # Query forms
//
// A ToolSearch query is tried against four forms, in this order:
//
//  1. select:A,B — the named tools, in request order, deferred or not;
//     names that match nothing are reported in Result.NotFound with
//     suggestions. When no tool has the exact name, a unique
//     case-insensitive match is taken.
//  2. exact name — the trimmed, lowercased query equals a tool's lowercased
//     name (deferred tools first): that tool alone.
//  3. MCP prefix — the query starts with "mcp__": the deferred tools whose
//     names start with it, in pool order.
//  4. keywords — the query split on whitespace; "+term" makes a term
//     required. Only deferred tools are searched.
//
// # Ranking
//
// Keyword matches are ranked by score, highest first; equal scores keep pool
// order (tools not from MCP servers sorted by name, then MCP tools sorted by
// name, in byte order). For each term a tool scores:
//
//	rule                                            MCP  other
//	a name part equals the term                      12     10
//	else a name part contains the term                6      5
//	else the term joins two or more adjacent parts    3      3
//	the search hint has the term as a whole word      4      4
//	the description has the term as a whole word      2      2
//
// Tools that score 0 are dropped. See the package README for the name-part
// rules and the deliberate differences from Claude Code's ToolSearch.
//
// # Conversations
//
// A [Session] is one conversation over a shared Registry: the tools the
// model discovered ([Session.Tools] sends them on the next request), the
// deferred-tool announcements ([Session.Announce]: full, then deltas),
// resume from a recorded history ([Session.Resume], Anthropic Messages and
// OpenAI Chat/Responses shapes), snapshots for compaction, subagent scopes,
// auto mode ([ToolSearchMode]), the call guard ([Session.CheckCall]) and
// the optional CallTool bridge that keeps the tool list fixed. See
// examples/agentloop for a complete loop.
//
// # Strategies and limits
//
// SearchOptions.Strategy swaps the keyword ranking: [DefaultStrategy] (the
// scoring above, Claude Code parity), [BM25Strategy], [RegexStrategy] (the
// model sends an RE2 pattern) and [HybridStrategy] (name-part precedence
// plus term rarity, stop words and light stemming, for requests written as
// sentences). [Evaluate] measures any of them on a dataset of queries with
// known relevant tools. [Limits] bound queries, results and registered
// schemas; every limit reached is an error or a cut named in Result.Notes.
//
// # Concurrency
//
// A Registry and a Searcher are safe for concurrent use. Searches read an
// immutable snapshot and never wait for writers; every derived datum (name
// parts, lowercased texts, rendered prompt texts) is computed once per tool
// or per snapshot and reused.
package toolsearch
