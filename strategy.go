package toolsearch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
)

// Strategy ranks the deferred tools for a query that no other query form
// answered. Every strategy keeps the select: and exact-name forms, and the
// MCP prefix form unless its Input says the query is a pattern: only the
// ranking of the rest differs. Choose one with SearchOptions.Strategy; nil
// means DefaultStrategy.
//
// The built-in strategies are DefaultStrategy, BM25Strategy, RegexStrategy
// and HybridStrategy (ParseStrategy returns them by name). A user type may
// implement Strategy too (see the Strategy example): it receives the same
// Corpus and is called the same way as the built-in ones.
//
// A Strategy value holds only its settings: it must be safe to share
// between Searchers. Its Index is built lazily, once per registry version,
// on the first query that needs it. When the Strategy value is comparable
// (all the built-in ones are), that index is shared by every Searcher and
// Session of the registry that uses an equal Strategy; otherwise each
// Searcher builds its own. An index covers every deferred tool, whatever a
// Searcher's Scope: term statistics such as BM25's IDF are computed over
// all deferred tools, and the Searcher drops the hits outside its scope.
type Strategy interface {
	// Name returns the strategy's name: for a built-in strategy, the name
	// ParseStrategy accepts.
	Name() string
	// Input describes the ToolSearch input the strategy reads. The zero
	// StrategyInput is the default input: {"query", "max_results"}.
	Input() StrategyInput
	// Index returns the strategy's index of c, the deferred tools of one
	// registry version in pool order. prev is an index this strategy
	// returned for another version of the same registry (usually the
	// previous one), or nil, so that the work for unchanged tools can be
	// reused. Index may be called concurrently for different versions.
	Index(c Corpus, prev Index) Index
}

// StrategyInput describes the ToolSearch input a Strategy reads. Zero
// fields mean the defaults.
type StrategyInput struct {
	// Field is the name of the input field holding the query; "" means
	// "query". The input also takes "max_results".
	Field string
	// Description is the ToolSearch tool's description shown to the model;
	// "" means the default one (which explains select:, keywords and +).
	Description string
	// Schema is the ToolSearch input JSON Schema. It must require Field as
	// a string; "max_results", when allowed, must be an integer ≥ 1. nil
	// means the default schema for Field.
	Schema json.RawMessage
	// Pattern reports that the query is one pattern rather than words: the
	// MCP prefix form (a query starting with "mcp__") and the term budget
	// (SearchOptions.MaxQueryTerms) do not apply to it.
	Pattern bool
	// MaxTerms is the most whitespace-separated terms the strategy ranks a
	// query with when SearchOptions.MaxQueryTerms is not set: a longer
	// query is answered with its most informative terms. Choose it from
	// the cost of a term to the strategy. 0 means 32.
	MaxTerms int
	// Eager asks for the index to be built as soon as tools are registered
	// or change, in the background, rather than on the first query that
	// needs it: for a strategy whose index starts slow work of its own
	// (the semantic strategy's embeddings). It applies to a comparable
	// Strategy used by a Searcher or Session of the registry: once one is
	// made, every new registry version is indexed on a goroutine of the
	// Registry's, which ends when the index of the newest version is
	// built (a burst of changes is indexed once, not once per change).
	// The Registry keeps indexing such a Strategy for as long as it lives:
	// share one Strategy value between its Searchers rather than making
	// one per Searcher.
	Eager bool
}

// Corpus is what a Strategy indexes: the deferred tools of one registry
// version, in pool order. It never changes and is safe for concurrent
// use. The package implements it for every registry version.
type Corpus interface {
	// Len returns the number of tools.
	Len() int
	// Tool returns the tool at position i, 0 ≤ i < Len(). Its slices
	// (InputSchema, Aliases) are shared with the registry: read them, never
	// change them.
	Tool(i int) Tool
}

// Index ranks the tools of one Corpus for a query. It must be safe for
// concurrent use: many queries may call Rank at once.
type Index interface {
	// Rank appends to hits one Hit for each tool that matches query (the
	// query as the model sent it), in any order, and returns the slice.
	// The Searcher then drops the tools outside its scope and keeps the
	// best max_results by score, ties in pool order; hits whose Tool is
	// outside the Corpus or whose Score is not above 0 are ignored. notes
	// are shown to the model with the result (Result.Notes). A non-nil
	// error refuses the query: its text is shown to the model after
	// "Invalid ToolSearch input: ", so it should say what to fix, and
	// Search and Call return it wrapped together with ErrInvalidQuery.
	Rank(ctx context.Context, query string, hits []Hit) ([]Hit, []string, error)
}

// Hit is one tool an Index found for a query.
type Hit struct {
	// Tool is the tool's position in the Corpus.
	Tool int
	// Score ranks the hit: higher first. It must be above 0.
	Score float64
	// Rules are the rules that fired, reported in Match.Rules.
	Rules Rule
}

// ParseStrategy returns the built-in strategy named name, with its default
// settings: "default" (or ""), "bm25", "regex" or "hybrid". Another name is
// an error wrapping ErrInvalidOption.
func ParseStrategy(name string) (Strategy, error) {
	switch name {
	case "", "default":
		return DefaultStrategy(), nil
	case "bm25":
		return BM25Strategy(nil), nil
	case "regex":
		return RegexStrategy(), nil
	case "hybrid":
		return HybridStrategy(), nil
	}
	return nil, fmt.Errorf("%w: unknown strategy %q (want one of default, bm25, regex, hybrid)", ErrInvalidOption, name)
}

