package toolsearch

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch/internal/words"
)

// refBM25 ranks c's tools for query as BM25Strategy documents it, the
// straightforward way: every tool's words counted, every tool scored.
func refBM25(st bm25Strategy, c Corpus, query string) []Hit {
	n := c.Len()
	type doc struct {
		tf    map[string]float64
		rules map[string]Rule
		len   float64
	}
	docs := make([]doc, n)
	df := map[string]int{}
	total := 0.0
	for i := range n {
		t := c.Tool(i)
		d := doc{tf: map[string]float64{}, rules: map[string]Rule{}}
		var name []string
		parts, _ := nameParts(t.Name)
		for _, p := range parts {
			name = words.Words(name, p)
		}
		for _, f := range []struct {
			ws []string
			r  Rule
		}{{name, RulePartExact}, {words.Words(nil, t.SearchHint), RuleHint}, {words.Words(nil, t.Description), RuleDescription}} {
			for _, w := range f.ws {
				d.tf[w]++
				d.rules[w] |= f.r
				d.len++
			}
		}
		for w := range d.tf {
			df[w]++
		}
		total += d.len
		docs[i] = d
	}
	all, required := queryWords(query)
	if len(all) == 0 || n == 0 {
		return nil
	}
	avg := total / float64(n)
	var hits []Hit
	for i, d := range docs {
		ok := true
		for _, w := range required {
			ok = ok && d.tf[w] > 0
		}
		s, r := 0.0, Rule(0)
		for _, w := range all {
			if tf := d.tf[w]; tf > 0 {
				s += idf(df[w], n) * tf * (st.k1 + 1) / (tf + st.k1*(1-st.b+st.b*d.len/avg))
				r |= d.rules[w]
			}
		}
		if ok && s > 0 {
			hits = append(hits, Hit{Tool: i, Score: s, Rules: r})
		}
	}
	return hits
}

// longQuery returns a query of many words (over every term budget), some
// required.
func longQuery(rng *rand.Rand, names []string) string {
	var b strings.Builder
	for range 100 + rng.IntN(100) {
		if rng.IntN(10) == 0 {
			b.WriteByte('+')
		}
		if len(names) > 0 && rng.IntN(8) == 0 {
			b.WriteString(names[rng.IntN(len(names))])
		} else {
			b.WriteString(diffWords[rng.IntN(len(diffWords))])
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// checkStrategyAgainst ranks random queries with st's index, kept by a
// Searcher over a registry changed at random between rounds (so that each
// index after the first is the previous one patched), and with ref over the
// same Corpus: the same hits, scores and rules.
func checkStrategyAgainst(t *testing.T, st Strategy, ref func(c Corpus, q string) []Hit, extra func(rng *rand.Rand, names []string) string) {
	catalogs, queries := 150, 12
	if testing.Short() || raceEnabled {
		catalogs = 20
	}
	byTool := func(a, b Hit) int { return a.Tool - b.Tool }
	checked := 0
	for seed := range catalogs {
		rng := rand.New(rand.NewPCG(uint64(seed), 13))
		var r Registry
		m := &refModel{tools: map[string]*refTool{}, servers: map[string]ServerStatus{}}
		s := NewSearcher(&r, &SearchOptions{Strategy: st})
		for round := range 6 {
			if round > 0 || seed%3 == 0 {
				for range 1 + rng.IntN(3) {
					mutate(t, rng, &r, m)
				}
			}
			snap := r.load()
			c := &snapshotCorpus{snap}
			idx := s.indexOf(snap)
			var names []string
			for i := range c.Len() {
				names = append(names, c.Tool(i).Name)
			}
			for qi := range queries {
				var q string
				switch {
				case qi == 0:
					q = longQuery(rng, names)
				case qi < 3 && extra != nil:
					q = extra(rng, names)
				default:
					q = diffQuery(rng, names)
				}
				got, _, err := idx.Rank(context.Background(), q, nil)
				require.NoError(t, err)
				want := ref(c, q)
				slices.SortFunc(got, byTool)
				slices.SortFunc(want, byTool)
				if len(want) == 0 {
					want = nil
				}
				if len(got) == 0 {
					got = nil
				}
				require.Equal(t, want, got, "seed %d round %d: %s Rank(%q)", seed, round, st.Name(), q)
				checked++
			}
		}
	}
	t.Logf("%d queries agree with the reference", checked)
}

func TestBM25MatchesReference(t *testing.T) {
	for _, st := range []bm25Strategy{BM25Strategy(nil).(bm25Strategy), BM25Strategy(&BM25Options{K1: 0.9, B: 0.3}).(bm25Strategy)} {
		checkStrategyAgainst(t, st, func(c Corpus, q string) []Hit { return refBM25(st, c, q) }, nil)
	}
}
