package toolsearch

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/toolsearch/toolsearch/internal/jsonfast"
	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/schema"
	"github.com/toolsearch/toolsearch/internal/text"
	"github.com/toolsearch/toolsearch/internal/words"
)

// The defaults of SearchOptions.
const (
	defaultMaxResults           = 5         // matches when max_results is not given
	defaultMaxResultsCap        = 20        // the largest max_results honoured
	defaultMaxQueryBytes        = 8192      // bytes in one query
	defaultMaxQueryTerms        = 32        // terms a strategy ranks a query with (StrategyInput.MaxTerms)
	defaultMaxSelectNames       = 32        // names looked up by one select: query
	defaultMaxResultSchemaBytes = 256 << 10 // schema bytes in one Result
	defaultMaxQueryWork         = 64 << 20  // units of text scanned by one query
)

// SearchOptions configure a Searcher. A nil *SearchOptions means the
// defaults; a zero or negative field means that field's default. Options
// are copied.
//
// The limits bound what a query from a model can make the Searcher do. No
// limit is applied silently: a query over MaxQueryBytes is an error wrapping
// ErrInvalidQuery and ErrLimit, and a cut (terms over MaxQueryTerms,
// select: names, result schemas, a lowered max_results) is named in
// Result.Notes.
type SearchOptions struct {
	// MaxResults is the number of MCP-prefix or ranked matches returned
	// when the query does not say. Default 5.
	MaxResults int
	// MaxResultsCap is the largest max_results honoured: a larger request
	// is lowered to it and the result says so in Notes. Default 20.
	MaxResultsCap int
	// Scope limits the tools this Searcher sees; nil means every tool.
	Scope *Scope
	// Strategy ranks the queries that no other form answers; nil means
	// DefaultStrategy (with ClaudeCode2_1_332, Claude Code 2.1.332's
	// scoring).
	Strategy Strategy
	// Profile is the Claude Code release whose ToolSearch the Searcher
	// follows (see Profile); the zero value is ClaudeCode2_1_89.
	Profile Profile
	// Model describes the model the results are written for, where the
	// profile writes differently per model (ClaudeCode2_1_332 does).
	Model ModelTraits

	// MaxQueryBytes is the longest query answered, in bytes. Default 8192
	// (65,536 with ClaudeCode2_1_332, more than the 49,152 bytes of the
	// longest 16,384 UTF-16 code units Claude Code answers).
	// It also bounds the arguments of a ToolSearch call (Call), which are
	// refused before they are decoded when longer than 8 × MaxQueryBytes
	// + 1 KiB: room for any query of MaxQueryBytes however it is escaped.
	MaxQueryBytes int
	// MaxQueryTerms is the most whitespace-separated terms the strategy
	// ranks a query with. A longer query is answered all the same: a
	// repeated term counts once, then the least informative terms (stop
	// words, then the words most tools have) are left out, and a note names
	// them. A select: query and a pattern (StrategyInput.Pattern) are not
	// split into terms. Default: the strategy's StrategyInput.MaxTerms
	// (32 for DefaultStrategy, 128 for BM25Strategy and HybridStrategy).
	// With ClaudeCode2_1_332 the first terms are kept instead, silently, as
	// Claude Code keeps them.
	MaxQueryTerms int
	// MaxSelectNames is the most names one select: query looks up; the
	// names after it are not looked up, and a note lists them. Default 32.
	// With ClaudeCode2_1_332 it is 64 by default, and the names after it
	// are dropped silently, as Claude Code drops them.
	MaxSelectNames int
	// MaxResultSchemaBytes is the most schema bytes one Result carries.
	// Matches are taken best first; one whose schema does not fit in what
	// is left is left out, with a note naming it and giving the sizes.
	// Default 256 KiB, more than the largest schema a Registry accepts by
	// default, so that any tool fits in a result of its own.
	MaxResultSchemaBytes int
	// MaxQueryWork bounds the text one query may make the search scan
	// beyond its index lookups, in units of about one byte compared
	// (about a nanosecond): the descriptions checked for a keyword term
	// with punctuation in it ("c++", "e.g"), the texts a regex strategy
	// pattern runs on (each byte weighs the pattern's program size, or 1
	// for a plain word), the name parts compared for the rule "a name part
	// contains the term" (default and hybrid strategies), and the names
	// compared for close names (select: suggestions, and the call guard's
	// "did you mean"). When it runs out, the search stops there and Result.Notes says that
	// matching was cut, so that some matching tools may be missing. Words,
	// names, required terms and the other query forms cost no scanning.
	// Default 64 Mi units, far above what real queries need; a query that
	// reaches it costs tens of milliseconds whatever the catalog's size.
	MaxQueryWork int
	// MaxListingBytes bounds the bytes of SystemPromptSection and of a Session's announcements: a longer
	// list groups MCP servers ("mcp__github__* (42 tools)"), then counts what it cannot list, with a note
	// on reaching them (README, "Huge catalogs: a bounded listing"). Default 0: no bound.
	MaxListingBytes int
}

