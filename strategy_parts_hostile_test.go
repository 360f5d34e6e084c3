package toolsearch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/querywork"
)

// bruteParts returns, for every tool of ix, the slots of the tools with a
// name part that contains term and is longer than min, each slot once per
// such part (of the part lists or the MCP part lists), sorted: what
// strings.Contains over every live part finds.
func bruteParts(ix *index, term string, min int) []int {
	var out []int
	for s := range int32(ix.nslots) {
		e := ix.slot(s)
		if e == nil {
			continue
		}
		seen := map[string]bool{}
		for _, p := range e.parts {
			if !seen[p] && len(p) > min && strings.Contains(p, term) {
				seen[p] = true
				out = append(out, int(s))
			}
		}
	}
	slices.Sort(out)
	return out
}

// checkPartScans compares, for each term, Corpus.PartsContaining and the
// default strategy's substring scan with strings.Contains over every live
// part (no budget), and with the scans of the first version part by part
// (refPartsContaining, refSubstrings: the same parts in the same order,
// the same budget left and cut) on budgets around each cut point.
func checkPartScans(t *testing.T, stage string, c *Corpus, terms []string) {
	t.Helper()
	ix := c.ix
	for _, term := range terms {
		var got []int
		c.PartsContaining(context.Background(), term, func(s int) { got = append(got, s) })
		slices.Sort(got)
		var want []int
		if partChars(term) {
			want = bruteParts(ix, term, len(term))
		}
		require.Equal(t, want, got, "%s: the tools with a part containing %q", stage, term)
		got = got[:0]
		require.True(t, ix.substrings(term, querywork.New(1<<40), func(q *postings) {
			for s := range q.part.All() {
				got = append(got, int(s))
			}
			for s := range q.mpart.All() {
				got = append(got, int(s))
			}
		}))
		slices.Sort(got)
		if len(got) == 0 {
			got = nil
		}
		require.Equal(t, bruteParts(ix, term, len(term)), got, "%s: the substring scan of %q", stage, term)

		costHybrid, costDefault := partScanCosts(c, term)
		budgets := []int{0, 1, 2, 3, 254, 255, 256, 257, 511, 512}
		for _, cost := range []int{costHybrid, costDefault} {
			for d := -3; d <= 3; d++ {
				budgets = append(budgets, cost+d, cost/2+d, cost/3+d)
			}
		}
		for _, budget := range budgets {
			requirePartScansMatch(t, stage, c, term, max(budget, 0))
		}
	}
}

// partScanTerms returns terms of 1 to 9 characters of the alphabet, cut
// from parts or random, and the terms every scan must survive.
func partScanTerms(rng *rand.Rand, parts []string, alphabet string) []string {
	terms := []string{"a", "b", "-", ".", "9", "ab", "ba", "a.", ".-", "-.", "9-", "aa", "aaa", "abab",
		strings.Repeat("ab", 70), strings.Repeat("a", 129), "A", "a_b", "é", "a b", "zzzz"}
	for range 40 {
		if p := parts[rng.IntN(len(parts))]; rng.IntN(3) > 0 {
			i := rng.IntN(len(p))
			terms = append(terms, p[i:i+1+rng.IntN(min(len(p)-i, 9))])
		} else {
			b := make([]byte, 1+rng.IntN(4))
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			terms = append(terms, string(b))
		}
	}
	return terms
}

