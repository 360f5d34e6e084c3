package toolsearch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch/internal/querywork"
)

// probeCatalog returns n tools in which a few words are common (in most
// descriptions, hints or names) and the others rare, with MCP names,
// snake and camel names, and long descriptions.
func probeCatalog(rng *rand.Rand, n int) []Tool {
	common := []string{"data", "file", "list", "the", "get"}
	rare := strings.Fields("issue repo branch commit slack channel message calendar event invoice payment " +
		"customer ticket deploy build image bucket object query table schema user group role token secret " +
		"weather forecast translate summary report chart metric alert incident page search index")
	servers := []string{"github", "slack", "files", "cloud", "db"}
	word := func() string {
		if rng.IntN(3) == 0 {
			return common[rng.IntN(len(common))]
		}
		return rare[rng.IntN(len(rare))]
	}
	tools := make([]Tool, 0, n)
	seen := map[string]bool{}
	for len(tools) < n {
		var name string
		switch rng.IntN(4) {
		case 0:
			name = "mcp__" + servers[rng.IntN(len(servers))] + "__" + word() + "_" + word()
		case 1:
			name = word() + strings.ToUpper(word()[:1]) + word()[1:]
		default:
			name = word() + "_" + word() + "_" + rare[rng.IntN(len(rare))]
		}
		name += fmt.Sprint(len(tools) % 7)
		if seen[name] {
			continue
		}
		seen[name] = true
		var d []string
		for range 3 + rng.IntN(30) {
			d = append(d, word())
		}
		if rng.IntN(4) > 0 {
			d = append(d, "data") // the commonest word
		}
		t := Tool{Name: name, Description: strings.Join(d, " "), ShouldDefer: true}
		if rng.IntN(5) == 0 {
			t.SearchHint = word() + " " + word()
		}
		if rng.IntN(40) == 0 {
			// A tool only a common word reaches that scores near that
			// word's bound: its one own name word, in its hint many times.
			c := common[rng.IntN(len(common))]
			t = Tool{Name: fmt.Sprintf("mcp__s%d__%s", len(tools), c), ShouldDefer: true,
				SearchHint: strings.Repeat(c+" ", 5+rng.IntN(40)), Description: c}
		}
		tools = append(tools, t)
	}
	return tools
}

// probeQuery returns a query of a common word and a few rarer ones, in any
// order, sometimes with a required term, a stop word, a name part, a
// misspelt word or a tool's name.
func probeQuery(rng *rand.Rand, tools []Tool) string {
	ws := []string{[]string{"data", "file", "list", "get"}[rng.IntN(4)]}
	for range 1 + rng.IntN(3) {
		f := strings.Fields(tools[rng.IntN(len(tools))].Description)
		ws = append(ws, f[rng.IntN(len(f))])
	}
	switch rng.IntN(8) {
	case 0:
		ws = append(ws, "the", "for")
	case 1:
		ws[rng.IntN(len(ws))] = "+" + ws[rng.IntN(len(ws))]
	case 2:
		ws = append(ws, tools[rng.IntN(len(tools))].Name)
	case 3:
		ws = append(ws, "paymnet", "custom") // a typo, a name part
	case 4:
		ws = append(ws, "data", "data") // repeated
	}
	rng.Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
	return strings.Join(ws, " ")
}

// probeVersions calls f with three index versions of each of seeds
// catalogs of probeCatalog (least to least+spread tools): built, then twice
// patched by 40 removals or replacements.
func probeVersions(t *testing.T, seeds, stream uint64, least, spread int, f func(seed, round int, rng *rand.Rand, tools []Tool, x *hybridIndex)) {
	probeVersionsWith(t, HybridStrategy().(hybridStrategy), seeds, stream, least, spread, f)
}

// probeVersionsWith is probeVersions with the hybrid strategy st.
func probeVersionsWith(t *testing.T, st hybridStrategy, seeds, stream uint64, least, spread int, f func(seed, round int, rng *rand.Rand, tools []Tool, x *hybridIndex)) {
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(seed, stream))
		tools := probeCatalog(rng, least+rng.IntN(spread))
		r := newRegistry(t, nil)
		require.NoError(t, r.Register(tools...))
		var prev Index
		for round := range 3 {
			if round > 0 {
				for range 40 {
					i := rng.IntN(len(tools))
					if rng.IntN(2) == 0 {
						r.Remove(tools[i].Name)
					} else {
						tools[i].Description = "data " + tools[rng.IntN(len(tools))].Description
						require.NoError(t, r.Replace(tools[i]))
					}
				}
			}
			x := indexFor(st, corpusOf(r, r.load()), prev).(*hybridIndex)
			prev = x
			f(int(seed), round, rng, tools, x)
		}
	}
}

