package toolsearch

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch/internal/words"
)

// refBM25 ranks c's tools for query as BM25Strategy documents it, the
// straightforward way: every tool's words counted, every tool scored.
func refBM25(st bm25Strategy, c *Corpus) func(query string) []Hit {
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
	return func(query string) []Hit {
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
// index after the first is the previous one patched), and with the
// reference ref builds over the same Corpus: the same hits, scores and
// rules.
func checkStrategyAgainst(t *testing.T, st Strategy, ref func(c *Corpus) func(q string) []Hit, extra func(rng *rand.Rand, names []string) string) {
	catalogs, queries := sweepSize(20, 150), 12
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
			c := corpusOf(&r, snap)
			idx := s.indexOf(snap)
			var names []string
			for i := range c.Len() {
				names = append(names, c.Tool(i).Name)
			}
			rank := ref(c)
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
				got, _, err := idx.Rank(context.Background(), Query{Text: q, K: -1}, nil)
				require.NoError(t, err)
				want := rank(q)
				slices.SortFunc(got, byTool)
				slices.SortFunc(want, byTool)
				if len(want) == 0 {
					want = nil
				}
				if len(got) == 0 {
					got = nil
				}
				require.Equal(t, want, got, "seed %d round %d: %s Rank(%q)", seed, round, st.Name(), q)
				// The best k, as the Searcher asks for them.
				k := 1 + rng.IntN(8)
				top, _, err := idx.Rank(context.Background(), Query{Text: q, K: k}, nil)
				require.NoError(t, err)
				slices.SortFunc(want, compareHits)
				want = want[:min(k, len(want))]
				if len(top) == 0 {
					top = nil
				}
				if len(want) == 0 {
					want = nil
				}
				require.Equal(t, want, top, "seed %d round %d: %s rankTop(%q, %d)", seed, round, st.Name(), q, k)
				checked++
			}
		}
	}
	t.Logf("%d queries agree with the reference", checked)
}

func TestBM25MatchesReference(t *testing.T) {
	for _, st := range []bm25Strategy{BM25Strategy(nil).(bm25Strategy), BM25Strategy(&BM25Options{K1: 0.9, B: 0.3}).(bm25Strategy)} {
		checkStrategyAgainst(t, st, func(c *Corpus) func(string) []Hit { return refBM25(st, c) }, nil)
	}
}

// hybridShapeQuery returns a query of the shapes the hybrid strategy reads
// specially: a tool's name in camelCase, snake_case or kebab-case, its
// words joined (the full-name rule), a word with a typo, or a sentence
// with stop words.
func hybridShapeQuery(rng *rand.Rand, names []string) string {
	if len(names) == 0 {
		return "list the issues"
	}
	ws := words.NameWords(nil, names[rng.IntN(len(names))])
	if len(ws) == 0 {
		return "the"
	}
	switch rng.IntN(6) {
	case 0: // camelCase
		var b strings.Builder
		for i, w := range ws {
			if i > 0 && w != "" {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
		}
		return b.String()
	case 1:
		return strings.Join(ws, "_")
	case 2:
		return strings.Join(ws, "-") + " " + diffWords[rng.IntN(len(diffWords))]
	case 3:
		return strings.Join(ws, "")
	case 4: // a typo: two letters swapped, or one dropped
		w := []byte(ws[rng.IntN(len(ws))])
		if len(w) >= 4 {
			i := rng.IntN(len(w) - 1)
			if rng.IntN(2) == 0 {
				w[i], w[i+1] = w[i+1], w[i]
			} else {
				w = append(w[:i], w[i+1:]...)
			}
		}
		return string(w)
	}
	return "please find the tool to " + strings.Join(ws, " ") + " for the " + diffWords[rng.IntN(len(diffWords))]
}

func TestHybridMatchesReference(t *testing.T) {
	st := HybridStrategy().(hybridStrategy)
	checkStrategyAgainst(t, st, func(c *Corpus) func(string) []Hit {
		ref := refHybridBuild(st, c)
		return func(q string) []Hit {
			hits, _, err := ref.Rank(context.Background(), q, nil)
			require.NoError(t, err)
			return hits
		}
	}, hybridShapeQuery)
}

// A name word of a removed tool no longer matches a typo: "isues" is one
// edit from fetch_issues's "issues", whose stem get_issue's "issue" shares,
// but not from "issue" itself.
func TestHybridTypoFollowsRemoval(t *testing.T) {
	var r Registry
	require.NoError(t, r.Register(Tool{Name: "fetch_issues", ShouldDefer: true}, Tool{Name: "get_issue", ShouldDefer: true}))
	s := NewSearcher(&r, &SearchOptions{Strategy: HybridStrategy()})
	res, err := s.Search("isues", 5)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"fetch_issues", "get_issue"}, matchNames(res), "the typo matches the stem")
	require.Equal(t, 1, r.Remove("fetch_issues"))
	res, err = s.Search("isues", 5)
	require.NoError(t, err)
	assert.Empty(t, matchNames(res), "no tool has a name word one edit from the query")
}

