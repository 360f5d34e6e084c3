package toolsearch

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Strategy is how a Searcher ranks deferred tools for a query that is not a
// select: query or a tool's exact name. Every strategy keeps those two forms
// (and the MCP name-prefix form, except regex): only the ranking of the rest
// differs. Choose one with SearchOptions.Strategy; nil means the default.
//
// The strategies are:
//   - "default" (DefaultStrategy): the spec's keyword scoring, unchanged.
//   - "bm25" (BM25Strategy): Okapi BM25 over name parts, hint and
//     description.
//   - "regex" (RegexStrategy): the model sends an RE2 pattern, matched
//     case-insensitively against name, description and argument names and
//     descriptions.
//   - "hybrid" (HybridStrategy): the spec's name-part precedence plus term
//     rarity, stop words, light normalisation and argument text, so that
//     sentences work as well as keywords.
//
// A Strategy value holds only its settings: it is safe to share between
// Searchers. Each Searcher builds the index a strategy needs once per
// registry change, over the deferred tools in its scope, so term
// statistics never count a tool the Searcher cannot see.
type Strategy interface {
	// Name returns the name ParseStrategy accepts for this strategy.
	Name() string
	// index builds the strategy's index over tools (deferred, in scope, in
	// pool order). prev is the index built for the previous snapshot, or
	// nil, so that per-tool data of unchanged tools can be reused. It
	// returns nil for the default strategy, which uses the snapshot itself.
	index(tools []*entry, prev strategyIndex) strategyIndex
}

// strategyIndex ranks the tools it was built over.
type strategyIndex interface {
	// rank returns the best k tools for query (k < 0: every tool that
	// matches), best first, ties in pool order. The error wraps
	// ErrInvalidQuery and is meant for the model.
	rank(query string, k int) ([]scored, error)
}

// StrategyNames are the names ParseStrategy accepts, in the order they are
// documented.
var StrategyNames = []string{"default", "bm25", "regex", "hybrid"}

// ParseStrategy returns the strategy named name ("default", "bm25",
// "regex" or "hybrid"; "" means "default") with its default settings.
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
	return nil, fmt.Errorf("%w %q (want one of %s)", ErrUnknownStrategy, name, strings.Join(StrategyNames, ", "))
}

// defaultStrategy is the spec's keyword scoring.
type defaultStrategy struct{}

// DefaultStrategy returns the spec's keyword scoring (the package
// documentation and the Rule constants describe it). Its rankings equal
// Claude Code's.
func DefaultStrategy() Strategy { return defaultStrategy{} }

func (defaultStrategy) Name() string                                { return "default" }
func (defaultStrategy) index([]*entry, strategyIndex) strategyIndex { return nil }

// isDefault reports whether st is the default strategy.
func isDefault(st Strategy) bool {
	_, ok := st.(defaultStrategy)
	return st == nil || ok
}

// strategyState is the index a Searcher's strategy built for one snapshot.
type strategyState struct {
	snap *snapshot
	once sync.Once
	idx  strategyIndex
}

// strategyHolder keeps a Searcher's strategy index, rebuilt once per
// snapshot.
type strategyHolder struct {
	cur atomic.Pointer[strategyState]
}

// get returns the index of st over the deferred tools of snap that in
// accepts, building it on first use.
func (h *strategyHolder) get(st Strategy, snap *snapshot, in func(*entry) bool) strategyIndex {
	old := h.cur.Load()
	state := old
	if state == nil || state.snap != snap {
		state = &strategyState{snap: snap}
		if !h.cur.CompareAndSwap(old, state) {
			if now := h.cur.Load(); now != nil && now.snap == snap {
				state = now
			}
		}
	}
	state.once.Do(func() {
		tools := make([]*entry, 0, len(snap.deferred))
		for _, e := range snap.deferred {
			if in(e) {
				tools = append(tools, e)
			}
		}
		var prev strategyIndex
		if old != nil && old != state {
			prev = old.built()
		}
		state.idx = st.index(tools, prev)
	})
	return state.idx
}

// built returns the state's index, waiting for a build in progress; a
// state that was never built stays empty.
func (s *strategyState) built() strategyIndex {
	s.once.Do(func() {})
	return s.idx
}

// keyword answers a query that is not a select: query with the Searcher's
// strategy: exact name, MCP prefix (not for regex), then the strategy's
// ranking of the deferred tools in scope, best k (k < 0: all of them).
func (s *Searcher) keyword(snap *snapshot, query string, k int) (QueryForm, []*entry, []scored, error) {
	st := s.opts.Strategy
	if isDefault(st) && k >= 0 {
		form, found, top := snap.keywordSearch(query, k, s.in)
		return form, found, top, nil
	}
	q := lower(trimSpace(query))
	if q == "" {
		return FormKeywords, nil, nil, nil
	}
	if e := snap.exact(q, s.in); e != nil {
		return FormExact, []*entry{e}, nil, nil
	}
	if _, re := st.(regexStrategy); !re && strings.HasPrefix(q, "mcp__") && len(q) > len("mcp__") {
		var hits []*entry
		for _, e := range snap.deferred {
			if len(hits) == k {
				break
			}
			if strings.HasPrefix(e.lowerName, q) && s.in(e) {
				hits = append(hits, e)
			}
		}
		if len(hits) > 0 {
			return FormPrefix, hits, nil, nil
		}
	}
	if !isDefault(st) {
		top, err := s.strategy.get(st, snap, s.in).rank(query, k)
		return FormKeywords, nil, top, err
	}
	// The default strategy's full ranking (k < 0), for Evaluate.
	t := parseTerms(q)
	var all []scored
	for _, e := range snap.deferred {
		if !s.in(e) {
			continue
		}
		if score, rules := e.score(&t); score > 0 {
			all = append(all, scored{e, score, rules})
		}
	}
	slices.SortStableFunc(all, func(a, b scored) int { return b.score - a.score })
	return FormKeywords, nil, all, nil
}

// floatHit is a candidate of a strategy with real-valued scores.
type floatHit struct {
	doc   int32 // position in the index (pool order)
	score float64
	rules Rule
}

// ScoreScale converts the real-valued scores of the bm25 and hybrid
// strategies into Match.Score: the score times ScoreScale, rounded.
const ScoreScale = 1000

// topHits sorts hits by score descending, ties by pool order, keeps the
// best k (k < 0: all) and converts them.
func topHits(hits []floatHit, k int, docs []*entry) []scored {
	better := func(a, b floatHit) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return int(a.doc - b.doc)
	}
	if k >= 0 && k < len(hits)/4 {
		// Select the best k without sorting everything.
		top := make([]floatHit, 0, k+1)
		for _, h := range hits {
			if len(top) == k && (k == 0 || better(h, top[k-1]) >= 0) {
				continue
			}
			i, _ := slices.BinarySearchFunc(top, h, better)
			top = slices.Insert(top, i, h)
			if len(top) > k {
				top = top[:k]
			}
		}
		hits = top
	} else {
		slices.SortFunc(hits, better)
		if k >= 0 && len(hits) > k {
			hits = hits[:k]
		}
	}
	out := make([]scored, len(hits))
	for i, h := range hits {
		out[i] = scored{docs[h.doc], int(math.Round(h.score * ScoreScale)), h.rules}
	}
	return out
}
