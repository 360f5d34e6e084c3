package semantic

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/words"
)

// The defaults of Options, and the fixed settings of the strategy.
const (
	defaultQueryTimeout = 2 * time.Second
	defaultBatchSize    = 256
	defaultWeight       = 0.9
	// candidates is the number of nearest tools a query takes from the
	// vector search into the fusion.
	candidates = 100
	// batchTimeout bounds one background Embed call.
	batchTimeout = 2 * time.Minute
	// Waits after a failed background batch: doubling from retryMin up
	// to retryMax.
	retryMin, retryMax = time.Second, time.Minute
	// Pauses of the query embedding after a failure: doubling from
	// pauseMin up to pauseMax while it keeps failing.
	pauseMin, pauseMax = time.Second, 30 * time.Second
)

// Options are the settings of a semantic [Strategy]. A nil *Options means
// the defaults; a zero or negative number or duration means that field's
// default. Options are copied.
type Options struct {
	// Store keeps the tools' vectors across restarts: a tool whose vector
	// it holds is not embedded again, and every vector embedded is put
	// there, then flushed when the background work is done (and by
	// Close). nil keeps vectors in memory only, in each registry's index.
	Store Store
	// QueryTimeout bounds the embedding of a query: a query whose
	// embedding takes longer is ranked by keywords only, with a note.
	// Default 2 s.
	QueryTimeout time.Duration
	// BatchSize is the most tool texts sent in one Embed call by the
	// background work. Default 256.
	BatchSize int
	// Weight is the embedding ranking's largest share of a tool's score,
	// at most 1: its share for a query none of whose words any tool has; a
	// query whose words match a tool well leaves it less (see Strategy,
	// Fusion). 0 or less means the default, 0.9. 1 ranks by the embedding
	// alone, the hybrid ranking ignored (a required word still filters):
	// what the model does by itself. Measure another weight on your own
	// tools and model with toolsearch eval --vectors --semantic-weight.
	Weight float64
	// OnError, if set, is called with each failure of the background
	// work: a batch the Embedder failed (it is tried again after a wait
	// that doubles from 1 s to 1 min), a vector refused (wrong length, not
	// finite or all zero: that tool stays ranked by keywords), a Store
	// that failed. It is called from the background goroutine, with no
	// lock held. A failed query embedding is not reported here: the
	// search result's notes say so.
	OnError func(error)
}