// defaultStrategy is the keyword scoring of the package documentation.
type defaultStrategy struct{}

// DefaultStrategy returns the keyword scoring described in the package
// documentation (the Ranking section): name parts, then search hint and
// description words, with required "+" terms. Its rankings equal Claude
// Code's. Over a registry it reads the keyword index the registry keeps
// up to date as tools change; over any other Corpus it builds one.
func DefaultStrategy() Strategy { return defaultStrategy{} }

func (defaultStrategy) Name() string         { return "default" }
func (defaultStrategy) Input() StrategyInput { return StrategyInput{} }

// Index returns the keyword index of c: the registry's own for a
// registry version, else one built from c's tools.
func (defaultStrategy) Index(c Corpus, _ Index) Index {
	ix, pos := corpusIndex(c)
	return &keywordIndex{ix, pos}
}

// corpusIndex returns the keyword index of c and the Corpus position of
// each of its slots: the registry's own for a registry version, else one
// built from c's tools (slot i at position i).
func corpusIndex(c Corpus) (*index, []int32) {
	if sc, ok := c.(*snapshotCorpus); ok {
		return sc.s.ix, sc.s.dpos
	}
	tools := make([]*entry, c.Len())
	pos := make([]int32, c.Len())
	for i := range tools {
		t := c.Tool(i)
		tools[i] = newEntry(&t)
		pos[i] = int32(i)
	}
	return buildIndex(tools, nil, nil), pos
}

// snapshotCorpus is the Corpus of a registry version: its deferred tools.
type snapshotCorpus struct{ s *snapshot }

func (c *snapshotCorpus) Len() int        { return len(c.s.deferred) }
func (c *snapshotCorpus) Tool(i int) Tool { return c.s.deferred[i].tool }

// strategyIndexes are the indexes of the comparable strategies used with
// one registry, one memo per strategy value, shared by its Searchers and
// Sessions.
type strategyIndexes struct {
	m sync.Map // Strategy → *memo[Index]

	mu    sync.Mutex
	eager []*eagerIndex // the memos of the strategies whose Input says Eager
}

// eagerIndex builds the index of an Eager strategy for the newest registry
// version, on one goroutine at a time that ends when it is done.
type eagerIndex struct {
	st      Strategy
	memo    *memo[Index]
	running atomic.Bool // a goroutine is building
	again   atomic.Bool // a version was published since it last looked
}

// watch makes st's index (held by m) eager, once per strategy value.
func (x *strategyIndexes) watch(st Strategy, m *memo[Index]) *eagerIndex {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, e := range x.eager {
		if e.memo == m {
			return e
		}
	}
	e := &eagerIndex{st: st, memo: m}
	x.eager = append(x.eager, e)
	return e
}

// changed starts building the eager indexes of r's newest version.
func (x *strategyIndexes) changed(r *Registry) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, e := range x.eager {
		e.kick(r)
	}
}

// kick makes sure that r's newest version gets indexed: by the goroutine
// already building, which looks again when it is done, or by a new one.
func (e *eagerIndex) kick(r *Registry) {
	e.again.Store(true)
	if e.running.CompareAndSwap(false, true) {
		go e.run(r)
	}
}

func (e *eagerIndex) run(r *Registry) {
	for {
		e.again.Store(false)
		snap := r.load()
		e.memo.get(snap, func(prev Index) Index { return e.st.Index(&snapshotCorpus{snap}, prev) })
		e.running.Store(false)
		// A kick that came after the load either saw running true and set
		// again (seen here), or started a goroutine of its own.
		if !e.again.Load() || !e.running.CompareAndSwap(false, true) {
			return
		}
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
	return s.index.get(snap, func(prev Index) Index {
		return s.strategy.Index(&snapshotCorpus{snap}, prev)
	})
}

// shareable reports whether st can key a map: a non-comparable strategy
// (one holding a slice, map or function) gets an index per Searcher.
func shareable(st Strategy) bool { return reflect.ValueOf(st).Comparable() }

// memoOf returns the memo holding st's index.
func (x *strategyIndexes) memoOf(st Strategy) *memo[Index] {
	if m, ok := x.m.Load(st); ok {
		return m.(*memo[Index])
	}
	m, _ := x.m.LoadOrStore(st, &memo[Index]{})
	return m.(*memo[Index])
}

// toolDocs keep a built-in strategy's per-tool data from one index to the
// next: a tool whose name, description, search hint and schema are
// unchanged keeps its data.
type toolDocs[D any] map[string]toolDoc[D]

type toolDoc[D any] struct {
	desc, hint string
	schema     []byte
	d          D
}

// get returns the data kept for t, or build(t) for a new or changed tool,
// and records it in next.
func (m toolDocs[D]) get(t *Tool, next toolDocs[D], build func(*Tool) D) D {
	old, ok := m[t.Name]
	if !ok || old.desc != t.Description || old.hint != t.SearchHint || !bytes.Equal(old.schema, t.InputSchema) {
		old = toolDoc[D]{t.Description, t.SearchHint, t.InputSchema, build(t)}
	}
	next[t.Name] = old
	return old.d
}

// invalidStrategyInput is the error for a strategy whose input schema does
// not compile.
func invalidStrategyInput(name string, err error) error {
	return fmt.Errorf("%w: strategy %q: its ToolSearch input schema does not compile: %v", ErrInvalidOption, name, err)
}
