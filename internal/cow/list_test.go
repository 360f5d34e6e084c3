package cow

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// elem is a list element: a slot and a value that tells versions apart.
type elem struct{ slot, v int32 }

func elemSlot(e elem) int32 { return e.slot }

// checkList checks l's invariants and that it holds want.
func checkList(t *testing.T, l List[elem], want []elem, msg string) {
	t.Helper()
	checkListPages(t, l, want, ListPage, ListPage, msg)
}

// checkListPages is checkList for a list patched with PatchPages(page),
// lo ≤ page ≤ hi: its pages hold at most hi elements, and at least lo/4
// but for a list's only page.
func checkListPages(t *testing.T, l List[elem], want []elem, lo, hi int, msg string) {
	t.Helper()
	require.Equal(t, len(want), l.Len(), "%s: length", msg)
	if len(want) == 0 {
		require.Empty(t, l.Slice(), msg)
	} else {
		require.Equal(t, want, l.Slice(), msg)
	}
	require.Equal(t, l.Slice(), append([]elem{}, slices.Collect(l.All())...), "%s: All and Slice agree", msg)
	for i, pg := range l.Pages() {
		require.NotEmpty(t, pg, "%s: page %d", msg, i)
		require.LessOrEqual(t, len(pg), hi, "%s: page %d", msg, i)
		if len(l.Pages()) > 1 {
			require.GreaterOrEqual(t, len(pg), lo/4, "%s: page %d of %d", msg, i, len(l.Pages()))
		}
		require.Equal(t, len(pg), cap(pg), "%s: page %d has no room an append could write", msg, i)
	}
}

// patchModel is Patch on a plain slice.
func patchModel(l []elem, gone []int32, join []elem) []elem {
	var out []elem
	for _, e := range l {
		if !slices.Contains(gone, e.slot) {
			out = append(out, e)
		}
	}
	out = append(out, join...)
	slices.SortStableFunc(out, func(a, b elem) int { return int(a.slot - b.slot) })
	return out
}

// TestListPatchMatchesModel: random patches of random lists (slots
// leaving, joining and coming back, from a few elements to many pages)
// give what a plain slice does, in pages of the size given (Patch, or
// PatchPages with smaller and larger pages, or with a page that changes
// from patch to patch); every published version keeps its contents after
// the patches that follow it.
func TestListPatchMatchesModel(t *testing.T) {
	for seed := range uint64(80) {
		rng := rand.New(rand.NewPCG(seed, 7))
		// Patch, and PatchPages with pages of 16 and 1,024, and of 16 to
		// 256 (0: chosen each round).
		page := []int{ListPage, 16, 1024, 0}[seed%4]
		lo, hi := page, page
		if page == 0 {
			lo, hi = 16, 256
		}
		space := int32(8 + rng.IntN(3000)) // slots 0 … space-1
		var l List[elem]
		var model []elem
		type version struct {
			l    List[elem]
			want []elem
		}
		var published []version
		for round := range 60 {
			in := map[int32]bool{}
			for _, e := range model {
				in[e.slot] = true
			}
			var gone []int32
			var join []elem
			switch rng.IntN(4) {
			case 0: // many slots change at once
				for s := range space {
					if in[s] && rng.IntN(3) == 0 {
						gone = append(gone, s)
					}
					if (!in[s] || slices.Contains(gone, s)) && rng.IntN(3) == 0 {
						join = append(join, elem{s, int32(round)})
					}
				}
			default: // a few
				for range 1 + rng.IntN(4) {
					s := rng.Int32N(space)
					if slices.Contains(gone, s) || slices.ContainsFunc(join, func(e elem) bool { return e.slot == s }) {
						continue
					}
					if in[s] {
						gone = append(gone, s)
						if rng.IntN(2) == 0 { // replaced
							join = append(join, elem{s, int32(round)})
						}
					} else {
						join = append(join, elem{s, int32(round)})
					}
				}
				if rng.IntN(8) == 0 { // a slot that is not there leaves
					if s := rng.Int32N(space); !in[s] && !slices.ContainsFunc(join, func(e elem) bool { return e.slot == s }) {
						gone = append(gone, s)
					}
				}
				slices.Sort(gone)
				slices.SortFunc(join, func(a, b elem) int { return int(a.slot - b.slot) })
			}
			switch page {
			case ListPage:
				l = l.Patch(gone, join, elemSlot)
			case 0:
				l = l.PatchPages(gone, join, elemSlot, lo<<rng.IntN(5))
			default:
				l = l.PatchPages(gone, join, elemSlot, page)
			}
			model = patchModel(model, gone, join)
			msg := "seed " + strconv.Itoa(int(seed)) + " round " + strconv.Itoa(round)
			checkListPages(t, l, model, lo, hi, msg)
			published = append(published, version{l, slices.Clone(model)})
			for i, v := range published {
				require.Equal(t, len(v.want), v.l.Len(), "%s: version %d", msg, i)
				if len(v.want) > 0 {
					require.Equal(t, v.want, v.l.Slice(), "%s: version %d changed after it was published", msg, i)
				}
			}
		}
	}
}

