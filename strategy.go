package toolsearch

import (
	"context"
	"encoding/json"
)

// Strategy ranks the deferred tools for a query that no other query form
// answered. Every strategy keeps the select: and exact-name forms, and the
// MCP prefix form unless its Input says the query is a pattern: only the
// ranking of the rest differs. Choose one with SearchOptions.Strategy; nil
// means DefaultStrategy.
//
// The built-in strategies are DefaultStrategy, BM25Strategy, RegexStrategy
// and HybridStrategy (ParseStrategy returns them by name). A user type may
// implement Strategy too (see the Strategy examples): it receives the same
// Corpus, is called the same way and has the same means as the built-in
// ones, which use only the exported API below (slots and Corpus.Changes
// to patch an index, Index.Update to go from one version to the next,
// Query.K and TopHits to keep only the best hits), with two exceptions:
// the default strategy's index is the keyword index the registry keeps,
// which a user's strategy reads through DefaultStrategy().Index(c) and
// Corpus.PartsContaining; and the built-in ones spend the query's work
// budget (SearchOptions.MaxQueryWork) as they scan text, which a user's
// strategy does only through Corpus.PartsContaining.
//
// A Strategy value holds only its settings: it must be safe to share
// between Searchers. Its index is built lazily, once per registry version,
// on the first query that needs it: by Index for the first version, then
// by the previous version's Index.Update. When the Strategy value is
// comparable (all the built-in ones are), that index is shared by every Searcher and
// Session of the registry that uses an equal Strategy; otherwise each
// Searcher builds its own. The registry holds a shared index only weakly:
// it is freed, with its eager indexing, once no Searcher or Session that
// uses it is reachable, so a Strategy made per Session (&MyStrategy{} or
// options of its own) costs nothing once the Session is gone. An index
// covers every deferred tool, whatever a Searcher's Scope: term statistics
// such as BM25's IDF are computed over all deferred tools, and the
// Searcher drops the hits outside its scope.
type Strategy interface {
	// Name returns the strategy's name: for a built-in strategy, the name
	// ParseStrategy accepts.
	Name() string
	// Input describes the ToolSearch input the strategy reads. The zero
	// StrategyInput is the default input: {"query", "max_results"}.
	Input() StrategyInput
	// Index returns the strategy's index of c, the deferred tools of one
	// registry version in pool order, built from nothing: the Searcher
	// calls it for the first version it ranks, and the index's Update for
	// the following ones. Index may be called concurrently.
	Index(c *Corpus) Index
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
	// The Registry keeps indexing such a Strategy for as long as a
	// Searcher or Session using it is reachable; sharing one Strategy
	// value between Searchers shares that work.
	Eager bool

	// claude marks the default strategy's input: its rankings are Claude
	// Code's, which the names form (search_names.go) keeps whenever they
	// return the tools a query names.
	claude bool
}

// Index ranks the tools of one Corpus for a query. It must be safe for
// concurrent use: many queries may call Rank at once, and Update may be
// called while they do. An Index never changes once returned.
type Index interface {
	// Rank appends to hits one Hit for each tool that matches the query,
	// in any order, and returns the slice: every such tool, or only the
	// best q.K of those in scope (q.In), as TopHits keeps them. The
	// Searcher then drops the tools outside its scope and keeps the best
	// q.K by score, ties in pool order; hits whose Tool is outside the
	// Corpus or whose Score is not above 0 are ignored. notes are shown to
	// the model with the result (Result.Notes). A non-nil error refuses
	// the query: its text is shown to the model after "Invalid ToolSearch
	// input: ", so it should say what to fix, and Search and Call return
	// it wrapped together with ErrInvalidQuery.
	Rank(ctx context.Context, q Query, hits []Hit) ([]Hit, []string, error)
	// Update returns the index of c, the Corpus of another version of the
	// same registry (usually the next one), reusing what it can of this
	// index: the Searcher calls it when the registry changes, so that the
	// work for the tools that did not change is not done again (see
	// Corpus.Changes). It must not change this index, which may still be
	// ranking queries, and may be called concurrently for different
	// versions. An index with nothing to reuse returns its strategy's
	// Index(c).
	Update(c *Corpus) Index
}

// Query is one query for an Index.
type Query struct {
	// Text is the query as the model sent it, reduced to the term budget
	// (StrategyInput.MaxTerms) unless the strategy reads patterns.
	Text string
	// K is how many hits the Searcher keeps: an index may append only its
	// best K among the tools in scope. K < 0 asks for every hit.
	K int
	// In reports whether the tool at a position is in the Searcher's
	// scope; nil means every tool is.
	In func(pos int) bool
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