// A query probed (its candidates from the cheap terms, the common terms
// looked up) gets the hits of scoring every term in turn: the same tools,
// float scores and rules, for every K up to the collect-all limit, with
// and without a scope, under a tight work budget, and on index versions
// patched by removals and replacements. The probe prunes some queries
// (not every term's tools scored) and widens others.
func TestHybridProbeMatchesTermAtATime(t *testing.T) {
	var probed, pruned, widened, required int
	probeVersions(t, 6, 71, 400, 900, func(seed, round int, rng *rand.Rand, tools []Tool, x *hybridIndex) {
		for qi := range 150 {
			text := probeQuery(rng, tools)
			terms := x.terms(text)
			k := []int{1, 2, 5, 10, collectAllAbove}[qi%5]
			q := Query{Text: text, K: k}
			if qi%3 == 0 {
				q.In = func(pos int) bool { return pos%3 != 1 }
			}
			if !x.probeWorth(q, terms) {
				continue
			}
			probed++
			ctx := context.Background()
			if qi%7 == 0 {
				ctx, _ = querywork.With(ctx, 40) // the name-part scans cut part-way
			}
			sc := x.getScratch()
			want := q.TopHits(nil)
			x.rankTerms(ctx, terms, sc, querywork.Of(ctx), &want)
			if qi%7 == 0 {
				ctx, _ = querywork.With(context.Background(), 40)
			}
			got := q.TopHits(nil)
			scored := x.rankProbe(ctx, terms, sc, querywork.Of(ctx), &got)
			x.scratch.put(sc)
			require.Equal(t, want.Hits(), got.Hits(), "seed %d round %d: %q, K %d", seed, round, text, k)
			for i := range sc.mark {
				require.Zero(t, sc.mark[i]|sc.fresh[i], "marks left set")
			}
			for _, c := range sc.credOf {
				require.Zero(t, c, "credits left set")
			}
			for d, a := range sc.acc {
				if a != (hybridAcc{}) {
					t.Fatalf("seed %d round %d: %q: slot %d's accumulator left set: %+v", seed, round, text, d, a)
				}
			}
			switch {
			case slices.ContainsFunc(terms, func(t hybridTerm) bool { return t.required }):
				required++
			case scored.cheap < len(terms):
				pruned++
			}
			if scored.cheap > scored.first {
				widened++
			}
		}
	})
	t.Logf("%d queries probed: %d pruned, %d widened, %d with a required term", probed, pruned, widened, required)
	require.Greater(t, pruned, 50, "queries whose common terms were only looked up")
	require.Greater(t, widened, 20, "queries whose first bound was not below the k-th score")
	require.Greater(t, required, 20, "queries with a required term")
}

// The searcher's hybrid path, which probes, returns the reference's best
// hits (sorted by score, then position) for every K.
func TestHybridProbeMatchesReference(t *testing.T) {
	st := HybridStrategy().(hybridStrategy)
	rng := rand.New(rand.NewPCG(5, 5))
	tools := probeCatalog(rng, 1200)
	c := NewCorpus(tools)
	x := st.Index(c).(*hybridIndex)
	ref := refHybridBuild(st, c)
	probed := 0
	for qi := range 200 {
		text := probeQuery(rng, tools)
		all, _, err := ref.Rank(context.Background(), text, nil)
		require.NoError(t, err)
		slices.SortFunc(all, func(a, b Hit) int {
			if a.Score != b.Score {
				if a.Score > b.Score {
					return -1
				}
				return 1
			}
			return a.Tool - b.Tool
		})
		k := 1 + qi%10
		q := Query{Text: text, K: k}
		if x.probeWorth(q, x.terms(text)) {
			probed++
		}
		got, _, err := x.Rank(context.Background(), q, nil)
		require.NoError(t, err)
		want := all[:min(k, len(all))]
		if len(want) == 0 {
			want = nil
		}
		if len(got) == 0 {
			got = nil
		}
		require.Equal(t, want, got, "%q, K %d", text, k)
	}
	require.Greater(t, probed, 30, "queries probed")
}

