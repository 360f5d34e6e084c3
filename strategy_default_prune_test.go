package toolsearch

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch/internal/querywork"
)

// pruneCommon are the words most generated texts have, so that long
// queries have postings that hold most of the catalog.
var pruneCommon = []string{"a", "the", "to", "for", "and", "in", "of", "with", "is"}

func pruneText(rng *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		if rng.IntN(2) == 0 {
			ws[i] = pruneCommon[rng.IntN(len(pruneCommon))]
		} else {
			ws[i] = diffWords[rng.IntN(len(diffWords))]
		}
	}
	return strings.Join(ws, []string{" ", ", ", "\n", "-"}[rng.IntN(4)])
}

func pruneTool(rng *rand.Rand, taken map[string]bool) (Tool, bool) {
	name, server := diffName(rng)
	if taken[name] {
		return Tool{}, false
	}
	taken[name] = true
	t := Tool{Name: name, Server: server, Description: pruneText(rng, rng.IntN(30)), ShouldDefer: true}
	if rng.IntN(3) == 0 {
		t.SearchHint = pruneText(rng, 1+rng.IntN(5))
	}
	return t, true
}

// pruneQuery returns a long query: common words, catalog words, name parts
// alone, joined or cut short, and now and then a required term.
func pruneQuery(rng *rand.Rand, names []string) string {
	var toks []string
	for range 6 + rng.IntN(35) {
		var tok string
		switch r := rng.Float64(); {
		case r < 0.4:
			tok = pruneCommon[rng.IntN(len(pruneCommon))]
		case r < 0.7:
			tok = diffWords[rng.IntN(len(diffWords))]
		case r < 0.85 && len(names) > 0:
			parts, _ := nameParts(names[rng.IntN(len(names))])
			i := rng.IntN(len(parts))
			tok = parts[i]
			if rng.IntN(2) == 0 && i+1 < len(parts) {
				tok = strings.Join(parts[i:i+2], []string{"", "_", "-"}[rng.IntN(3)])
			}
		default:
			w := diffWords[rng.IntN(len(diffWords))]
			tok = w[:1+rng.IntN(len(w))]
		}
		if rng.IntN(10) == 0 {
			tok = strings.ToUpper(tok)
		}
		toks = append(toks, tok)
	}
	if rng.IntN(20) == 0 {
		toks[rng.IntN(len(toks))] = "+" + diffWords[rng.IntN(len(diffWords))]
	}
	return strings.Join(toks, " ")
}

// TestPrunedRankMatchesExhaustive ranks long queries over random catalogs
// of up to 2,000 tools, before and after changes (which leave postings out
// of slot order), with and without a scope and a small work budget, with
// the default strategy's pruned path and with the exhaustive one: the
// hits (tools, scores, rules, order), the notes and whether the work
// budget was cut must be the same.
func TestPrunedRankMatchesExhaustive(t *testing.T) {
	catalogs, queries := sweepSize(8, 60), 40
	var checked, pruned, cut int
	for seed := range catalogs {
		rng := rand.New(rand.NewPCG(uint64(seed), 25))
		taken := map[string]bool{}
		var tools []Tool
		for range 100 + rng.IntN(1900) {
			if tl, ok := pruneTool(rng, taken); ok {
				tools = append(tools, tl)
			}
		}
		r, err := NewRegistry(nil, tools...)
		require.NoError(t, err, "seed %d", seed)
		for round := range 2 {
			if round > 0 { // postings patched: lists out of slot order, slots reused
				for i := range 40 {
					tl := tools[rng.IntN(len(tools))]
					switch i % 3 {
					case 0:
						tl.Description = pruneText(rng, rng.IntN(30))
						require.NoError(t, r.Replace(tl), "seed %d: Replace(%q)", seed, tl.Name)
					case 1:
						r.Remove(tl.Name)
					default:
						if nt, ok := pruneTool(rng, taken); ok {
							require.NoError(t, r.Register(nt), "seed %d: Register(%q)", seed, nt.Name)
						}
					}
				}
			}
			snap := r.load()
			c := corpusOf(r, snap)
			fast := &keywordIndex{ix: c.ix, pos: c.pos}
			slow := &keywordIndex{ix: c.ix, pos: c.pos, exhaustive: true}
			names := make([]string, 0, snap.deferred.Len())
			for e := range snap.deferredTools() {
				names = append(names, e.tool.Name)
			}
			for range queries {
				text := pruneQuery(rng, names)
				q := Query{Text: text, K: []int{1, 3, 5, 5, 10, 64, 65}[rng.IntN(7)]}
				if rng.IntN(3) == 0 {
					mod := 2 + rng.IntN(3)
					q.In = func(pos int) bool { return pos%mod != 0 }
				}
				budget := 1 << 40
				if rng.IntN(4) == 0 {
					budget = 50 + rng.IntN(5000)
				}
				ctx1, w1 := querywork.With(context.Background(), budget)
				got, gotNotes, p := fast.rank(ctx1, q, nil)
				ctx2, w2 := querywork.With(context.Background(), budget)
				want, wantNotes, _ := slow.rank(ctx2, q, nil)
				require.Equal(t, want, got, "seed %d round %d: Rank(%q, K %d, budget %d)", seed, round, text, q.K, budget)
				require.Equal(t, wantNotes, gotNotes, "seed %d round %d: notes of %q", seed, round, text)
				require.Equal(t, w2.Cut(), w1.Cut(), "seed %d round %d: budget cut for %q", seed, round, text)
				checked++
				if p {
					pruned++
				}
				if w1.Cut() {
					cut++
				}
			}
		}
	}
	t.Logf("%d rankings equal, %d of them pruned, %d cut by the work budget", checked, pruned, cut)
	require.Greater(t, pruned, checked/4, "pruning must fire on many of the long queries, or this test checks little")
	require.Positive(t, cut, "some queries must run out of work budget")
}

// TestPrunedRankKeepsATie builds the case at the bound: after the cheap
// terms the best tool scores 10 and the common words left can add exactly
// 10 to a tool not touched yet, which then ties and wins by pool order.
// Pruning must not start there (it may one term later, when the fillers
// are touched).
func TestPrunedRankKeepsATie(t *testing.T) {
	var tools []Tool
	for i := range 600 {
		tools = append(tools, Tool{Name: "fill_" + strconv.Itoa(i), Description: "qa qb qc qd qe", ShouldDefer: true})
	}
	tools = append(tools, Tool{Name: "zzz", Description: "other", ShouldDefer: true},
		Tool{Name: "yyy", Description: "other", ShouldDefer: true})
	r, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	c := corpusOf(r, r.load())
	q := Query{Text: "zzz yyy qa qb qc qd qe", K: 1}
	want, _, _ := (&keywordIndex{ix: c.ix, pos: c.pos, exhaustive: true}).rank(context.Background(), q, nil)
	got, _, _ := (&keywordIndex{ix: c.ix, pos: c.pos}).rank(context.Background(), q, nil)
	require.Len(t, want, 1)
	require.Equal(t, "fill_0", r.load().deferredAt(want[0].Tool).tool.Name, "the first filler ties the named tools and comes first")
	require.Equal(t, want, got, "Rank(%q, K 1): pruning may start only once the words left cannot tie", q.Text)
}
