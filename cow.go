package toolsearch

import (
	"slices"
	"strings"
)

// Copy-on-write building blocks of the indexes. Each index version is
// immutable once published; the next version shares everything a change
// does not touch: a map split into shards copies only the shards whose
// keys change, an array split into pages only the pages it writes.

// pageBits sets the page size of a paged array: 1,024 elements.
const pageBits = 10

// paged is an array of T split into pages, shared between index versions.
type paged[T any] struct {
	pages [][]T
}

// at returns element i; i must have been set in this or an earlier
// version, or lie on a page that exists.
func (p *paged[T]) at(i int32) T { return p.pages[i>>pageBits][i&(1<<pageBits-1)] }

// has reports whether element i lies on a page of p.
func (p *paged[T]) has(i int32) bool { return int(i>>pageBits) < len(p.pages) }

// pagedEdit builds the next version of a paged array.
type pagedEdit[T any] struct {
	p      paged[T]
	cloned []bool // by page
}

func (p *paged[T]) edit() *pagedEdit[T] {
	return &pagedEdit[T]{p: paged[T]{pages: slices.Clone(p.pages)}, cloned: make([]bool, len(p.pages))}
}

// set writes element i, copying its page first if this edit has not.
func (e *pagedEdit[T]) set(i int32, v T) {
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

func (e *pagedEdit[T]) done() paged[T] { return e.p }

// shardedMap maps strings to V in shards chosen by a hash of the key
// (tokenHash), shared between index versions.
type shardedMap[V any] struct {
	shards []map[string]V // len is a power of two
	keys   int
}

func newShardedMap[V any](keys int) shardedMap[V] {
	m := shardedMap[V]{shards: make([]map[string]V, shardCount(keys))}
	for i := range m.shards {
		m.shards[i] = map[string]V{}
	}
	return m
}

func (m *shardedMap[V]) shard(k string) int { return int(tokenHash(k) & uint64(len(m.shards)-1)) }

// get returns the value of k, or the zero V.
func (m *shardedMap[V]) get(k string) V { return m.shards[m.shard(k)][k] }

// mapEdit builds the next version of a sharded map.
type mapEdit[V any] struct {
	m      shardedMap[V]
	cloned []bool // by shard
}

func (m *shardedMap[V]) edit() *mapEdit[V] {
	return &mapEdit[V]{m: shardedMap[V]{shards: slices.Clone(m.shards), keys: m.keys}, cloned: make([]bool, len(m.shards))}
}

func (e *mapEdit[V]) get(k string) (V, bool) {
	v, ok := e.m.shards[e.m.shard(k)][k]
	return v, ok
}

// own returns k's shard, copied first if this edit has not.
func (e *mapEdit[V]) own(k string) map[string]V {
	i := e.m.shard(k)
	if !e.cloned[i] {
		e.m.shards[i] = cloneMap(e.m.shards[i])
		e.cloned[i] = true
	}
	return e.m.shards[i]
}

// set sets k to v; k must not be a substring of a larger string that
// should not be kept alive (the caller clones it).
func (e *mapEdit[V]) set(k string, v V) {
	sh := e.own(k)
	if _, ok := sh[k]; !ok {
		e.m.keys++
	}
	sh[k] = v
}

func (e *mapEdit[V]) del(k string) {
	sh := e.own(k)
	if _, ok := sh[k]; ok {
		delete(sh, k)
		e.m.keys--
	}
}

// done returns the new version, spread over more shards when it has
// outgrown them (a copy of every shard, as rare as the doublings).
func (e *mapEdit[V]) done() shardedMap[V] {
	m := e.m
	if n := shardCount(m.keys); n > 4*len(m.shards) {
		nm := shardedMap[V]{shards: make([]map[string]V, n), keys: m.keys}
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

// patchList replaces the list under k with the same list without the
// items whose slot (slotOf) is in gone, followed by join: the one way a
// posting list of the patched indexes changes. An emptied list is deleted;
// a new key is cloned, so the map never keeps a caller's larger string
// alive. gone is sorted here when slotIn needs it sorted.
func patchList[P any](e *mapEdit[[]P], k string, gone []int32, join []P, slotOf func(P) int32) {
	l, had := e.get(k)
	if len(gone) > 8 {
		slices.Sort(gone)
	}
	nl := make([]P, 0, max(0, len(l)-len(gone))+len(join))
	for _, q := range l {
		if !slotIn(gone, slotOf(q)) {
			nl = append(nl, q)
		}
	}
	nl = append(nl, join...)
	switch {
	case len(nl) == 0:
		e.del(k)
	case had:
		e.set(k, nl)
	default:
		e.set(strings.Clone(k), nl)
	}
}