// Scope is an allow-list of tool names for a subagent. A tool is in scope
// when its name is listed, or when "*" is listed and the tool is not
// deferred or IncludeDeferred is set. A search, select or prompt text
// through a scoped Searcher never mentions a tool outside its scope: such a
// tool is "not found", with no suggestion that reveals it.
type Scope struct {
	// Allow lists tool names; "*" stands for every tool.
	Allow []string
	// IncludeDeferred puts deferred tools in a "*" scope.
	IncludeDeferred bool
}

// filter returns the scope as a predicate on entries.
func (sc *Scope) filter() func(*entry) bool {
	if sc == nil {
		return everything
	}
	names := make(map[string]bool, len(sc.Allow))
	star := false
	for _, n := range sc.Allow {
		if n == "*" {
			star = true
		} else {
			names[n] = true
		}
	}
	include := sc.IncludeDeferred
	return func(e *entry) bool {
		return names[e.tool.Name] || star && (!e.deferred || include)
	}
}

func everything(*entry) bool { return true }

// Searcher answers ToolSearch queries over a Registry. It is safe for
// concurrent use and cheap to create; it sees every change to the registry
// from the next query on.
type Searcher struct {
	reg      *Registry
	opts     SearchOptions
	strategy Strategy
	in       func(*entry) bool // the scope
	input    toolSearchInput

	validateOnce sync.Once
	validator    *jsonschema.Schema
	validateErr  error

	texts   memo[*promptTexts]  // the prompt texts of a scoped Searcher
	compact memo[*listingTexts] // the compact listings (MaxListingBytes)
	index   *memo[Index]        // the strategy's index: the registry's shared one, or the Searcher's own
}

// NewSearcher returns a Searcher over reg.
func NewSearcher(reg *Registry, opts *SearchOptions) *Searcher {
	s := &Searcher{reg: reg}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.Scope != nil {
		sc := *s.opts.Scope
		sc.Allow = slices.Clone(sc.Allow)
		s.opts.Scope = &sc
	}
	s.in = s.opts.Scope.filter()
	o := &s.opts
	o.MaxResultsCap = orDefault(o.MaxResultsCap, defaultMaxResultsCap)
	o.MaxResults = min(orDefault(o.MaxResults, defaultMaxResults), o.MaxResultsCap)
	maxBytes, maxNames := defaultMaxQueryBytes, defaultMaxSelectNames
	if o.Profile == ClaudeCode2_1_332 {
		maxBytes, maxNames = defaultMaxQueryBytes332, defaultMaxSelectNames332
	}
	o.MaxQueryBytes = orDefault(o.MaxQueryBytes, maxBytes)
	o.MaxSelectNames = orDefault(o.MaxSelectNames, maxNames)
	o.MaxResultSchemaBytes = orDefault(o.MaxResultSchemaBytes, defaultMaxResultSchemaBytes)
	o.MaxQueryWork = orDefault(o.MaxQueryWork, defaultMaxQueryWork)
	s.strategy = o.Strategy
	switch {
	case s.strategy != nil:
	case o.Profile == ClaudeCode2_1_332:
		s.strategy = cc332Strategy{}
	default:
		s.strategy = DefaultStrategy()
	}
	s.input = resolveInput(s.strategy.Input(), o.Profile, o.Model)
	o.MaxListingBytes, s.input.description = withListingHint(s.input.description, o.MaxListingBytes, s.input.pattern)
	o.MaxQueryTerms = orDefault(o.MaxQueryTerms, s.input.maxTerms)
	if shareable(s.strategy) {
		s.index = reg.indexes.memoOf(s.strategy)
		if s.input.eager {
			reg.indexes.watch(s.strategy, s.index).kick(reg)
		}
	} else {
		s.index = &memo[Index]{}
	}
	return s
}