// Counts too large for a compact posting (a word 70,000 times in a
// description, 300 times in a hint) rank as the reference ranks them,
// when the tool is added, changed and removed.
func TestHybridBigCounts(t *testing.T) {
	st := HybridStrategy().(hybridStrategy)
	r := newRegistry(t, &RegistryOptions{MaxDescriptionBytes: 1 << 20, MaxHintBytes: 1 << 12})
	big := Tool{Name: "spam_tool", ShouldDefer: true, SearchHint: strings.Repeat("eggs ", 300),
		Description: strings.Repeat("spam ", 70_000)}
	require.NoError(t, r.Register(big,
		Tool{Name: "other_tool", ShouldDefer: true, SearchHint: "eggs eggs", Description: "spam and eggs"},
		Tool{Name: "third_tool", ShouldDefer: true, Description: strings.Repeat("spam ", 300) + "eggs"}))
	var prev Index
	check := func(what string) {
		c := corpusOf(r, r.load())
		x := indexFor(st, c, prev)
		prev = x
		for _, q := range []string{"spam", "eggs", "spam eggs", "+eggs tool"} {
			got, _, err := x.Rank(context.Background(), Query{Text: q, K: -1}, nil)
			require.NoError(t, err)
			want, _, err := refHybridBuild(st, c).Rank(context.Background(), q, nil)
			require.NoError(t, err)
			require.ElementsMatch(t, want, got, "%s: %q", what, q)
			require.NotEmpty(t, got, "%s: %q", what, q)
		}
	}
	check("built")
	require.Len(t, prev.(*hybridIndex).big.Get("spam"), 2, "70,000 occurrences, and 300 in a first sentence, do not fit a compact posting")
	require.Len(t, prev.(*hybridIndex).big.Get("egg"), 1, "nor the 300 in the hint")
	big.Description = strings.Repeat("spam ", 66_000)
	require.NoError(t, r.Replace(big))
	check("changed")
	require.Equal(t, 1, r.Remove("third_tool"))
	check("another removed")
	require.Equal(t, 1, r.Remove("spam_tool"))
	check("removed")
	x := prev.(*hybridIndex)
	assert.Empty(t, x.big.Get("spam"), "no big counts left once their tool is gone")
}

// A tool of a Corpus (whose names are not validated) may have more own
// name words than a posting's byte holds: its name-cover factor reads the
// number from the slot data, and ranks as the reference does, as do tools
// around the limit.
func TestHybridManyNameWords(t *testing.T) {
	st := HybridStrategy().(hybridStrategy)
	name := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = "w" + strings.Map(func(r rune) rune { return 'a' + (r - '0') }, strconv.Itoa(i))
		}
		return strings.Join(ws, "_")
	}
	c := NewCorpus([]Tool{{Name: name(400)}, {Name: name(272)}, {Name: name(271)}, {Name: name(270)}, {Name: "wa_wb_other"}})
	x := st.Index(c).(*hybridIndex)
	owns := map[int32]bool{}
	for ps := range x.post.Get("wa").All() {
		own := x.info.At(ps.slot).own
		require.Equal(t, uint8(min(own, ownLarge)), ps.own, "the own name words of slot %d's posting (it has %d)", ps.slot, own)
		owns[own] = true
	}
	require.True(t, owns[ownLarge-1] || owns[ownLarge], "a tool around the limit: %v", owns)
	require.True(t, slices.ContainsFunc(slices.Collect(maps.Keys(owns)), func(n int32) bool { return n > ownLarge }), "a tool past the limit: %v", owns)
	for _, q := range []string{"wa", "wa wb", "wa wb wc wd", "+wb other", name(20)} {
		got, _, err := x.Rank(context.Background(), Query{Text: q, K: -1}, nil)
		require.NoError(t, err)
		want, _, err := refHybridBuild(st, c).Rank(context.Background(), q, nil)
		require.NoError(t, err)
		require.NotEmpty(t, got, "%q", q)
		require.ElementsMatch(t, want, got, "%q", q)
	}
}

// A query of more distinct terms than the accumulators count is cut, with
// a note naming the limit and required terms kept, not ranked with counts
// that wrapped.
func TestHybridTermCountLimit(t *testing.T) {
	var r Registry
	require.NoError(t, r.Register(Tool{Name: "get_issue", ShouldDefer: true}))
	x := HybridStrategy().Index(corpusOf(&r, r.load()))
	var b strings.Builder
	for i := range hybridMaxAccTerms + 1 {
		fmt.Fprintf(&b, "issue%d ", i)
	}
	b.WriteString("+get")
	hits, notes, err := x.Rank(context.Background(), Query{Text: b.String(), K: -1}, nil)
	require.NoError(t, err, "a query over the limit is answered, not refused")
	require.Equal(t, []string{"the query has 65537 distinct terms and the hybrid ranking reads at most 65535: the terms after the first 65535 (required terms first) were left out."}, notes)
	require.Len(t, hits, 1, "the required term is kept")
	assert.Equal(t, 0, hits[0].Tool)
	var without strings.Builder
	for i := range hybridMaxAccTerms + 1 {
		fmt.Fprintf(&without, "issue%d ", i)
	}
	without.WriteString("+nothing")
	hits, _, err = x.Rank(context.Background(), Query{Text: without.String(), K: -1}, nil)
	require.NoError(t, err)
	require.Empty(t, hits, "a required term no tool has is kept past the limit")
	hits, _, err = x.Rank(context.Background(), Query{Text: "issue", K: -1}, nil)
	require.NoError(t, err)
	require.Len(t, hits, 1)
}
