package toolsearch

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Search defaults.
const (
	DefaultMaxResults    = 5  // keyword and MCP-prefix results when max_results is not given
	DefaultMaxResultsCap = 20 // the largest max_results honoured
)

// SearchOptions configure a Searcher. A nil *SearchOptions means the
// defaults; a zero field means that field's default. Options are copied.
type SearchOptions struct {
	// MaxResults is the number of keyword or MCP-prefix matches returned
	// when the query does not say. Default DefaultMaxResults.
	MaxResults int
	// MaxResultsCap is the largest max_results honoured: a larger request is
	// lowered to it and the result says so in Notes. Default
	// DefaultMaxResultsCap.
	MaxResultsCap int
	// Scope limits the tools this Searcher sees; nil means every tool.
	Scope *Scope
	// Limits bound queries and results: its query-side fields apply
	// (MaxQueryBytes, MaxQueryTerms, MaxSelectNames, MaxResultSchemaBytes);
	// zero fields mean the defaults. See Limits.
	Limits Limits
	// Strategy ranks keyword queries (select: and exact names work the same
	// with every strategy); nil means DefaultStrategy, the spec's scoring.
	Strategy Strategy
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

// Allows reports whether the scope allows tool t.
func (sc *Scope) Allows(t *Tool) bool {
	if sc == nil {
		return true
	}
	return sc.filter()(&entry{tool: *t, deferred: t.Deferred()})
}

// Searcher answers ToolSearch queries over a Registry. It is safe for
// concurrent use and cheap to create; it sees every change to the registry
// from the next search on.
type Searcher struct {
	reg  *Registry
	opts SearchOptions
	in   func(*entry) bool // the scope
	// scoped caches the prompt texts of a scoped Searcher for one snapshot.
	scoped atomic.Pointer[scopedTexts]

	inputOnce   sync.Once
	inputSchema *jsonschema.Schema

	strategy strategyHolder // the strategy's index for the current snapshot
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
	if s.opts.MaxResultsCap <= 0 {
		s.opts.MaxResultsCap = DefaultMaxResultsCap
	}
	if s.opts.MaxResults <= 0 {
		s.opts.MaxResults = DefaultMaxResults
	}
	s.opts.MaxResults = min(s.opts.MaxResults, s.opts.MaxResultsCap)
	s.opts.Limits = s.opts.Limits.withDefaults()
	return s
}

// QueryForm is the form a query was answered by.
type QueryForm uint8

// The query forms, in the order they are tried.
const (
	FormSelect   QueryForm = iota + 1 // select:A,B
	FormExact                         // the query is a tool's name
	FormPrefix                        // an mcp__ name prefix
	FormKeywords                      // keywords
)

// String returns "select", "exact", "prefix" or "keywords".
func (f QueryForm) String() string {
	switch f {
	case FormSelect:
		return "select"
	case FormExact:
		return "exact"
	case FormPrefix:
		return "prefix"
	case FormKeywords:
		return "keywords"
	}
	return "unknown"
}

// Result is the answer to one ToolSearch query. Its JSON form is the inline
// rendering (see JSON). The slices are the caller's.
type Result struct {
	// Matches are the tools found, best first. Never nil.
	Matches []Match `json:"matches"`
	// Query is the query as given.
	Query string `json:"query"`
	// TotalDeferredTools is the number of deferred tools searched.
	TotalDeferredTools int `json:"total_deferred_tools"`
	// PendingMCPServers are the servers still connecting, sorted.
	PendingMCPServers []string `json:"pending_mcp_servers,omitempty"`
	// NotFound are the names of a select: query that match no tool, in
	// request order.
	NotFound []string `json:"not_found,omitempty"`
	// Suggestions maps each name in NotFound that has close tool names to
	// up to three of them, closest first.
	Suggestions map[string][]string `json:"suggestions,omitempty"`
	// Notes say what a limit changed or left out (a lowered max_results,
	// select: names not looked up, a tool whose schema could not be loaded
	// or did not fit in MaxResultSchemaBytes), naming the tools.
	Notes []string `json:"notes,omitempty"`
	// Form is the query form that answered.
	Form QueryForm `json:"-"`
}

// Match is one tool in a Result.
type Match struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	// Deferred reports whether the tool is deferred (a select: query may
	// return tools that are not).
	Deferred bool `json:"-"`
	// Score is the keyword score (0 for the other forms); for the bm25 and
	// hybrid strategies, the score times ScoreScale, rounded.
	Score int `json:"-"`
	// Rules are the scoring rules that fired for at least one term.
	Rules Rule `json:"-"`
}

// scored is a keyword candidate.
type scored struct {
	e     *entry
	score int
	rules Rule
}

// Search answers query, returning at most maxResults keyword or MCP-prefix
// matches; maxResults 0 means the Searcher's default, and a value above the
// cap is lowered to it (with a note in the result). It returns an error
// wrapping ErrInvalidQuery for a negative maxResults, for a query over
// MaxQueryBytes or MaxQueryTerms (also wrapping ErrLimit; see Limits), and,
// with the regex strategy, for a pattern that is too long or does not
// compile.
//
// The query forms are tried in order: select:, exact name, MCP prefix,
// keywords (see the package documentation).
func (s *Searcher) Search(query string, maxResults int) (*Result, error) {
	k, note, err := s.limit(maxResults)
	if err != nil {
		return nil, err
	}
	if err := s.checkQuery(query); err != nil {
		return nil, err
	}
	return s.search(query, k, note)
}