// TestPartScansHostile: the name-part scans find exactly what
// strings.Contains over every live part finds, and cut where part by part
// would, on hostile names: parts of '.', '-' and digits, parts of 1 and 2
// characters, repeated pairs, terms longer than any part, terms with
// characters no part has; over a registry changed in many small steps
// (its vocabulary extended again and again, parts dying with and without
// postings) until it is rebuilt for its dead parts, and over a Corpus of
// parts of 254 to 257 characters (a Key's length and past it).
func TestPartScansHostile(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	const alphabet = "ab.-9"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	var pool []string
	for range 60 {
		pool = append(pool, word(1+rng.IntN(3)))
	}
	pool = append(pool, "abababab", "a.a.a.", "--", "9", strings.Repeat("ab", 30))
	id := 0
	mk := func() Tool {
		id++
		n := 1 + rng.IntN(3)
		ps := make([]string, n)
		for i := range ps {
			ps[i] = pool[rng.IntN(len(pool))]
			if rng.IntN(3) == 0 {
				ps[i] = word(1 + rng.IntN(6)) // a part of its own: it dies with the tool
			}
		}
		// A part may hold only [a-z0-9.-] and no "__" cut: trim what
		// would make the name invalid.
		name := fmt.Sprintf("mcp__s%d__%s_u%d", id%4, strings.Join(ps, "_"), id)
		desc := "d " + pool[rng.IntN(len(pool))]
		if rng.IntN(2) == 0 {
			desc += " " + ps[0] // its part as a description word: postings stay when it dies
		}
		return Tool{Name: name, Description: desc, ShouldDefer: true}
	}
	var tools []Tool
	for range 200 {
		tools = append(tools, mk())
	}
	r, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	terms := partScanTerms(rng, pool, alphabet)
	checkPartScans(t, "fresh", corpusOf(r, r.load()), terms)
	rebuilt := false
	for round := 0; round < 12 || !rebuilt; round++ {
		require.Less(t, round, 40, "no rebuild for the dead parts")
		before := r.load().ix
		var gone []string
		for _, tl := range tools {
			if rng.IntN(3) == 0 && len(gone) < 20 {
				gone = append(gone, tl.Name)
			}
		}
		r.Remove(gone...)
		tools = slices.DeleteFunc(tools, func(tl Tool) bool { return slices.Contains(gone, tl.Name) })
		checkPartScans(t, fmt.Sprintf("round %d, removed", round), corpusOf(r, r.load()), terms)
		var add []Tool
		for range 20 {
			add = append(add, mk())
		}
		require.NoError(t, r.Register(add...))
		tools = append(tools, add...)
		now := r.load().ix
		if now.dead < before.dead && now.dead == 0 {
			rebuilt = true
		}
		checkPartScans(t, fmt.Sprintf("round %d, added (%d dead)", round, now.dead), corpusOf(r, r.load()), terms)
		if round == 11 && !rebuilt {
			// Many parts of their own, then all gone: past the dead
			// parts that ask for a rebuild.
			var many []Tool
			for i := range 1200 {
				many = append(many, Tool{Name: fmt.Sprintf("m__z%dq%s", i, word(4)), Description: "x", ShouldDefer: true})
			}
			require.NoError(t, r.Register(many...))
			most := 0
			for i := 0; i < len(many); i += 50 {
				var names []string
				for _, tl := range many[i:min(i+50, len(many))] {
					names = append(names, tl.Name)
				}
				r.Remove(names...)
				ix := r.load().ix
				if ix.needsRebuild() {
					checkPartScans(t, fmt.Sprintf("%d dead of %d", ix.dead, len(ix.vocab.Parts)), corpusOf(r, r.load()), append(terms, "z1", "q", "z12q"))
				}
				if ix.dead < most {
					rebuilt = true
				}
				most = max(most, ix.dead)
			}
			require.Greater(t, most, 1024, "the dead parts ask for a rebuild")
			require.True(t, rebuilt)
			checkPartScans(t, "after many dead", corpusOf(r, r.load()), append(terms, "z1", "q", "z12q"))
		}
	}

	// Long parts, around a Key's length.
	var long []Tool
	for _, n := range []int{253, 254, 255, 256, 257, 300} {
		long = append(long,
			Tool{Name: "s__" + strings.Repeat("a", n) + "_x", Description: "d"},
			Tool{Name: "s__" + strings.Repeat("ab", n/2) + "-9_y", Description: "d"},
			Tool{Name: "s__" + word(n) + "_z", Description: "d"})
	}
	lterms := append(slices.Clone(terms), strings.Repeat("a", 254), strings.Repeat("a", 255), strings.Repeat("a", 256),
		strings.Repeat("a", 257), strings.Repeat("ab", 127)+"-9", strings.Repeat("ba", 128))
	checkPartScans(t, "long parts", NewCorpus(append(long, tools[:20]...)), lterms)
}

// TestPartScansWhileExtending: queries of older versions of an index read
// their own vocabulary (the parts' keys included) while newer versions
// extend it in place (go test -race).
func TestPartScansWhileExtending(t *testing.T) {
	var tools []Tool
	for i := range 100 {
		tools = append(tools, Tool{Name: fmt.Sprintf("mcp__s__ab%d_c.d-%d", i, i%7), Description: "d", ShouldDefer: true})
	}
	r, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 2 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				c := corpusOf(r, r.load())
				want := bruteParts(c.ix, "ab", 2)
				var got []int
				c.PartsContaining(context.Background(), "ab", func(s int) { got = append(got, s) })
				slices.Sort(got)
				if !slices.Equal(want, got) {
					t.Errorf("reader %d, query %d: %v, want %v", g, i, got, want)
					return
				}
				c.ix.substrings("d-", querywork.New(1<<20), func(*postings) {})
			}
		})
	}
	for i := range 200 {
		require.NoError(t, r.Register(Tool{Name: fmt.Sprintf("mcp__t__xab%dy_q%d", i, i), Description: "d", ShouldDefer: true}))
		if i%3 == 0 {
			r.Remove(fmt.Sprintf("mcp__t__xab%dy_q%d", i-1, i-1))
		}
	}
	close(stop)
	wg.Wait()
}
