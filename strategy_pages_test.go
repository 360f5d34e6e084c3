package toolsearch

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/words"
)

// pagesWords are the words of the tools of TestPagedPostingsAcrossChanges:
// few, so that each is in the postings of many tools, over many pages.
var pagesWords = strings.Fields("the file get list create read write issue repo user search page a of to")

func pagesTool(rng *rand.Rand, name string) Tool {
	var d []string
	for range 3 + rng.IntN(10) {
		d = append(d, pagesWords[rng.IntN(len(pagesWords))])
	}
	return Tool{Name: name + "_" + pagesWords[rng.IntN(len(pagesWords))], Description: strings.Join(d, " "),
		SearchHint: pagesWords[rng.IntN(len(pagesWords))], ShouldDefer: true}
}

// TestPagedPostingsAcrossChanges: in a registry whose postings lists run
// over many pages, tools registered long ago leave, new ones take their
// slots, others are replaced; after each round the bm25 and hybrid
// indexes patched from the version before rank every query as indexes
// built from scratch and the references do, and the versions published
// before still rank as they did.
func TestPagedPostingsAcrossChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var r Registry
	next := 0
	var names []string
	add := func(k int) {
		var ts []Tool
		for range k {
			tl := pagesTool(rng, "tool_"+strconv.Itoa(next))
			next++
			ts = append(ts, tl)
			names = append(names, tl.Name)
		}
		require.NoError(t, r.Register(ts...))
	}
	add(1200)
	queries := []string{"the", "file", "get file", "the list of repo", "+read write", "issue +user page", "tool_7", "search_page a"}
	type version struct {
		x    Index
		want map[string][]Hit
	}
	rankAll := func(x Index, q string) []Hit {
		got, _, err := x.Rank(context.Background(), Query{Text: q, K: -1}, nil)
		require.NoError(t, err)
		slices.SortFunc(got, func(a, b Hit) int { return a.Tool - b.Tool })
		return got
	}
	bm25 := BM25Strategy(nil).(bm25Strategy)
	hybrid := HybridStrategy().(hybridStrategy)
	prev := map[string]Index{}
	var published []version
	for round := range 12 {
		if round > 0 {
			switch round % 3 {
			case 0: // old tools leave, as many new ones come
				k := 1 + rng.IntN(40)
				var gone []string
				for range k {
					i := rng.IntN(min(len(names), 300)) // among the oldest
					gone = append(gone, names[i])
					names = slices.Delete(names, i, i+1)
				}
				require.Equal(t, k, r.Remove(gone...))
				add(k)
			case 1: // tools are replaced in place
				var ts []Tool
				for range 1 + rng.IntN(5) {
					name := names[rng.IntN(len(names))]
					tl := pagesTool(rng, "x")
					tl.Name = name
					if !slices.ContainsFunc(ts, func(o Tool) bool { return o.Name == name }) {
						ts = append(ts, tl)
					}
				}
				require.NoError(t, r.Replace(ts...))
			default: // one old tool leaves
				i := rng.IntN(len(names) / 4)
				require.Equal(t, 1, r.Remove(names[i]))
				names = slices.Delete(names, i, i+1)
			}
		}
		c := corpusOf(&r, r.load())
		refB := refBM25(bm25, c)
		refH := refHybridBuild(hybrid, c)
		for _, st := range []Strategy{bm25, hybrid} {
			x := indexFor(st, c, prev[st.Name()])
			prev[st.Name()] = x
			fresh := st.Index(c)
			v := version{x: x, want: map[string][]Hit{}}
			for _, q := range queries {
				got := rankAll(x, q)
				require.Equal(t, rankAll(fresh, q), got, "round %d: %s %q patched and built at once", round, st.Name(), q)
				var want []Hit
				if st.Name() == "bm25" {
					want = refB(q)
				} else {
					want, _, _ = refH.Rank(context.Background(), q, nil)
				}
				slices.SortFunc(want, func(a, b Hit) int { return a.Tool - b.Tool })
				if len(want) == 0 {
					want = nil
				}
				if len(got) == 0 {
					got = nil
				}
				require.Equal(t, want, got, "round %d: %s %q against the reference", round, st.Name(), q)
				v.want[q] = got
			}
			published = append(published, v)
		}
		for i, v := range published {
			for q, want := range v.want {
				got := rankAll(v.x, q)
				if len(got) == 0 {
					got = nil
				}
				require.Equal(t, want, got, "round %d: version %d, %q, after later changes", round, i, q)
			}
		}
	}
	x := prev["bm25"].(*bm25Index)
	require.Greater(t, len(x.post.Get("the").Pages()), 3, "the test reaches lists of many pages")
	requireSlotOrder(t, x.post.Get("the"), func(p bm25Posting) int32 { return p.slot })
	h := prev["hybrid"].(*hybridIndex)
	file := h.post.Get(words.Stem("file"))
	require.Greater(t, len(file.Pages()), 3)
	requireSlotOrder(t, file, hybridPostSlot)
}

func requireSlotOrder[T any](t *testing.T, l cow.List[T], slot func(T) int32) {
	t.Helper()
	s := l.Slice()
	for i := 1; i < len(s); i++ {
		require.Less(t, slot(s[i-1]), slot(s[i]), "in slot order, each slot once")
	}
}