// termsAndProbe returns the hits of q (whose terms are terms) scored term
// at a time and probed, without a work budget.
func termsAndProbe(x *hybridIndex, q Query, terms []hybridTerm) (want, got []Hit) {
	ctx := context.Background()
	sc := x.getScratch()
	defer x.scratch.put(sc)
	w, g := q.TopHits(nil), q.TopHits(nil)
	x.rankTerms(ctx, terms, sc, querywork.Of(ctx), &w)
	x.rankProbe(ctx, terms, sc, querywork.Of(ctx), &g)
	return w.Hits(), g.Hits()
}

// The bound on a tool only the common terms reach is close to what such a
// tool can score: one whose single own name word is the common word and
// whose hint repeats it scores within a few percent of it, times the
// name-cover factor. Over a sweep of how strongly the rare word's tools
// match (the length of their descriptions), the probe returns that tool
// whenever scoring every term in turn does: a bound a little lower (no
// name-cover factor, or k1 for k1 + 1) would miss it.
func TestHybridProbeBoundIsTight(t *testing.T) {
	st := HybridStrategy().(hybridStrategy)
	heavyIn := 0
	for length := 2; length <= 240; length += 12 {
		for _, reps := range []int{8, 40} {
			var tools []Tool
			for i := range 300 {
				tools = append(tools, Tool{Name: fmt.Sprintf("filler_%d", i), Description: "file " + strings.Repeat("other ", i%20)})
			}
			for i := range 6 {
				tools = append(tools, Tool{Name: fmt.Sprintf("rare_%d", i), Description: "zebra " + strings.Repeat("stuff ", length+i)})
			}
			tools = append(tools, Tool{Name: "mcp__srv__file", SearchHint: strings.Repeat("file ", reps), Description: "file"})
			for range 3000 { // "file" is common in postings, not in the catalog: its idf counts
				tools = append(tools, Tool{Name: fmt.Sprintf("plain_%d", len(tools)), Description: "nothing here"})
			}
			c := NewCorpus(tools)
			x := st.Index(c).(*hybridIndex)
			for k := 1; k <= 6; k++ {
				q := Query{Text: "zebra file", K: k}
				terms := x.terms(q.Text)
				require.True(t, x.probeWorth(q, terms))
				want, got := termsAndProbe(x, q, terms)
				require.Equal(t, want, got, "description length %d, hint %d, K %d", length, reps, k)
				if slices.ContainsFunc(want, func(h Hit) bool { return c.Tool(h.Tool).Name == "mcp__srv__file" }) {
					heavyIn++
				}
			}
		}
	}
	require.Greater(t, heavyIn, 20, "the tool only the common word reaches is among the hits")
}

// Probed queries with a stop word that most tools have and no required
// term, and with two required terms, get the hits of scoring every term
// in turn: a tool only the stop word reaches (it counts no match) is not
// a hit, and a hit has every required term.
func TestHybridProbeStopWordsAndRequired(t *testing.T) {
	st := HybridStrategy().(hybridStrategy)
	var tools []Tool
	for i := range 600 {
		d := "the thing number " + fmt.Sprint(i)
		if i%3 == 0 {
			d += " file"
		}
		if i%50 == 7 {
			d += " zebra"
		}
		if i%7 == 1 {
			d = "a thing"
		}
		tools = append(tools, Tool{Name: fmt.Sprintf("tool_%d", i), Description: d})
	}
	x := st.Index(NewCorpus(tools)).(*hybridIndex)
	probedStop := 0
	for _, text := range []string{"zebra the", "the zebra file", "the file zebra", "+zebra +file the", "+file the +zebra", "+the zebra"} {
		for _, k := range []int{1, 3, 12, collectAllAbove} {
			for _, scoped := range []bool{false, true} {
				q := Query{Text: text, K: k}
				if scoped {
					q.In = func(pos int) bool { return pos%4 != 0 }
				}
				terms := x.terms(text)
				require.True(t, x.probeWorth(q, terms), "%q is probed", text)
				if !strings.Contains(text, "+") {
					probedStop++
				}
				want, got := termsAndProbe(x, q, terms)
				require.NotEmpty(t, want, "%q", text)
				require.Equal(t, want, got, "%q, K %d, scoped %v", text, k, scoped)
			}
		}
	}
	require.Equal(t, 24, probedStop)
}
