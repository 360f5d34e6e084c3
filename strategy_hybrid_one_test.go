package toolsearch

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch/internal/querywork"
)

// A query of one term, scored and offered posting by posting, gets the
// hits of scoring it into the accumulators: the same tools, float scores
// and rules, for common and rare words, name parts (credits with and
// without a posting), misspelt words (the typo credit), required and
// stop words alone, every K (all hits, the collect-all path), with and
// without a scope, under a tight work budget and on patched versions;
// with the default weights and with weights that change what is passed
// over: credits larger and smaller than a description's weight, no length
// normalisation or a full one, a negative or NaN name-cover weight, and
// zero field weights (postings that score 0, which no K offers).
func TestHybridOneTermMatchesTermAtATime(t *testing.T) {
	kinds := map[string]int{}
	variant := func(f func(p *hybridParams)) hybridStrategy {
		p := hybridDefaults
		f(&p)
		return hybridStrategy{p}
	}
	strategies := []struct {
		name  string
		st    hybridStrategy
		seeds uint64
	}{
		{"defaults", HybridStrategy().(hybridStrategy), 4},
		{"large credits", variant(func(p *hybridParams) { p.name, p.namePart = 8, 6 }), 1},
		{"small credits", variant(func(p *hybridParams) { p.name, p.namePart, p.typo = 0.4, 0.2, 0.5 }), 1},
		{"b 0", variant(func(p *hybridParams) { p.b = 0 }), 1},
		{"b 1", variant(func(p *hybridParams) { p.b = 1 }), 1},
		{"negative name cover", variant(func(p *hybridParams) { p.nameCover = -0.2 }), 1},
		{"NaN name cover", variant(func(p *hybridParams) { p.nameCover = math.NaN() }), 1},
		{"zero weights", variant(func(p *hybridParams) { p.name, p.hint, p.arg = 0, 0, 0 }), 1},
	}
	for _, v := range strategies {
		t.Run(v.name, func(t *testing.T) { oneTermMatches(t, v.st, v.seeds, kinds) })
	}
	t.Logf("one-term queries: %v", kinds)
	require.GreaterOrEqual(t, len(kinds), 15, "kinds of one-term query")
}

// oneTermMatches is TestHybridOneTermMatchesTermAtATime with strategy st
// on seeds catalogs, counting the queries by text in kinds.
func oneTermMatches(t *testing.T, st hybridStrategy, seeds uint64, kinds map[string]int) {
	probeVersionsWith(t, st, seeds, 17, 300, 700, func(seed, round int, rng *rand.Rand, tools []Tool, x *hybridIndex) {
		for qi := range 120 {
			var text string
			switch qi % 8 {
			case 0:
				text = []string{"data", "file", "list", "get"}[rng.IntN(4)]
			case 1:
				f := strings.Fields(tools[rng.IntN(len(tools))].Description)
				text = f[rng.IntN(len(f))]
			case 2:
				text = []string{"custom", "ssue", "chan", "paymen", "ist"}[rng.IntN(5)] // name parts
			case 3:
				text = []string{"paymnet", "chanel", "isue", "calender"}[rng.IntN(4)] // typos
			case 4:
				text = "+" + []string{"data", "issue", "slack"}[rng.IntN(3)]
			case 5:
				text = []string{"the", "for", "a"}[rng.IntN(3)]
			case 6:
				text = "data data DATA"
			default:
				text = []string{"github", "GitHub", "e-mail", "Slack"}[rng.IntN(4)]
			}
			terms := x.terms(text)
			if len(terms) != 1 {
				continue
			}
			kinds[text]++
			k := []int{1, 2, 5, 10, collectAllAbove, collectAllAbove + 1, -1}[qi%7]
			q := Query{Text: text, K: k}
			if qi%3 == 0 {
				q.In = func(pos int) bool { return pos%3 != 1 }
			}
			budget := func() context.Context {
				if qi%5 == 0 {
					ctx, _ := querywork.With(context.Background(), 40) // the name-part scans cut part-way
					return ctx
				}
				return context.Background()
			}
			sc := x.getScratch()
			want := q.TopHits(nil)
			ctx := budget()
			x.rankTerms(ctx, terms, sc, querywork.Of(ctx), &want)
			got := q.TopHits(nil)
			ctx = budget()
			x.rankOne(ctx, terms[0], sc, querywork.Of(ctx), &got)
			x.scratch.put(sc)
			require.Equal(t, want.Hits(), got.Hits(), "seed %d round %d: %q, K %d", seed, round, text, k)
			for i := range sc.mark {
				require.Zero(t, sc.mark[i], "marks left set")
			}
			for _, c := range sc.credOf {
				require.Zero(t, c, "credits left set")
			}
		}
	})
}

