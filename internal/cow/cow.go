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

// pageBits sets the page size of a paged array: 1,024 elements.
const pageBits = 10

// Paged is an array of T split into pages, shared between index versions.
type Paged[T any] struct {
	pages [][]T
}

// At returns element i; i must have been set in this or an earlier
// version, or lie on a page that exists.
func (p *Paged[T]) At(i int32) T { return p.pages[i>>pageBits][i&(1<<pageBits-1)] }

// Has reports whether element i lies on a page of p.
func (p *Paged[T]) Has(i int32) bool { return int(i>>pageBits) < len(p.pages) }

// PagedEdit builds the next version of a paged array.
type PagedEdit[T any] struct {
	p      Paged[T]
	cloned []bool // by page
}

// Edit starts the next version of p; p is not changed.
func (p *Paged[T]) Edit() *PagedEdit[T] {
	return &PagedEdit[T]{p: Paged[T]{pages: slices.Clone(p.pages)}, cloned: make([]bool, len(p.pages))}
}

// Set writes element i, copying its page first if this edit has not.
func (e *PagedEdit[T]) Set(i int32, v T) {
	pg := int(i >> pageBits)
	for len(e.p.pages) <= pg {
		e.p.pages = append(e.p.pages, make([]T, 1<<pageBits))
		e.cloned = append(e.cloned, true)
	}
	if !e.cloned[pg] {
		e.p.pages[pg] = slices.Clone(e.p.pages[pg])
		e.cloned[pg] = true
	}
	e.p.pages[pg][i&(1<<pageBits-1)] = v
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