// Search answers query as a ToolSearch call with these arguments would be
// answered, returning at most maxResults MCP-prefix or ranked matches;
// maxResults 0 means the Searcher's default, and a value above
// MaxResultsCap is lowered to it (with a note in the result).
//
// The query forms are tried in order: select:, exact name, MCP prefix, then
// the strategy's ranking (see the package documentation). The error, which
// wraps ErrInvalidQuery and whose text is written for the model, reports a
// negative maxResults, a query over MaxQueryBytes (also wrapping ErrLimit),
// or a query the strategy refuses (an invalid regex pattern). A query with
// more terms than MaxQueryTerms is answered with its most informative
// terms, and Result.Notes names the others.
func (s *Searcher) Search(query string, maxResults int) (*Result, error) {
	return s.search(context.Background(), query, maxResults)
}

// Call answers a ToolSearch call: args are the raw JSON arguments as the
// model sent them, validated against the ToolSearch input schema
// (ToolDefinition). Malformed JSON, a missing or non-string query, a
// max_results that is not an integer ≥ 1, unknown fields, and the errors of
// Search give an error wrapping ErrInvalidQuery whose text tells the model
// what was wrong: send it back as an error tool result. A number with more
// than 100 digits or an exponent beyond ±400 is refused before anything
// else reads it (also wrapping ErrLimit; 1e308 is fine, and lowered to the
// cap). Call never panics on any input.
func (s *Searcher) Call(args json.RawMessage) (*Result, error) {
	return s.call(context.Background(), args)
}

// SearchContext is Search with a context, which the strategy's ranking
// receives (Index.Rank): a strategy that makes a network call, such as
// the semantic strategy's query embedding, stops waiting when ctx is done.
// The built-in strategies of this package do not read it.
func (s *Searcher) SearchContext(ctx context.Context, query string, maxResults int) (*Result, error) {
	return s.search(ctx, query, maxResults)
}

// CallContext is Call with a context, which the strategy's ranking
// receives, as with SearchContext.
func (s *Searcher) CallContext(ctx context.Context, args json.RawMessage) (*Result, error) {
	return s.call(ctx, args)
}

func (s *Searcher) call(ctx context.Context, args json.RawMessage) (*Result, error) {
	query, k, err := s.parseArgs(args)
	if err != nil {
		return nil, err
	}
	return s.search(ctx, query, k)
}

// parseArgs reads the query and max_results (0 when not given) of a
// ToolSearch call.
func (s *Searcher) parseArgs(args json.RawMessage) (query string, k int, err error) {
	in := &s.input
	if n, limit := len(args), 8*s.opts.MaxQueryBytes+1024; n > limit {
		return "", 0, overLimit(argsTooLong(n, limit))
	}
	if in.schemaIsDefault {
		if q, k, ok := jsonfast.PlainArgs(args); ok {
			return q, k, nil
		}
	}
	return s.parseArgsChecked(args)
}