// Strategy is the semantic strategy: a toolsearch.Strategy that ranks the
// deferred tools by the meaning of the query as well as by its words. It
// fuses two rankings of a query:
//
//   - the hybrid strategy's (toolsearch.HybridStrategy): every tool it
//     matches, with its score;
//   - the embedding ranking: the 100 tools whose vectors are the most
//     similar to the query's (cosine similarity over the tools' vectors,
//     exact below 32,768 tools, see [Vectors]).
//
// # Fusion
//
// A tool's score is a weighted sum:
//
//	score = (1 − w) × hybrid score / best hybrid score
//	      + w × (0.15 × (1 − place/100) + 0.85 × (cos − c100) / max(0.35, c1 − c100))
//
// where place is the tool's place in the embedding ranking (1 for the
// nearest), and c1 and c100 are the best and the 100th cosine similarity
// of that ranking: a tool's part of the embedding's share goes mostly by
// how much closer to the query its vector is than the 100th tool's (all
// of that at 0.35 closer, or for the best tool when they spread further),
// and a little by its place; the 100th tool and the tools outside the
// ranking get nothing. The embedding's share w depends on the query, so
// that the embedding decides where the words do not, and cannot undo a
// good word match:
//
//		w = W / (1 + (best hybrid score / 5)²) × min(1, 30 / words)
//		      × min(1, max(0, (c1 − c100 − 0.1) / 0.25))
//		      × min(1, max(0, (1.5 − (c1 − c100) / c1) / 0.3))
//
//	  - W is Options.Weight (default 0.9): the embedding's share for a query
//	    none of whose words any tool has;
//	  - the better the best word match (the hybrid score sums the rarity of
//	    each query word a tool has, more for a word of its name), the less
//	    the embedding: half at a best hybrid score of 5, which a tool having
//	    two rare words of a short query reaches; a share under 0.05 (a best
//	    hybrid score over about 20) is 0, since it could only break near
//	    ties of a strong word match, which it does no better than pool
//	    order;
//	  - a query of more than 30 words leaves it less, in proportion: a long
//	    request has many words to match, and its embedding blurs;
//	  - an embedding ranking whose best tool (c1) is barely closer to the
//	    query than its 100th is no evidence: within 0.1 it has no share, and
//	    a full one from 0.35. A model whose similarities all lie close
//	    together (word-vector averages) counts less than one that separates
//	    the tools; a model whose cosines are compressed counts less too;
//	    measure yours (see the README);
//	  - a query vector that points at no tool is no evidence either: when
//	    the 100th tool is about as far below 0 as the best is above it (the
//	    spread c1 − c100 over c1 from 1.2 to 1.5, or c1 ≤ 0), the share falls
//	    to 0. A word-vector model does this with a query in a language it
//	    does not know, its vector made of the few words it has;
//	  - a query of at most 6 words whose best hybrid match is on a tool's
//	    name (a part of it, or its words joined) names the tool: w is 0.
//
// When the embedding's share is at least 0.15, the two rankings keep
// their own say in what the model sees: of the max_results tools
// returned (2 or more), the last goes to the nearest tool of the
// embedding ranking that the others do not already include (in the
// Searcher's scope, and matched by the words when the query has a
// required term), if its cosine is within 0.05 of the nearest tool's;
// its score is raised to halfway between the two scores around that
// place. The tool both rankings agree on stays first;
// a tool the embedding finds nearest but the words miss keeps a place.
// Nothing moves when those two scores are equal.
//
// A tool scoring 0 is left out; ties keep pool order. A tool both
// rankings put first scores about 1. Options.Weight 1 ranks by the embedding
// alone, the hybrid ranking ignored, to see what a model does by itself. A
// tool the embedding ranking found reports [toolsearch.RuleSemantic] in
// Match.Rules, besides its hybrid rules. A query with a required term
// ("+word") returns only the tools the hybrid ranking matched (those
// having every required word), ordered by the fusion. The select:,
// exact-name and MCP-prefix forms, scopes, limits and renderings are the
// pipeline's, as with every strategy. Its term budget is the hybrid
// strategy's, 128.
//
// The fusion's numbers were tuned on the even-numbered queries of four
// public tool-retrieval benchmarks and of the project's query-shape sets,
// with the vectors of a sentence-embedding model (Universal Sentence
// Encoder Lite) and of a weaker one (GloVe word-vector averages), so that
// with either it does not rank worse than the hybrid strategy on any of
// them; the odd-numbered queries check it (see the README).
//
// # Vectors
//
// A tool's vector is the embedding of [ToolText], cached under
// [KeyOf](Embedder's Model, text): a tool is embedded again only when its
// name, description or search hint changes, or the model does. The
// strategy's index is built as soon as tools are registered or change
// (toolsearch.StrategyInput.Eager), and the tools without a vector are
// embedded in the background, in batches of Options.BatchSize, one batch
// at a time; each batch is searchable as soon as it is embedded. Vectors
// come from, in this order: the previous index of the same registry (an
// unchanged tool across Replace and SetServerTools, or a tool whose
// server reconnected), Options.Store (across restarts), else the
// Embedder.
//
// # Queries and failures
//
// Searches stay synchronous: a query costs one Embed call of one text,
// bounded by Options.QueryTimeout, and a top-100 search over the vectors
// (see [Vectors]). A search never fails because of the Embedder. When
// the query cannot be embedded (the Embedder failed, or took longer than
// QueryTimeout, or the caller's context ended first) the tools are ranked
// by the hybrid strategy alone and Result.Notes says so; after such a
// failure, queries skip the Embedder for a pause that doubles from 1 s to
// 30 s while it keeps failing, so that an outage does not cost every
// query the full timeout. Until a tool's vector is ready it is ranked by
// keywords alone, and the notes say how many tools are not embedded yet.
//
// # Ownership
//
// A Strategy is safe for concurrent use, and may be used by many
// Searchers and Sessions, of one or more registries (its pointer is
// comparable, so the Searchers of a registry share one index): make one
// per Embedder and share it, since a registry keeps indexing a Strategy
// for as long as a Searcher or Session using it is reachable. Its
// background work runs on at most one goroutine, which ends when every
// tool queued is embedded: an idle Strategy holds no goroutine. A
// goroutine retrying a failing Embedder goes on until it succeeds or
// Close is called. A panic of the Embedder, the Store or OnError on
// these goroutines is recovered: a batch's is its error, a query
// embedding's ranks the query by keywords (with the note of a failed
// service), OnError's is dropped. Whoever makes a Strategy calls
// [Strategy.Close] when done with it; searches still work after Close,
// ranking the tools without a vector by keywords.
type Strategy struct {
	emb   Embedder
	model string
	dims  int
	opts  Options
	lex   toolsearch.Strategy // the hybrid strategy
	fuse  fuser
	work  *worker
	pause pause
	now   func() time.Time // tests replace it
}

