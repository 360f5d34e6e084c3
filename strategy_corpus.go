package toolsearch

// The Corpus of a registry version, and what the built-in strategies read
// of it beyond the Corpus interface: the registry's keyword index and the
// tools by keyword-index slot.

// corpusIndex returns the keyword index of c and the Corpus position of
// each of its slots: the registry's own for a registry version, else one
// built from c's tools (slot i at position i).
func corpusIndex(c Corpus) (*index, []int32) {
	if sc, ok := c.(*snapshotCorpus); ok {
		return sc.s.ix, sc.s.dpos
	}
	tools := make([]*entry, c.Len())
	pos := make([]int32, c.Len())
	for i := range tools {
		t := c.Tool(i)
		tools[i] = newEntry(&t)
		pos[i] = int32(i)
	}
	return buildIndex(tools, nil, nil), pos
}

// snapshotCorpus is the Corpus of a registry version: its deferred tools.
type snapshotCorpus struct{ s *snapshot }

func (c *snapshotCorpus) Len() int { return len(c.s.deferred) }

func (c *snapshotCorpus) Tool(i int) Tool { return c.s.deferred[i].tool }

// corpusSlots returns the tools of c by slot and each slot's position in
// c: the keyword index's slots for a registry version (stable across
// versions), else position i at slot i. shared reports the former: only
// then may an index of another version be patched.
func corpusSlots(c Corpus) (slots []*entry, pos []int32, shared bool) {
	if sc, ok := c.(*snapshotCorpus); ok {
		return sc.s.ix.slots, sc.s.dpos, true
	}
	slots = make([]*entry, c.Len())
	pos = make([]int32, c.Len())
	for i := range slots {
		slots[i] = &entry{tool: c.Tool(i)}
		pos[i] = int32(i)
	}
	return slots, pos, false
}

// slotChanges calls fn for every slot whose tool differs between old and
// cur (nil for none): a pointer comparison per slot.
func slotChanges(old, cur []*entry, fn func(slot int32, was, is *entry)) {
	for s := range max(len(old), len(cur)) {
		var a, b *entry
		if s < len(old) {
			a = old[s]
		}
		if s < len(cur) {
			b = cur[s]
		}
		if a != b {
			fn(int32(s), a, b)
		}
	}
}