// checkQuery applies the query limits. The term limit does not apply to
// select: queries and regex patterns, which are not split into terms.
func (s *Searcher) checkQuery(query string) error {
	_, isSelect := selectArg(query)
	_, isRegex := s.opts.Strategy.(regexStrategy)
	return s.opts.Limits.checkQuery(query, isSelect || isRegex)
}

func (s *Searcher) limit(n int) (k int, note string, err error) {
	switch {
	case n < 0:
		return 0, "", fmt.Errorf("%w: max_results must be an integer ≥ 1, got %d", ErrInvalidQuery, n)
	case n == 0:
		return s.opts.MaxResults, "", nil
	case n > s.opts.MaxResultsCap:
		return s.opts.MaxResultsCap, "max_results " + strconv.Itoa(n) + " was lowered to the limit " + strconv.Itoa(s.opts.MaxResultsCap), nil
	}
	return n, "", nil
}

func everything(*entry) bool { return true }

func (s *Searcher) search(query string, k int, note string) (*Result, error) {
	snap := s.reg.load()
	in := s.in
	res := &Result{
		Query:              query,
		TotalDeferredTools: s.deferredCount(snap),
		PendingMCPServers:  slices.Clone(snap.pending),
	}
	if note != "" {
		res.Notes = append(res.Notes, note)
	}
	var found []*entry
	var scores []scored
	if arg, ok := selectArg(query); ok {
		res.Form = FormSelect
		var missing []string
		var one [1]*entry
		if name := trimSpace(arg); !strings.Contains(arg, ",") && name != "" {
			// One name (never cut by MaxSelectNames): no lists to build.
			if e := snap.resolve(name, in); e != nil {
				one[0] = e
				found = one[:]
			} else {
				missing = []string{name}
			}
		} else {
			names, cut := s.opts.Limits.cutSelect(selectNames(arg))
			if cut != "" {
				res.Notes = append(res.Notes, cut)
			}
			found, missing = snap.selectTools(names, in)
		}
		res.NotFound = missing
		for _, n := range missing {
			if sug := snap.suggest(n, in); len(sug) > 0 {
				if res.Suggestions == nil {
					res.Suggestions = map[string][]string{}
				}
				res.Suggestions[n] = sug
			}
		}
	} else {
		var err error
		if res.Form, found, scores, err = s.keyword(snap, query, k); err != nil {
			return nil, err
		}
	}
	res.Matches = make([]Match, 0, len(found)+len(scores))
	budget := schemaBudget{limit: s.opts.Limits.MaxResultSchemaBytes}
	add := func(e *entry, score int, rules Rule) {
		schema, err := e.loadSchema()
		if err != nil {
			res.Notes = append(res.Notes, e.tool.Name+" was left out: "+err.Error())
			return
		}
		if note, ok := budget.take(e.tool.Name, len(schema)); !ok {
			res.Notes = append(res.Notes, note)
			return
		}
		res.Matches = append(res.Matches, Match{
			Name: e.tool.Name, Description: e.tool.Description, Schema: schema,
			Deferred: e.deferred, Score: score, Rules: rules,
		})
	}
	for _, e := range found {
		add(e, 0, 0)
	}
	for _, c := range scores {
		add(c.e, c.score, c.rules)
	}
	return res, nil
}

// deferredCount returns the number of deferred tools the Searcher sees in
// snap, without rendering the prompt texts when it sees them all.
func (s *Searcher) deferredCount(snap *snapshot) int {
	if s.opts.Scope == nil {
		return len(snap.deferred)
	}
	return len(s.texts(snap).names)
}

// keywordSearch runs the exact-name, MCP-prefix and keyword forms.
func (s *snapshot) keywordSearch(query string, k int, in func(*entry) bool) (QueryForm, []*entry, []scored) {
	trimmed := trimSpace(query)
	found, ok := s.exactASCII(trimmed, in)
	q := ""
	if !ok {
		q = lower(trimmed)
		found = s.exactOf(s.lowered(q), in)
	}
	if found != nil {
		return FormExact, found, nil
	}
	if ok {
		q = lower(trimmed)
	}
	if q == "" {
		return FormKeywords, nil, nil
	}
	if strings.HasPrefix(q, "mcp__") && len(q) > len("mcp__") {
		if hits := s.prefix.find(q, k, in); len(hits) > 0 {
			return FormPrefix, hits, nil
		}
	}
	t := parseTerms(q)
	return FormKeywords, nil, s.ix.search(&t, k, in)
}

// insertTop inserts c into top, kept sorted by score descending with ties in
// arrival (pool) order, and holding at most k candidates.
func insertTop(top []scored, c scored, k int) []scored {
	if len(top) == k && (k == 0 || top[k-1].score >= c.score) {
		return top
	}
	i := len(top)
	for i > 0 && top[i-1].score < c.score {
		i--
	}
	if len(top) < k {
		top = append(top, scored{})
	}
	copy(top[i+1:], top[i:len(top)-1])
	top[i] = c
	return top
}