// TestListPatchCopiesOnlyTheChangedPages: a one-element change in a long
// list writes one or two pages anew and shares every other page with the
// version before, which still reads what it did.
func TestListPatchCopiesOnlyTheChangedPages(t *testing.T) {
	var join []elem
	for s := range int32(100 * ListPage) {
		join = append(join, elem{s, 0})
	}
	l := List[elem]{}.Patch(nil, join, elemSlot)
	require.Len(t, l.Pages(), 100, "a list built at once has full pages")
	before := l.Slice()
	for _, c := range []struct {
		name string
		gone []int32
		join []elem
	}{
		{"replaced", []int32{5000}, []elem{{5000, 1}}},
		{"removed", []int32{5000}, nil},
		{"added", nil, []elem{{int32(100 * ListPage), 1}}},
		{"removed first", []int32{0}, nil},
	} {
		nl := l.Patch(c.gone, c.join, elemSlot)
		shared := 0
		old := map[*elem]bool{}
		for _, pg := range l.Pages() {
			old[&pg[0]] = true
		}
		for _, pg := range nl.Pages() {
			if old[&pg[0]] {
				shared++
			}
		}
		assert.GreaterOrEqual(t, shared, len(l.Pages())-2, "%s: pages shared", c.name)
		assert.Equal(t, patchModel(before, c.gone, c.join), nl.Slice(), c.name)
		assert.Equal(t, before, l.Slice(), "%s: the version before is unchanged", c.name)
	}
}

// TestListSmallPagesJoinANeighbour: removing most of a page's elements
// makes it take its neighbour in, so pages do not shrink to nothing.
func TestListSmallPagesJoinANeighbour(t *testing.T) {
	var join []elem
	for s := range int32(4 * ListPage) {
		join = append(join, elem{s, 0})
	}
	l := List[elem]{}.Patch(nil, join, elemSlot)
	var gone []int32
	for s := int32(ListPage); s < 2*ListPage-listMinPage/2; s++ {
		gone = append(gone, s)
	}
	nl := l.Patch(gone, nil, elemSlot)
	for i, pg := range nl.Pages() {
		assert.GreaterOrEqual(t, len(pg), listMinPage, "page %d", i)
	}
	assert.Len(t, nl.Pages(), 4, "the page of 16 took its neighbour in: two of 72")
	checkList(t, nl, patchModel(l.Slice(), gone, nil), "after")
	// The last page left small takes the page before it in.
	gone = gone[:0]
	for s := int32(3 * ListPage); s < 4*ListPage-listMinPage/2; s++ {
		gone = append(gone, s)
	}
	nl = l.Patch(gone, nil, elemSlot)
	for i, pg := range nl.Pages() {
		assert.GreaterOrEqual(t, len(pg), listMinPage, "last page small: page %d", i)
	}
	checkList(t, nl, patchModel(l.Slice(), gone, nil), "after the last page")
	// Every element leaves: the empty list.
	all := make([]int32, 0, len(join))
	for _, e := range join {
		all = append(all, e.slot)
	}
	assert.Equal(t, List[elem]{}, l.Patch(all, nil, elemSlot))
}

// TestPatchSorted: the map holds the patched list; an emptied list's key
// is deleted, a new one added; the version before is unchanged.
func TestPatchSorted(t *testing.T) {
	m := NewShardedMap[List[elem]](0)
	e := m.Edit()
	PatchSorted(e, "a", nil, []elem{{1, 0}, {2, 0}}, elemSlot)
	PatchSorted(e, "b", nil, []elem{{3, 0}}, elemSlot)
	PatchSorted(e, "none", []int32{4}, nil, elemSlot)
	v1 := e.Done()
	e = v1.Edit()
	PatchSorted(e, "a", []int32{1}, []elem{{0, 1}}, elemSlot)
	PatchSorted(e, "b", []int32{3}, nil, elemSlot)
	v2 := e.Done()
	assert.Equal(t, []elem{{1, 0}, {2, 0}}, v1.Get("a").Slice())
	assert.Equal(t, []elem{{3, 0}}, v1.Get("b").Slice())
	assert.Equal(t, []elem{{0, 1}, {2, 0}}, v2.Get("a").Slice())
	_, had := e.Get("b")
	assert.False(t, had, "an emptied list is deleted")
	_, had = v1.Edit().Get("none")
	assert.False(t, had, "an empty patch of a missing key adds nothing")
	assert.Equal(t, 1, v2.keys)
}
