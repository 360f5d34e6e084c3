package toolsearch

import (
	"hash/maphash"

	"github.com/toolsearch/toolsearch/internal/cow"
)

// toolMap maps every registered tool's name to its entry. It is immutable
// once published, and split into shards by a hash of the name (about 32
// names a shard), held in pages, so that a change copies only the shards
// it touches and their pages.
type toolMap struct {
	shards cow.Paged[map[string]*entry]
	mask   uint64 // the shard count less one
	keys   int
}

func (m *toolMap) slot(name string) int32 { return int32(maphash.String(hashSeed, name) & m.mask) }

func (m *toolMap) get(name string) *entry {
	if m == nil {
		return nil
	}
	return m.shards.At(m.slot(name))[name]
}

// with returns m with the entries of changes (a nil entry: the name is
// removed); m is not changed. A map that has outgrown its shards is
// spread over more (a copy of every shard, as rare as the doublings).
func (m *toolMap) with(changes map[string]*entry) *toolMap {
	n := &toolMap{shards: m.shards, mask: m.mask, keys: m.keys}
	ed := m.shards.Edit()
	cloned := make(map[int32]bool, len(changes))
	for name, e := range changes {
		i := n.slot(name)
		sh := ed.At(i)
		if !cloned[i] {
			cloned[i] = true
			sh = cow.CloneMap(sh)
			ed.Set(i, sh)
		}
		_, had := sh[name]
		if e == nil {
			delete(sh, name)
		} else {
			sh[name] = e
		}
		switch {
		case had && e == nil:
			n.keys--
		case !had && e != nil:
			n.keys++
		}
	}
	n.shards = ed.Done()
	if nameShardCount(n.keys) > 4*int(n.mask+1) {
		all := make(map[string]*entry, n.keys)
		for i := range int32(n.mask + 1) {
			for name, e := range n.shards.At(i) {
				all[name] = e
			}
		}
		return newToolMap(all)
	}
	return n
}

// newToolMap returns the map of tools.
func newToolMap(tools map[string]*entry) *toolMap {
	count := nameShardCount(len(tools))
	m := &toolMap{mask: uint64(count - 1), keys: len(tools)}
	shards := make([]map[string]*entry, count)
	for i := range shards {
		shards[i] = make(map[string]*entry, len(tools)/count)
	}
	for name, e := range tools {
		shards[m.slot(name)][name] = e
	}
	ed := m.shards.Edit()
	for i, sh := range shards {
		ed.Set(int32(i), sh)
	}
	m.shards = ed.Done()
	return m
}