// parseArgsChecked is parseArgs the general way: decoded, checked against
// the input schema, then read.
func (s *Searcher) parseArgsChecked(args json.RawMessage) (query string, k int, err error) {
	in := &s.input
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return "", 0, invalidQuery(argsNotJSON(err, in.usage))
	}
	if _, err := d.Token(); err != io.EOF { // d.More misses a stray '}' or ']'
		return "", 0, invalidQuery(argsTrailing(in.usage))
	}
	if err := schema.CheckNumbers(v); err != nil {
		return "", 0, overLimit(argsBadNumber(err, in.usage))
	}
	validator, err := s.inputValidator()
	if err != nil {
		return "", 0, err
	}
	if err := validator.Validate(v); err != nil {
		return "", 0, invalidQuery(schema.Message(err) + "; " + in.usage)
	}
	m, _ := v.(map[string]any)
	query, ok := m[in.field].(string)
	if !ok {
		return "", 0, invalidQuery(argsNoQuery(in.field, in.usage))
	}
	if raw, given := m["max_results"]; given {
		n, ok := raw.(json.Number)
		f, err := n.Float64()
		switch {
		case !ok || f < 1 || f != math.Trunc(f):
			return "", 0, invalidQuery(argsBadMaxResults(in.usage))
		case err != nil || f > math.MaxInt32:
			k = math.MaxInt32 // lowered to the cap, with a note
		default:
			k = int(f)
		}
	}
	return query, k, nil
}

// inputValidator returns the compiled ToolSearch input schema.
func (s *Searcher) inputValidator() (*jsonschema.Schema, error) {
	switch {
	case s.input.cc332Schema:
		return cc332InputValidator(), nil
	case s.input.schemaIsDefault:
		return defaultInputValidator(), nil
	}
	s.validateOnce.Do(func() {
		s.validator, s.validateErr = compileSchema(s.input.schema)
		if s.validateErr != nil {
			s.validateErr = invalidStrategyInput(s.strategy.Name(), s.validateErr)
		}
	})
	return s.validator, s.validateErr
}

var (
	defaultInputValidator = sync.OnceValue(func() *jsonschema.Schema { return mustCompile(defaultInputSchema("query")) })
	cc332InputValidator   = sync.OnceValue(func() *jsonschema.Schema { return mustCompile(cc332InputSchema) })
)

// mustCompile compiles a ToolSearch input schema written in this package.
func mustCompile(s string) *jsonschema.Schema {
	v, err := compileSchema(json.RawMessage(s))
	if err != nil {
		panic("toolsearch: the ToolSearch schema does not compile: " + err.Error())
	}
	return v
}

