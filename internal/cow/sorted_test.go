package cow

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSortedEqualsASortedSlice applies random change sequences (single
// replacements, batches of additions and removals, removals of items not
// held, runs that empty the list and refill it) to a Sorted and to a plain
// sorted slice, and checks after every change that every version kept
// still reads as its slice: Len, At, All, From, Search and Marked. Page
// splits and merges happen on the way (the sizes cross several pages).
func TestSortedEqualsASortedSlice(t *testing.T) {
	odd := func(v int) bool { return v%2 != 0 }
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 7))
		universe := 6 * sortedPage
		var ref []int
		for v := range universe {
			if rng.IntN(3) == 0 {
				ref = append(ref, v)
			}
		}
		s := NewSorted(ref, odd)
		type version struct {
			s   Sorted[int]
			ref []int
		}
		kept := []version{{s, slices.Clone(ref)}}
		for step := range 200 {
			var remove, add []int
			switch kind := rng.IntN(6); {
			case kind == 0 && len(ref) > 0: // one item replaced by itself
				v := ref[rng.IntN(len(ref))]
				remove, add = []int{v}, []int{v}
			case kind <= 2: // a few additions and removals
				for range rng.IntN(5) + 1 {
					v := rng.IntN(universe)
					if _, held := slices.BinarySearch(ref, v); held {
						remove = append(remove, v)
					} else if !slices.Contains(add, v) {
						add = append(add, v)
					}
				}
				remove = append(remove, universe+rng.IntN(10)) // not held: ignored
			case kind == 3: // a run removed (pages shrink and merge)
				lo := rng.IntN(universe)
				for _, v := range ref {
					if v >= lo && v < lo+rng.IntN(3*sortedPage) {
						remove = append(remove, v)
					}
				}
			default: // a run added (pages split)
				lo := rng.IntN(universe)
				for v := lo; v < min(universe, lo+rng.IntN(3*sortedPage)); v++ {
					if _, held := slices.BinarySearch(ref, v); !held && rng.IntN(2) == 0 {
						add = append(add, v)
					}
				}
			}
			rng.Shuffle(len(add), func(i, j int) { add[i], add[j] = add[j], add[i] })
			s = s.With(remove, add, cmp.Compare[int])
			ref = slices.DeleteFunc(ref, func(v int) bool { return slices.Contains(remove, v) && !slices.Contains(add, v) })
			for _, v := range add {
				if i, held := slices.BinarySearch(ref, v); !held {
					ref = slices.Insert(ref, i, v)
				}
			}
			kept = append(kept, version{s, slices.Clone(ref)})
			for k, v := range kept {
				sameAsSlice(t, v.s, v.ref, odd, fmt.Sprintf("seed %d step %d, version %d", seed, step, k))
			}
			if len(kept) > 4 {
				kept = slices.Delete(kept, 1, 2) // keep the first and the last few
			}
		}
	}
}

// sameAsSlice checks that s reads as ref, sorted, with mark.
func sameAsSlice(t *testing.T, s Sorted[int], ref []int, mark func(int) bool, msg string) {
	t.Helper()
	require.Equal(t, len(ref), s.Len(), msg)
	require.Equal(t, ref, slices.Collect(s.All()), msg)
	if len(ref) == 0 {
		return
	}
	for _, i := range []int{0, len(ref) - 1, len(ref) / 3} {
		require.Equal(t, ref[i], s.At(i), msg)
		var from, at []int
		for j, v := range s.From(i) {
			from, at = append(from, v), append(at, j)
		}
		require.Equal(t, ref[i:], from, msg)
		require.Equal(t, i, at[0], msg)
		require.Equal(t, len(ref)-1, at[len(at)-1], msg)
	}
	for _, target := range []int{-1, ref[0], ref[len(ref)/2], ref[len(ref)/2] + 1, ref[len(ref)-1] + 1} {
		wi, wf := slices.BinarySearch(ref, target)
		gi, gf := s.Search(func(v int) int { return cmp.Compare(v, target) })
		require.Equal(t, wi, gi, msg)
		require.Equal(t, wf, gf, msg)
	}
	for _, r := range [][2]int{{0, len(ref)}, {len(ref) / 4, len(ref) / 2}, {1, len(ref) - 1}, {len(ref) / 3, len(ref)/3 + 3}} {
		want := 0
		for _, v := range ref[r[0]:max(r[0], r[1])] {
			if mark(v) {
				want++
			}
		}
		require.Equal(t, want, s.Marked(r[0], r[1]), msg)
	}
	for p, pg := range s.pages {
		require.NotEmpty(t, pg, msg)
		require.Less(t, len(pg), 2*sortedPage, "page %d: %s", p, msg)
	}
}

// TestSortedChangeCopiesOnePage: a one-item change shares every page but
// the one it writes.
func TestSortedChangeCopiesOnePage(t *testing.T) {
	var items []string
	for i := range 20 * sortedPage {
		items = append(items, fmt.Sprintf("%08d", i))
	}
	s := NewSorted(items, nil)
	n := s.With([]string{items[5*sortedPage]}, []string{items[5*sortedPage] + "!"}, strings.Compare)
	shared := 0
	for p := range n.pages {
		if p < len(s.pages) && &n.pages[p][0] == &s.pages[p][0] {
			shared++
		}
	}
	require.Equal(t, len(s.pages)-1, shared, "every page but one is shared")
	require.Equal(t, s.Len(), n.Len())
}
