package toolsearch

import (
	"slices"
	"sync"
)

// textCache holds the prompt texts rendered from one snapshot. Each is
// built on first use and then returned as is, so rendering the prompt for an
// unchanged registry does no work and allocates nothing.
type textCache struct {
	once    sync.Once
	section string // system-prompt section
	block   string // <available-deferred-tools> block
	names   []string
}

// fill renders the texts for the deferred tools of s that in accepts.
func (c *textCache) fill(s *snapshot, in func(*entry) bool) {
	c.once.Do(func() {
		c.names = make([]string, 0, len(s.deferred))
		for _, e := range s.deferred {
			if in(e) {
				c.names = append(c.names, e.tool.Name)
			}
		}
		c.names = sortNames(c.names)
		c.section = renderSection(c.names)
		c.block = renderBlock(c.names)
	})
}

// scopedTexts are the prompt texts of a scoped Searcher for one snapshot.
type scopedTexts struct {
	snap  *snapshot
	texts textCache
}

// texts returns the prompt texts of the Searcher's view of snap: the
// snapshot's own for an unscoped Searcher, else rendered once per snapshot
// and kept by the Searcher.
func (s *Searcher) texts(snap *snapshot) *textCache {
	if s.opts.Scope == nil {
		snap.texts.fill(snap, everything)
		return &snap.texts
	}
	st := s.scoped.Load()
	if st == nil || st.snap != snap {
		st = &scopedTexts{snap: snap}
		s.scoped.Store(st)
	}
	st.texts.fill(snap, s.in)
	return &st.texts
}

// sortNames sorts names taken in pool order: two sorted runs (tools not
// from MCP servers, then MCP tools), merged in one pass.
func sortNames(names []string) []string {
	split := 1
	for split < len(names) && names[split-1] <= names[split] {
		split++
	}
	if split >= len(names) {
		return names
	}
	a, b := names[:split], names[split:]
	if !slices.IsSorted(b) {
		slices.Sort(names)
		return names
	}
	out := make([]string, 0, len(names))
	for len(a) > 0 && len(b) > 0 {
		if b[0] < a[0] {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}