// TestOneMinWeight pins the weight below which a one-term posting cannot
// reach a threshold: a posting at that weight scores below it, as the
// scoring computes it, times the largest factor, but no more than a
// relative 1e-5 below it; with
// nothing to reach, or parameters the bound does not hold for, nothing
// is left out.
func TestOneMinWeight(t *testing.T) {
	p := hybridDefaults
	k1, k1p1 := p.k1, p.k1+1
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		weight := 0.01 + 10*rng.Float64()
		factor := []float64{1, 1 + p.nameCover}[rng.IntN(2)]
		thr := weight * factor * k1p1 * rng.Float64() * 0.999
		w := p.oneMinWeight(thr, weight, factor)
		require.Greater(t, w, 0.0)
		s := weight * w * k1p1 / (w + k1)
		require.Less(t, s*factor, thr, "thr %v weight %v factor %v: w %v", thr, weight, factor, w)
		require.GreaterOrEqual(t, s*factor, thr*(1-1e-5), "thr %v weight %v factor %v: w %v leaves out too much", thr, weight, factor, w)
	}
	require.Equal(t, math.Inf(1), p.oneMinWeight(2*k1p1, 1, 1), "no weight reaches the threshold")
	require.Equal(t, math.Inf(-1), p.oneMinWeight(0, 1, 1), "a threshold of 0 leaves nothing out")
	require.Equal(t, math.Inf(-1), p.oneMinWeight(math.Inf(-1), 1, 1))
	neg := hybridDefaults
	neg.arg = -0.3
	require.Equal(t, math.Inf(-1), neg.oneMinWeight(1, 1, 1), "a negative field weight leaves nothing out")
	wide := hybridDefaults
	wide.b = 1.5
	require.Equal(t, math.Inf(-1), wide.oneMinWeight(1, 1, 1), "b above 1 leaves nothing out")
	for _, f := range []func(p *hybridParams){
		func(p *hybridParams) { p.name = -2 },
		func(p *hybridParams) { p.namePart = -5 },
		func(p *hybridParams) { p.typo = -1 },
		func(p *hybridParams) { p.hint = -1 },
		func(p *hybridParams) { p.lead = -1 },
		func(p *hybridParams) { p.b = -0.5 },
		func(p *hybridParams) { p.k1 = 0 },
	} {
		q := hybridDefaults
		f(&q)
		require.Equal(t, math.Inf(-1), q.oneMinWeight(1, 1, 1), "%+v leaves nothing out", q)
	}
	require.Equal(t, math.Inf(-1), p.oneMinWeight(1, 1, math.NaN()), "a NaN factor leaves nothing out")
}

// oneSkip.next passes over a posting when its weight's sum before the
// rounding to a float32, plus its credit, is below wsum: the rounded
// weight plus the credit is then below minWeight, for sums next to the
// rounding's edges too (a float32 either side of minWeight, and the doubles
// just below them).
func TestOneSkipSumBound(t *testing.T) {
	p := hybridDefaults
	rng := rand.New(rand.NewPCG(7, 8))
	checked := 0
	for range 20000 {
		sk := oneSkip{p: &p, weight: 0.01 + 10*rng.Float64(), k1: p.k1, k1p1: p.k1 + 1}
		thr := sk.weight * (1 + p.nameCover) * sk.k1p1 * rng.Float64()
		sk.setMin(thr)
		wname := sk.minWeight(thr)
		if math.IsInf(wname, 0) {
			continue
		}
		cw := []float64{0, p.name, p.namePart, p.name * p.typo}[rng.IntN(4)]
		edge := wname - cw // the sum whose weight is wname
		if edge <= 0 {
			continue
		}
		f := float32(edge)
		below := math.Nextafter32(f, 0)
		for _, sum := range []float64{float64(f), math.Nextafter(float64(f), 0), float64(below),
			math.Nextafter(float64(below), 0), edge, math.Nextafter(edge, 0), edge * (1 - 1e-7)} {
			if sum+cw >= sk.wsum {
				continue
			}
			w := float64(float32(sum))
			if cw != 0 {
				w += cw
			}
			require.Less(t, w, wname, "sum %v credit %v", sum, cw)
			checked++
		}
	}
	require.Greater(t, checked, 2000)
}

// A tool reached by a term's credit rules more than once (two name words
// one edit from a misspelt term) is credited once: it comes once in the
// credits a term gathers, which the term's IDF counts.
func TestHybridCreditsEachToolOnce(t *testing.T) {
	tools := []Tool{
		{Name: "mcp__s__sheet_sleet", Description: "Weather in bed sheets.", ShouldDefer: true},
		{Name: "mcp__s__sheet_list", Description: "Lists the sheets.", ShouldDefer: true},
		{Name: "mcp__s__sleet_alert", Description: "Warns of sleet.", ShouldDefer: true},
		{Name: "mcp__s__other_thing", Description: "Something else.", ShouldDefer: true},
	}
	r := newRegistry(t, nil)
	require.NoError(t, r.Register(tools...))
	x := indexFor(HybridStrategy(), corpusOf(r, r.load()), nil).(*hybridIndex)
	terms := x.terms("skeet")
	require.Len(t, terms, 1)
	sc := x.getScratch()
	ctx := context.Background()
	slots, kinds := x.gatherCredits(ctx, terms[0], x.post.Get(terms[0].stem), querywork.Of(ctx), sc.mark, nil, nil)
	require.Len(t, slots, 3, "the three tools with a name word one edit from skeet, each once")
	for _, k := range kinds {
		require.Equal(t, creditTypo, k)
	}
	seen := map[int32]bool{}
	for _, d := range slots {
		require.False(t, seen[d], "slot %d credited twice", d)
		seen[d] = true
	}
}