// New returns a semantic Strategy over emb. opts may be nil. It fails
// when emb is nil, its Dimensions is not between 1 and 65536, or
// Options.Weight is over 1 (or NaN).
func New(emb Embedder, opts *Options) (*Strategy, error) {
	if emb == nil {
		return nil, errors.New("semantic: New: the Embedder is nil")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	dims := emb.Dimensions()
	if dims <= 0 || dims > maxDims {
		return nil, fmt.Errorf("semantic: New: the Embedder's dimension %d is not between 1 and %d", dims, maxDims)
	}
	if !(o.Weight <= 1) {
		return nil, fmt.Errorf("semantic: New: Weight %v is over 1", o.Weight)
	}
	if o.Weight <= 0 {
		o.Weight = defaultWeight
	}
	if o.QueryTimeout <= 0 {
		o.QueryTimeout = defaultQueryTimeout
	}
	if o.BatchSize <= 0 {
		o.BatchSize = defaultBatchSize
	}
	s := &Strategy{
		emb: emb, model: emb.Model(), dims: dims, opts: o,
		lex: toolsearch.HybridStrategy(), fuse: fusion{max: o.Weight}, now: time.Now,
	}
	s.work = newWorker(s)
	return s, nil
}

// Name returns "semantic".
func (s *Strategy) Name() string { return "semantic" }

// Input returns the hybrid strategy's input, with Eager set: the index is
// built, and the new tools are queued for embedding, as soon as tools
// change.
func (s *Strategy) Input() toolsearch.StrategyInput {
	in := s.lex.Input()
	in.Eager = true
	return in
}

// Close stops the background work, waits for it to stop, and flushes
// Options.Store; it returns the flush's error. It returns within 5
// seconds whatever the Embedder does: a batch whose Embed call has not
// returned 5 s after its context was cancelled is abandoned (its vectors,
// if they ever come, are dropped), and Close's error says so. The tools
// not embedded yet stay ranked by keywords; queries are still embedded.
// Close may be called more than once.
func (s *Strategy) Close() error { return s.work.close() }

// Wait blocks until no tool is queued for embedding or being embedded
// (and the Store, if any, is flushed), and returns nil; or until a batch
// fails, and returns its error (the batch is tried again in the
// background); or until ctx is done, and returns ctx's error. Tools are
// queued when an index is built: after toolsearch.Searcher.Prepare, every
// tool of the registry at that moment has been queued, so
//
//	searcher.Prepare()
//	err := strategy.Wait(ctx)
//
// returns once they are all embedded.
func (s *Strategy) Wait(ctx context.Context) error { return s.work.wait(ctx) }

// ToolText returns the text the semantic strategy embeds for a tool: the
// words of its name, lowercased and separated by spaces (split at "_",
// "-", "." and camelCase boundaries, a leading "mcp__" left out, as the
// hybrid strategy splits names: mcp__github__listPullRequests → "github
// list pull requests"), then its description and its search hint, one per
// line, the empty ones left out. A model reads "list pull requests" as
// words, where listPullRequests is one unfamiliar token. A tool is
// embedded again when this text changes.
func ToolText(t toolsearch.Tool) string {
	var b strings.Builder
	b.Grow(len(t.Name) + len(t.Description) + len(t.SearchHint) + 2)
	b.WriteString(strings.Join(words.NameWords(nil, t.Name), " "))
	for _, s := range []string{t.Description, t.SearchHint} {
		if s = strings.TrimSpace(s); s != "" {
			b.WriteByte('\n')
			b.WriteString(s)
		}
	}
	return b.String()
}

// The notes of a query ranked by keywords only, in part or in whole. They
// are shown to the model.
const (
	noteNoVectors = "Ranked by keywords only: the tools' embeddings are not computed yet."
	noteFailed    = "Ranked by keywords only: the embedding service failed."
	notePaused    = "Ranked by keywords only: the embedding service failed a moment ago."
	noteCancelled = "Ranked by keywords only: the search was cancelled before the embedding service answered."
)

func noteTimeout(d time.Duration) string {
	return "Ranked by keywords only: the embedding service did not answer within " + d.String() + "."
}

func notePartial(missing, n int) string {
	return fmt.Sprintf("%d of %d tools are not embedded yet: they were ranked by keywords only.", missing, n)
}

// queryVector embeds the query text q within QueryTimeout and returns its
// unit vector, or a note saying why there is none.
func (s *Strategy) queryVector(ctx context.Context, q string) ([]float32, string) {
	if !s.pause.allows(s.now()) {
		return nil, notePaused
	}
	tctx, cancel := context.WithTimeout(ctx, s.opts.QueryTimeout)
	defer cancel()
	type answer struct {
		vecs [][]float32
		err  error
	}
	ch := make(chan answer, 1)
	// On its own goroutine, so that an Embedder that does not respect
	// its context cannot hold the search past the timeout.
	go func() {
		vecs, err := embed(tctx, s.emb, []string{q})
		ch <- answer{vecs, err}
	}()
	var a answer
	select {
	case a = <-ch:
	case <-tctx.Done():
		a.err = tctx.Err()
	}
	var v []float32
	if a.err == nil {
		if len(a.vecs) != 1 {
			a.err = fmt.Errorf("%d vectors for 1 text", len(a.vecs))
		} else {
			v, a.err = Normalize(a.vecs[0], s.dims)
		}
	}
	if a.err == nil {
		s.pause.succeeded()
		return v, ""
	}
	switch {
	case ctx.Err() != nil: // the caller's context: not the service's fault
		return nil, noteCancelled
	case tctx.Err() != nil:
		s.pause.failed(s.now())
		return nil, noteTimeout(s.opts.QueryTimeout)
	}
	s.pause.failed(s.now())
	return nil, noteFailed
}

// pause skips the query embedding for a while after it failed.
type pause struct {
	mu    sync.Mutex
	until time.Time
	wait  time.Duration
}

func (p *pause) allows(now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !now.Before(p.until)
}

func (p *pause) failed(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.wait = min(max(2*p.wait, pauseMin), pauseMax)
	p.until = now.Add(p.wait)
}

func (p *pause) succeeded() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.wait, p.until = 0, time.Time{}
}
