// Package cow holds the copy-on-write building blocks of the indexes. Each
// index version is immutable once published; the next version shares
// everything a change does not touch: a map split into shards copies only
// the shards whose keys change, an array split into pages only the pages
// it writes, a list in slot order split into pages (List) only the pages
// whose elements change. An edit is made by one writer; a published version may be
// read by any number of goroutines.
package cow

import (
	"hash/maphash"
	"slices"
	"strings"
)

// seed seeds the shard hashes of this process. Shard placement is never
// visible: what a map holds does not depend on it.
var seed = maphash.MakeSeed()

func hash(s string) uint64 { return maphash.String(seed, s) }

// MaxShards bounds the shard count (and its per-change copy).
const MaxShards = 1 << 14

// ShardCount returns the number of shards for about words keys: a power
// of two giving shards of about 64 keys, so that a change copies little.
func ShardCount(words int) int {
	n := 8
	for n < words/64 && n < MaxShards {
		n <<= 1
	}
	return n
}

// CloneMap returns a copy of m with room for one more key; nil for nil.
func CloneMap[V any](m map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	c := make(map[string]V, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	return c
}

// SlotIn reports whether s is in gone, which must be sorted when longer
// than 8.
func SlotIn(gone []int32, s int32) bool {
	if len(gone) <= 8 {
		return slices.Contains(gone, s)
	}
	_, found := slices.BinarySearch(gone, s)
	return found
}

// A paged array is a tree of two levels: a top array of mids, each a
// fixed array of pointers to leaves, each a fixed array of elements. An
// edit copies the top array (a pointer per midSize elements), and the
// mids and leaves it writes, once each: a change of a few elements
// costs a few leaves and mids, whatever the array's size.
const (
	leafBits = 5 // 32 elements a leaf
	midBits  = 8 // 256 leaves a mid
	leafSize = 1 << leafBits
	midSize  = 1 << midBits
)

type pagedLeaf[T any] [leafSize]T

type pagedMid[T any] [midSize]*pagedLeaf[T]

// Paged is an array of T split into pages (leaves), shared between index
// versions. The zero Paged is empty.
type Paged[T any] struct {
	top    []*pagedMid[T]
	leaves int // the leaves that exist: every one below leaves
}

// At returns element i; i must have been set in this or an earlier
// version, or lie on a page that exists.
func (p *Paged[T]) At(i int32) T {
	return p.top[i>>(leafBits+midBits)][(i>>leafBits)&(midSize-1)][i&(leafSize-1)]
}

// Has reports whether element i lies on a page of p.
func (p *Paged[T]) Has(i int32) bool { return int(i>>leafBits) < p.leaves }

// PagedEdit builds the next version of a paged array.
type PagedEdit[T any] struct {
	p Paged[T]
	// own has, for each mid this edit wrote, a bit per leaf it wrote;
	// nil for a mid shared with the earlier version.
	own []*[midSize / 64]uint64
}

// Edit starts the next version of p; p is not changed.
func (p *Paged[T]) Edit() *PagedEdit[T] {
	return &PagedEdit[T]{p: Paged[T]{top: slices.Clone(p.top), leaves: p.leaves}, own: make([]*[midSize / 64]uint64, len(p.top))}
}

// mid returns mid m, this edit's own.
func (e *PagedEdit[T]) mid(m int) (*pagedMid[T], *[midSize / 64]uint64) {
	if e.own[m] == nil {
		c := *e.p.top[m]
		e.p.top[m] = &c
		e.own[m] = new([midSize / 64]uint64)
	}
	return e.p.top[m], e.own[m]
}

// Set writes element i, copying its leaf (and the leaf's mid) first if
// this edit has not.
func (e *PagedEdit[T]) Set(i int32, v T) {
	l := int(i >> leafBits)
	for e.p.leaves <= l { // new leaves, up to l's
		n := e.p.leaves
		if n>>midBits == len(e.p.top) {
			e.p.top = append(e.p.top, new(pagedMid[T]))
			e.own = append(e.own, new([midSize / 64]uint64))
		}
		mid, own := e.mid(n >> midBits)
		k := n & (midSize - 1)
		mid[k] = new(pagedLeaf[T])
		own[k>>6] |= 1 << (k & 63)
		e.p.leaves++
	}
	mid, own := e.mid(l >> midBits)
	k := l & (midSize - 1)
	if own[k>>6]&(1<<(k&63)) == 0 {
		c := *mid[k]
		mid[k] = &c
		own[k>>6] |= 1 << (k & 63)
	}
	mid[k][i&(leafSize-1)] = v
}

// At returns element i of the version being built, which must lie on a
// page that exists.
func (e *PagedEdit[T]) At(i int32) T { return e.p.At(i) }

// Done returns the new version.
func (e *PagedEdit[T]) Done() Paged[T] { return e.p }

// ShardedMap maps strings to V in shards chosen by a hash of the key,
// shared between index versions. The zero value is not ready: use
// NewShardedMap.
type ShardedMap[V any] struct {
	shards []map[string]V // len is a power of two
	keys   int
}

// NewShardedMap returns an empty map sized for about keys keys.
func NewShardedMap[V any](keys int) ShardedMap[V] {
	m := ShardedMap[V]{shards: make([]map[string]V, ShardCount(keys))}
	for i := range m.shards {
		m.shards[i] = map[string]V{}
	}
	return m
}

func (m *ShardedMap[V]) shard(k string) int { return int(hash(k) & uint64(len(m.shards)-1)) }

// Get returns the value of k, or the zero V.
func (m *ShardedMap[V]) Get(k string) V { return m.shards[m.shard(k)][k] }

// MapEdit builds the next version of a sharded map.
type MapEdit[V any] struct {
	m      ShardedMap[V]
	cloned []bool // by shard
}

// Edit starts the next version of m; m is not changed.
func (m *ShardedMap[V]) Edit() *MapEdit[V] {
	return &MapEdit[V]{m: ShardedMap[V]{shards: slices.Clone(m.shards), keys: m.keys}, cloned: make([]bool, len(m.shards))}
}

// Get returns the value of k in the version being built.
func (e *MapEdit[V]) Get(k string) (V, bool) {
	v, ok := e.m.shards[e.m.shard(k)][k]
	return v, ok
}

// own returns k's shard, copied first if this edit has not.
func (e *MapEdit[V]) own(k string) map[string]V {
	i := e.m.shard(k)
	if !e.cloned[i] {
		e.m.shards[i] = CloneMap(e.m.shards[i])
		e.cloned[i] = true
	}
	return e.m.shards[i]
}

// Set sets k to v; k must not be a substring of a larger string that
// should not be kept alive (the caller clones it).
func (e *MapEdit[V]) Set(k string, v V) {
	sh := e.own(k)
	if _, ok := sh[k]; !ok {
		e.m.keys++
	}
	sh[k] = v
}

// Del deletes k.
func (e *MapEdit[V]) Del(k string) {
	sh := e.own(k)
	if _, ok := sh[k]; ok {
		delete(sh, k)
		e.m.keys--
	}
}

// Done returns the new version, spread over more shards when it has
// outgrown them (a copy of every shard, as rare as the doublings).
func (e *MapEdit[V]) Done() ShardedMap[V] {
	m := e.m
	if n := ShardCount(m.keys); n > 4*len(m.shards) {
		nm := ShardedMap[V]{shards: make([]map[string]V, n), keys: m.keys}
		for i := range nm.shards {
			nm.shards[i] = make(map[string]V, m.keys/n+1)
		}
		for _, sh := range m.shards {
			for k, v := range sh {
				nm.shards[nm.shard(k)][k] = v
			}
		}
		return nm
	}
	return m
}

// PatchList replaces the list under k with the same list without the
// items whose slot (slotOf) is in gone, followed by join: the one way a
// posting list of the patched indexes changes. An emptied list is deleted;
// a new key is cloned, so the map never keeps a caller's larger string
// alive. gone is sorted here when SlotIn needs it sorted.
func PatchList[P any](e *MapEdit[[]P], k string, gone []int32, join []P, slotOf func(P) int32) {
	l, had := e.Get(k)
	if len(gone) > 8 {
		slices.Sort(gone)
	}
	nl := make([]P, 0, max(0, len(l)-len(gone))+len(join))
	for _, q := range l {
		if !SlotIn(gone, slotOf(q)) {
			nl = append(nl, q)
		}
	}
	nl = append(nl, join...)
	putList(e, k, had, nl, len(nl) == 0)
}

// putList sets the list under k, which the map had or not, to l: deleted
// when empty, under a clone of k when new (so that the map never keeps a
// caller's larger string alive).
func putList[V any](e *MapEdit[V], k string, had bool, l V, empty bool) {
	switch {
	case empty:
		if had {
			e.Del(k)
		}
	case had:
		e.Set(k, l)
	default:
		e.Set(strings.Clone(k), l)
	}
}
