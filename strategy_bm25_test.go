package toolsearch

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func bm25Registry(t *testing.T) *Registry {
	t.Helper()
	reg, err := NewRegistry(nil,
		Tool{Name: "short_doc", Description: "paint walls", ShouldDefer: true},
		Tool{Name: "long_doc", Description: "paint walls and floors and ceilings and doors and windows and roofs", ShouldDefer: true},
		Tool{Name: "other", Description: "mow the lawn", ShouldDefer: true},
	)
	require.NoError(t, err)
	return reg
}

// The score is Okapi BM25, computed here from the formula.
func TestBM25Score(t *testing.T) {
	reg := bm25Registry(t)
	res, err := NewSearcher(reg, &SearchOptions{Strategy: BM25Strategy(nil)}).Search("paint", 5)
	require.NoError(t, err)
	require.Equal(t, []string{"short_doc", "long_doc"}, matchNames(res), "the shorter document ranks first")
	// Documents: short_doc = short, doc, paint, walls (4 words);
	// long_doc = long, doc + 12 words (14); other = other, mow, the, lawn (4).
	avg := (4.0 + 14 + 4) / 3
	idf := math.Log(1 + (3-2+0.5)/(2+0.5))
	want := func(dl float64) float64 {
		return idf * 1 * (1.5 + 1) / (1 + 1.5*(1-0.75+0.75*dl/avg))
	}
	assert.InDelta(t, want(4), res.Matches[0].Score, 1e-12)
	assert.InDelta(t, want(14), res.Matches[1].Score, 1e-12)
	assert.Equal(t, RuleDescription, res.Matches[0].Rules)
}

// k1 and b are options: with a tiny b, length no longer matters.
func TestBM25Options(t *testing.T) {
	reg := bm25Registry(t)
	res, err := NewSearcher(reg, &SearchOptions{Strategy: BM25Strategy(&BM25Options{B: 1e-12})}).Search("paint", 5)
	require.NoError(t, err)
	require.Len(t, res.Matches, 2)
	assert.InDelta(t, res.Matches[0].Score, res.Matches[1].Score, 1e-3)

	// A larger k1 lets repeated words count more: "and" is 5 times in
	// long_doc.
	lo, err := NewSearcher(reg, &SearchOptions{Strategy: BM25Strategy(&BM25Options{K1: 0.1})}).Search("and", 5)
	require.NoError(t, err)
	hi, err := NewSearcher(reg, &SearchOptions{Strategy: BM25Strategy(&BM25Options{K1: 10})}).Search("and", 5)
	require.NoError(t, err)
	assert.Greater(t, hi.Matches[0].Score, lo.Matches[0].Score)

	assert.Equal(t, BM25Strategy(&BM25Options{K1: defaultBM25K1, B: 1}), BM25Strategy(&BM25Options{K1: -1, B: 7}), "K1 ≤ 0 means the default; B is capped at 1")
}

func TestBM25Fields(t *testing.T) {
	reg, err := NewRegistry(nil,
		Tool{Name: "getWeather", ShouldDefer: true},
		Tool{Name: "forecast", SearchHint: "weather", ShouldDefer: true},
		Tool{Name: "sky", Description: "Weather!", ShouldDefer: true},
		Tool{Name: "Weathers", ShouldDefer: true},
	)
	require.NoError(t, err)
	res, err := NewSearcher(reg, &SearchOptions{Strategy: BM25Strategy(nil)}).Search("weather", 10)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"getWeather", "forecast", "sky"}, matchNames(res), "name parts, hint and description are searched; no stemming")
	rules := map[string]Rule{}
	for _, m := range res.Matches {
		rules[m.Name] = m.Rules
	}
	assert.Equal(t, map[string]Rule{"getWeather": RulePartExact, "forecast": RuleHint, "sky": RuleDescription}, rules)
}

func TestBM25Required(t *testing.T) {
	reg := strategyRegistry(t)
	s := NewSearcher(reg, &SearchOptions{Strategy: BM25Strategy(nil)})
	res, err := s.Search("+slack lists", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"mcp__slack__list_channels", "mcp__slack__send_message"}, matchNames(res), "every match has slack; the one with lists ranks first")
	res, err = s.Search("+nowhere lists", 10)
	require.NoError(t, err)
	assert.Empty(t, res.Matches)
	res, err = s.Search("... !!", 10)
	require.NoError(t, err)
	assert.Empty(t, res.Matches, "a query without words matches nothing")
}

// Rank reads the postings a block of slots at a time: with blocks of a
// few slots, over registries changed at random (each index the previous
// one patched), the hits, scores and rules are still exactly the
// reference's.
func TestBM25BlocksMatchReference(t *testing.T) {
	for _, block := range []int32{1, 3, 64} {
		st := BM25Strategy(nil).(bm25Strategy)
		st.block = block
		checkStrategyAgainst(t, st, func(c *Corpus) func(string) []Hit { return refBM25(st, c) }, nil)
	}
}

// Every postings list stays in slot order as the registry changes (Rank's
// blocks rely on it), and holds each tool once.
func TestBM25PostingsInSlotOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var r Registry
	m := &refModel{tools: map[string]*refTool{}, servers: map[string]ServerStatus{}}
	st := BM25Strategy(nil)
	var prev Index
	for round := range 40 {
		for range 1 + rng.IntN(4) {
			mutate(t, rng, &r, m)
		}
		c := corpusOf(&r, r.load())
		x := indexFor(st, c, prev).(*bm25Index)
		prev = x
		for i := range c.Len() {
			tool := c.Tool(i)
			ws, _ := bm25Doc(&tool)
			for _, w := range ws {
				ps := x.post.Get(w.w).Slice()
				require.True(t, slices.ContainsFunc(ps, func(p bm25Posting) bool { return p.slot == int32(c.Slot(i)) }), "round %d: %q lacks %s", round, w.w, tool.Name)
				require.True(t, slices.IsSortedFunc(ps, func(a, b bm25Posting) int { return cmp.Compare(a.slot, b.slot) }), "round %d: %q out of slot order", round, w.w)
				for i := 1; i < len(ps); i++ {
					require.NotEqual(t, ps[i-1].slot, ps[i].slot, "round %d: %q has slot %d twice", round, w.w, ps[i].slot)
				}
			}
		}
	}
}