// search is the one query pipeline: every way of answering a query (Search,
// Call, Session.Call) goes through it, with every strategy. It applies the
// limits, then tries the forms in order: select:, exact name, MCP prefix
// (unless the strategy reads patterns), then the strategy's ranking, whose
// hits it filters by scope and cuts to the best k; last it loads the
// schemas within the result budget.
func (s *Searcher) search(ctx context.Context, query string, maxResults int) (*Result, error) {
	k, note, err := s.maxResults(maxResults)
	if err != nil {
		return nil, err
	}
	if len(query) > s.opts.MaxQueryBytes {
		return nil, overLimit(queryTooLong(len(query), s.opts.MaxQueryBytes))
	}
	query = text.ValidUTF8(query) // as Call's JSON decoder reads it
	snap := s.reg.load()
	res := &Result{
		Query:              query,
		TotalDeferredTools: s.deferredCount(snap),
		PendingMCPServers:  slices.Clone(s.pendingServers(snap)),
	}
	cc332 := s.opts.Profile == ClaudeCode2_1_332
	if cc332 {
		res.cc = &cc332Result{model: s.opts.Model}
		query = shape332(query, s.opts.MaxQueryTerms, s.opts.MaxSelectNames)
	}
	if note != "" {
		res.Notes = append(res.Notes, note)
	}
	var one [1]*entry
	var found []*entry // the tools of a name form, in order
	var hits []Hit     // the ranked form's best, in order
	arg, isSelect := selectArg(query)
	q := words.TrimSpace(query)
	switch {
	case isSelect && cc332:
		res.Form = FormSelect
		found = s.selectTools332(snap, arg, res, one[:0])
	case isSelect:
		res.Form = FormSelect
		found = s.selectTools(snap, arg, res, one[:0])
	case q == "" && cc332:
		res.Form = FormRanked // nothing to rank (Claude Code says no more)
	case q == "":
		res.Form = FormRanked // nothing to rank: say what to send
		res.Notes = append(res.Notes, emptyQuery())
	default:
		if e := s.exact(snap, q); e != nil {
			res.Form, one[0] = FormExact, e
			found = one[:]
			break
		}
		if !s.input.pattern && isPrefixQuery(q) {
			if found = snap.prefix.find(words.Lower(q), k, s.in); len(found) > 0 {
				res.Form = FormPrefix
				break
			}
		}
		res.Form = FormRanked
		buf := s.reg.hitBuffer()
		defer s.reg.putHitBuffer(buf)
		var notes []string
		if hits, notes, err = s.rank(ctx, snap, query, k, buf.hits[:0]); err != nil {
			return nil, err
		}
		buf.hits = hits
		res.Notes = append(res.Notes, notes...)
		var first string
		if !cc332 { // (Claude Code 2.1.332 has no names form)
			if hits, first = s.namesFirst(snap, q, k, hits); first != "" {
				res.Notes = append(res.Notes, first)
			}
		}
	}
	s.fill(res, snap, found, hits)
	s.noteUnlisted(res, snap)
	if cc332 {
		s.finish332(res, snap, q)
	}
	return res, nil
}

// isPrefixQuery reports whether the trimmed query is in the MCP prefix form:
// lowercased, it starts with "mcp__" and has more. (No character outside
// ASCII lowercases to one of "mcp_", so the prefix is compared as ASCII.)
func isPrefixQuery(q string) bool {
	return len(q) > len("mcp__") && strings.EqualFold(q[:len("mcp__")], "mcp__")
}

// maxResults turns a requested max_results (0: the default) into the number
// of matches to return, with the note that says it was lowered.
func (s *Searcher) maxResults(n int) (k int, note string, err error) {
	switch {
	case n < 0:
		return 0, "", invalidQuery(badMaxResults(n))
	case n == 0:
		return s.opts.MaxResults, "", nil
	case n > s.opts.MaxResultsCap:
		return s.opts.MaxResultsCap, maxResultsLowered(n, s.opts.MaxResultsCap), nil
	}
	return n, "", nil
}

// rank runs the strategy's index over the deferred tools of snap and
// returns the best k of its hits in scope (k < 0: all), best first, ties in
// pool order. A query in words is first cut to the term budget (fitTerms).
func (s *Searcher) rank(ctx context.Context, snap *snapshot, query string, k int, buf []Hit) ([]Hit, []string, error) {
	idx := s.indexOf(snap)
	var cut string
	if !s.input.pattern && s.opts.Profile != ClaudeCode2_1_332 { // (shape332 cut it)
		query, cut = fitTerms(query, s.opts.MaxQueryTerms, snap.ix.docFreq)
	}
	ctx, work := querywork.With(ctx, s.opts.MaxQueryWork)
	q := Query{Text: query, K: k}
	if s.opts.Scope != nil {
		q.In = func(pos int) bool { return s.in(snap.deferredAt(pos)) }
	}
	hits, notes, err := idx.Rank(ctx, q, buf)
	if err != nil {
		return nil, nil, invalidQuery(err.Error(), err)
	}
	if cut != "" {
		notes = append([]string{cut}, notes...)
	}
	if work.Cut() {
		notes = append(notes, matchingCut())
	}
	// Whatever the index kept, only hits in the Corpus and in scope count,
	// best first.
	n := snap.deferred.Len()
	kept := hits[:0]
	for _, h := range hits {
		if h.Tool >= 0 && h.Tool < n && h.Score > 0 && s.in(snap.deferredAt(h.Tool)) {
			kept = append(kept, h)
		}
	}
	return topK(kept, k), notes, nil
}

