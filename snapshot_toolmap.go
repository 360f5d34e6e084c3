package toolsearch

import "github.com/toolsearch/toolsearch/internal/cow"

// toolMap maps every registered tool's name to its entry. It is immutable
// once published, and split into shards by a hash of the name, so that a
// change copies only the shards it touches.
type toolMap struct {
	shards [nameShards]map[string]*entry
}

func (m *toolMap) get(name string) *entry {
	if m == nil {
		return nil
	}
	return m.shards[nameSlot(name)][name]
}

// with returns m with the entries of changes (a nil entry: the name is
// removed); m is not changed.
func (m *toolMap) with(changes map[string]*entry) *toolMap {
	n := &toolMap{}
	if m != nil {
		n.shards = m.shards
	}
	var cloned [nameShards]bool
	for name, e := range changes {
		i := nameSlot(name)
		if !cloned[i] {
			cloned[i] = true
			n.shards[i] = cow.CloneMap(n.shards[i])
			if n.shards[i] == nil {
				n.shards[i] = make(map[string]*entry, len(changes)/nameShards)
			}
		}
		if e == nil {
			delete(n.shards[i], name)
		} else {
			n.shards[i][name] = e
		}
	}
	return n
}

// newToolMap returns the map of tools.
func newToolMap(tools map[string]*entry) *toolMap {
	m := &toolMap{}
	for i := range m.shards {
		m.shards[i] = make(map[string]*entry, len(tools)/nameShards)
	}
	for name, e := range tools {
		m.shards[nameSlot(name)][name] = e
	}
	return m
}
