package toolsearch

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/vocab"
)

// TestBuildIndexEqualsAppending builds indexes of random catalogs, from
// scratch and over a previous index (whose tools keep their slots), with
// buildIndex and with refBuildIndex (each tool's slot appended to its
// tokens' lists, tool after tool, and the lists sorted), and checks that
// they are the same index: shards, postings lists (in slot order, in
// pages as cow.List cuts them), vocabulary ids, join filter, slots and
// counts.
func TestBuildIndexEqualsAppending(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	for round := range sweepSize(40, 400) {
		var entries []*entry
		seen := map[string]bool{}
		for range rng.IntN(300) {
			tl := diffTool(rng)
			if rng.IntN(4) == 0 {
				tl.Description = strings.ToUpper(tl.Description[:len(tl.Description)/2]) + tl.Description[len(tl.Description)/2:]
			}
			if !seen[tl.Name] {
				seen[tl.Name] = true
				entries = append(entries, newEntry(&tl))
			}
		}
		sortPool(entries)
		var old *index
		if round%2 == 1 && len(entries) > 0 {
			// A previous index of some of the tools, plus tools that are gone.
			var prev []*entry
			for _, e := range entries {
				if rng.IntN(2) == 0 {
					prev = append(prev, e)
				}
			}
			for range rng.IntN(20) {
				tl := diffTool(rng)
				tl.Name = "gone_" + tl.Name
				prev = append(prev, newEntry(&tl))
			}
			sortPool(prev)
			old = buildIndex(prev, nil, nil)
		}
		slots := make([]int32, len(entries))
		for i, e := range entries {
			slots[i] = e.slot
		}
		want := refBuildIndex(entries, old)
		for i, e := range entries {
			e.slot = slots[i]
		}
		got := buildIndex(entries, nil, old)
		requireSameIndex(t, want, got, round)
	}
}

// requireSameIndex fails t unless a and b are the same index.
func requireSameIndex(t *testing.T, a, b *index, round int) {
	t.Helper()
	as, bs := a.shardMaps(), b.shardMaps()
	require.Len(t, bs, len(as), "round %d: shards", round)
	require.Equal(t, a.words, b.words, "round %d: words", round)
	require.Equal(t, a.live, b.live, "round %d: live", round)
	require.Equal(t, a.joinKeys, b.joinKeys, "round %d: join keys", round)
	require.Equal(t, a.nslots, b.nslots, "round %d: slot count", round)
	for s := range int32(a.nslots) {
		require.Same(t, a.slot(s), b.slot(s), "round %d: slot %d", round, s)
	}
	require.Equal(t, a.free, b.free, "round %d: free slots", round)
	require.Equal(t, a.vocab.Parts, b.vocab.Parts, "round %d: vocabulary", round)
	const partChars = "abcdefghijklmnopqrstuvwxyz0123456789.-"
	for _, c := range partChars {
		for _, d := range " " + partChars {
			gram := strings.TrimSpace(string(c) + string(d))
			require.Equal(t, a.vocab.Candidates(gram), b.vocab.Candidates(gram), "round %d: the parts containing %q", round, gram)
		}
	}
	require.True(t, a.joins.Equal(b.joins), "round %d: join filter", round)
	same := func(x, y slotList) bool {
		return x.Len() == y.Len() && slices.EqualFunc(x.Pages(), y.Pages(), slices.Equal)
	}
	for i := range as {
		require.Len(t, bs[i], len(as[i]), "round %d: shard %d", round, i)
		for tok, p := range as[i] {
			q := bs[i][tok]
			require.NotNil(t, q, "round %d: token %q", round, tok)
			if !same(p.part, q.part) || !same(p.mpart, q.mpart) || !same(p.hint, q.hint) || !same(p.desc, q.desc) || p.vid != q.vid {
				t.Fatalf("round %d: token %q: postings %+v, want %+v", round, tok, *q, *p)
			}
			if p.vid >= 0 && b.partRefs.At(p.vid) != q {
				t.Fatalf("round %d: vocabulary id %d does not find the postings of %q", round, p.vid, tok)
			}
		}
	}
}

// refBuildIndex indexes tools, given in pool order, by appending each
// one's slot to its tokens' lists, then sorting them. A tool that old (the
// index being replaced, or nil) holds keeps its slot, so that the indexes
// of other strategies, kept by slot, stay valid; the others take free
// slots, lowest first.
func refBuildIndex(tools []*entry, old *index) *index {
	ix := &index{}
	// Estimate the token count from the tool count: about 3 distinct tokens
	// per tool on real catalogs.
	ix.building = make([]map[string]*postings, cow.ShardCount(3*len(tools)))
	for i := range ix.building {
		ix.building[i] = map[string]*postings{}
	}
	ix.assignSlots(tools, old)
	ix.vocab = &vocab.Vocabulary{}
	refs := (&cow.Paged[*postings]{}).Edit()
	joins := 0
	for _, e := range tools {
		joins += len(e.parts) * (len(e.parts) - 1) / 2
	}
	ix.joins = vocab.NewJoinFilter(joins)
	lists := map[*postings]*[fields][]int32{}
	for _, e := range tools {
		slot := e.slot
		e.tokens(func(tok string, f field) {
			sh := ix.building[tokenHash(tok)&uint64(len(ix.building)-1)]
			p := sh[tok]
			if p == nil {
				p = &postings{vid: -1}
				sh[strings.Clone(tok)] = p // tok may be a run of a text
				ix.words++
			}
			ls := lists[p]
			if ls == nil {
				ls = new([fields][]int32)
				lists[p] = ls
			}
			l := &ls[f]
			if n := len(*l); n > 0 && (*l)[n-1] == slot {
				return // a repeated token of this tool
			}
			if f <= fieldMCPPart && p.vid < 0 {
				p.vid = int32(len(ix.vocab.Parts))
				ix.vocab.Add(tok)
				refs.Set(p.vid, p)
			}
			*l = append(*l, slot)
		})
		ix.joinKeys += ix.joins.AddJoins(e.parts)
	}
	ix.partRefs = refs.Done()
	ix.live = len(tools)
	if n := cow.ShardCount(ix.words); n > len(ix.building) {
		ix.refReshard(n) // more words than estimated
	}
	for p, ls := range lists {
		for f := range fields {
			slices.Sort(ls[f])
			*p.list(f) = slotList{}.PatchPages(nil, ls[f], slotOf, slotPage(len(ls[f])))
		}
	}
	ed := ix.shards.Edit()
	for i, sh := range ix.building {
		ed.Set(int32(i), sh)
	}
	ix.shards, ix.nshards, ix.building = ed.Done(), len(ix.building), nil
	return ix
}

// refReshard spreads the tokens over n shards. Only for an index being built.
func (ix *index) refReshard(n int) {
	old := ix.building
	ix.building = make([]map[string]*postings, n)
	for i := range ix.building {
		ix.building[i] = make(map[string]*postings, ix.words/n+1)
	}
	for _, sh := range old {
		for tok, p := range sh {
			ix.building[tokenHash(tok)&uint64(n-1)][tok] = p
		}
	}
}