// topK reorders hits so that the best k (k < 0: all) come first, by score
// descending then pool order (Tool), and returns them, through the TopHits
// the built-in indexes keep as they rank.
func topK(hits []Hit, k int) []Hit {
	if k < 0 {
		slices.SortFunc(hits, compareHits)
		return hits
	}
	// TopHits writes only where hits were already read: the i-th offer
	// stores at most i+1 hits.
	best := newTopHits(k, nil, hits[:0])
	for _, h := range hits {
		best.Offer(h.Tool, h.Score, h.Rules)
	}
	return best.Hits()
}

// fill adds the matches to res: found (a name form) or hits (the ranked
// form), each with its schema, as long as the schemas fit in the result.
func (s *Searcher) fill(res *Result, snap *snapshot, found []*entry, hits []Hit) {
	res.Matches = make([]Match, 0, len(found)+len(hits))
	budget := schemaBudget{limit: s.opts.MaxResultSchemaBytes}
	add := func(e *entry, score float64, rules Rule) {
		schema, err := e.loadSchema()
		if err != nil {
			res.Notes = append(res.Notes, leftOutUnloaded(e.tool.Name, err))
			return
		}
		if note, ok := budget.take(e.tool.Name, len(schema)); !ok {
			res.Notes = append(res.Notes, note)
			return
		}
		res.Matches = append(res.Matches, Match{
			Name: e.tool.Name, Description: s.loadedDescription(e), Schema: schema,
			Deferred: e.deferred, Score: score, Rules: rules, src: e,
		})
	}
	for _, e := range found {
		add(e, 0, 0)
	}
	for _, h := range hits {
		add(snap.deferredAt(h.Tool), h.Score, h.Rules)
	}
}

// schemaBudget tracks the schema bytes left in one Result.
type schemaBudget struct {
	limit, used int
}

// take reserves n bytes for tool name's schema, or returns a note saying
// why the tool was left out.
func (b *schemaBudget) take(name string, n int) (note string, ok bool) {
	if n <= b.limit-b.used {
		b.used += n
		return "", true
	}
	return leftOutBudget(name, n, b.limit-b.used, b.limit), false
}

// deferredCount returns the number of deferred tools the Searcher sees in
// snap, without rendering the prompt texts when it sees them all.
func (s *Searcher) deferredCount(snap *snapshot) int {
	if s.opts.Scope == nil {
		return snap.deferred.Len()
	}
	return len(s.promptTexts(snap).names)
}

// hitBuf is a reusable buffer of hits.
type hitBuf struct{ hits []Hit }

func (r *Registry) hitBuffer() *hitBuf {
	if b, ok := r.hitBufs.Get().(*hitBuf); ok {
		return b
	}
	return &hitBuf{}
}

func (r *Registry) putHitBuffer(b *hitBuf) {
	if cap(b.hits) <= 1<<16 {
		r.hitBufs.Put(b)
	}
}

// Prepare builds the strategy's index of the registry's current version
// if it is not built yet, and returns when it is, so that the next query
// does not wait for it: for example at start-up, with a large registry.
// Queries build the index themselves when they need it, so calling
// Prepare is never required. A strategy with work of its own to finish
// (the semantic strategy's embeddings) may go on with it in the
// background.
func (s *Searcher) Prepare() { s.indexOf(s.reg.load()) }

// indexOf returns the strategy's index of snap, built on first use.
func (s *Searcher) indexOf(snap *snapshot) Index {
	return s.index.get(snap, func(snap *snapshot, prev Index) Index {
		return indexFor(s.strategy, corpusOf(s.reg, snap), prev)
	})
}

// invalidStrategyInput is the error for a strategy whose input schema does
// not compile.
func invalidStrategyInput(name string, err error) error {
	return errorf(ErrInvalidOption, "strategy %q: its ToolSearch input schema does not compile: %s", name, ModelText(err))
}
