package cow

import (
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEditsNeverChangeAPublishedVersion: a version read after an edit of
// it is what it was, and the new version holds the edit.
func TestEditsNeverChangeAPublishedVersion(t *testing.T) {
	m := NewShardedMap[[]int32](0)
	e := m.Edit()
	for i := range 5000 {
		e.Set("k"+strconv.Itoa(i), []int32{int32(i)})
	}
	v1 := e.Done()
	require.Greater(t, len(v1.shards), len(m.shards), "the map spread over more shards as it grew")
	e = v1.Edit()
	PatchList(e, "k7", []int32{7}, []int32{70, 71}, func(s int32) int32 { return s })
	PatchList(e, "k8", []int32{8}, nil, func(s int32) int32 { return s })
	PatchList(e, "new", nil, []int32{1}, func(s int32) int32 { return s })
	v2 := e.Done()
	assert.Equal(t, []int32{7}, v1.Get("k7"), "the published version is unchanged")
	assert.Equal(t, []int32{8}, v1.Get("k8"))
	assert.Nil(t, v1.Get("new"))
	assert.Equal(t, []int32{70, 71}, v2.Get("k7"))
	assert.Nil(t, v2.Get("k8"), "an emptied list is deleted")
	assert.Equal(t, []int32{1}, v2.Get("new"))
	assert.Equal(t, 5000, v2.keys)

	var p Paged[int]
	pe := p.Edit()
	pe.Set(3000, 1)
	p1 := pe.Done()
	pe = p1.Edit()
	pe.Set(3000, 2)
	pe.Set(1, 5)
	p2 := pe.Done()
	assert.Equal(t, 1, p1.At(3000))
	assert.Equal(t, 0, p1.At(1))
	assert.Equal(t, 2, p2.At(3000))
	assert.Equal(t, 5, p2.At(1))
	assert.True(t, p2.Has(3000))
	assert.False(t, p2.Has(1<<20))
}

// TestPagedEditCopiesOnlyWhatItWrites: an edit of a few elements of a
// large paged array shares every leaf and mid with the version before but
// those it wrote, and leaves that version unchanged; an array grown by
// an edit reads zero where nothing was set.
func TestPagedEditCopiesOnlyWhatItWrites(t *testing.T) {
	const n = 20 * midSize * leafSize
	e := (&Paged[int32]{}).Edit()
	for i := range int32(n) {
		e.Set(i, i)
	}
	p := e.Done()
	require.Equal(t, n/leafSize, p.leaves)
	e = p.Edit()
	set := []int32{0, 5, 6, n / 2, n - 1}
	for _, i := range set {
		e.Set(i, -i)
	}
	e.Set(n+leafSize+3, 7) // two leaves more
	q := e.Done()
	leaves, mids := map[*pagedLeaf[int32]]bool{}, map[*pagedMid[int32]]bool{}
	for _, m := range p.top {
		mids[m] = true
		for _, l := range m {
			if l != nil {
				leaves[l] = true
			}
		}
	}
	sharedLeaves, sharedMids := 0, 0
	for _, m := range q.top {
		if mids[m] {
			sharedMids++
		}
		for _, l := range m {
			if leaves[l] {
				sharedLeaves++
			}
		}
	}
	assert.Equal(t, n/leafSize-3, sharedLeaves, "the leaves of 0, 5 and 6, of n/2 and of n-1 are copied")
	assert.Equal(t, len(p.top)-3, sharedMids, "and their mids")
	for i := range int32(n) {
		want := i
		if slices.Contains(set, i) {
			want = -i
		}
		if p.At(i) != i || q.At(i) != want {
			t.Fatalf("element %d: %d and %d, want %d and %d", i, p.At(i), q.At(i), i, want)
		}
	}
	assert.Equal(t, int32(0), q.At(n+2), "a new leaf reads zero")
	assert.Equal(t, int32(7), q.At(n+leafSize+3))
	assert.True(t, q.Has(n+2*leafSize-1))
	assert.False(t, q.Has(n+2*leafSize))
	assert.False(t, p.Has(n))
}

// TestSlotIn: short lists are scanned, long ones searched (sorted).
func TestSlotIn(t *testing.T) {
	assert.True(t, SlotIn([]int32{5, 1, 3}, 3))
	assert.False(t, SlotIn([]int32{5, 1, 3}, 4))
	long := []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	assert.True(t, SlotIn(long, 9))
	assert.False(t, SlotIn(long, 11))
}
