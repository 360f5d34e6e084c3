package toolsearch

import (
	"slices"
	"sort"
	"strings"
)

// prefixIndex holds the deferred tools whose lowercased names start with
// mcp__, sorted by lowercased name (then pool order), for the MCP-prefix
// form. upper[i] counts the tools among the first i whose names have an
// uppercase letter: where there are none, lowercased order is pool order.
type prefixIndex struct {
	tools []*entry
	upper []int32
}

func lowerCompare(a, b *entry) int {
	if c := strings.Compare(a.lowerName, b.lowerName); c != 0 {
		return c
	}
	return poolCompare(a, b)
}

func prefixed(e *entry) bool { return strings.HasPrefix(e.lowerName, "mcp__") }

func newPrefixIndex(tools []*entry) *prefixIndex {
	p := &prefixIndex{tools: tools}
	p.upper = make([]int32, len(tools)+1)
	for i, e := range tools {
		p.upper[i+1] = p.upper[i]
		if e.upper {
			p.upper[i+1]++
		}
	}
	return p
}

// buildPrefix indexes the deferred tools (any order).
func buildPrefix(deferred []*entry) *prefixIndex {
	var tools []*entry
	for _, e := range deferred {
		if prefixed(e) {
			tools = append(tools, e)
		}
	}
	slices.SortFunc(tools, lowerCompare)
	return newPrefixIndex(tools)
}

func (p *prefixIndex) update(remove, add []*entry) *prefixIndex {
	remove = slices.DeleteFunc(slices.Clone(remove), func(e *entry) bool { return !prefixed(e) })
	add = slices.DeleteFunc(slices.Clone(add), func(e *entry) bool { return !prefixed(e) })
	if len(remove) == 0 && len(add) == 0 {
		return p
	}
	tools := patchSorted(p.tools, remove, add, lowerCompare)
	if len(remove) == 1 && len(add) == 1 && remove[0].upper == add[0].upper && len(tools) == len(p.tools) &&
		lowerCompare(remove[0], add[0]) == 0 {
		return &prefixIndex{tools: tools, upper: p.upper} // one tool replaced in place: the counts stand
	}
	return newPrefixIndex(tools)
}

// find returns up to k (k < 0: all) deferred tools whose lowercased names
// start with q and that in accepts, in pool order.
func (p *prefixIndex) find(q string, k int, in func(*entry) bool) []*entry {
	lo, _ := slices.BinarySearchFunc(p.tools, q, func(e *entry, q string) int { return strings.Compare(e.lowerName, q) })
	hi := lo + sort.Search(len(p.tools)-lo, func(i int) bool { return !strings.HasPrefix(p.tools[lo+i].lowerName, q) })
	var out []*entry
	if p.upper[hi] == p.upper[lo] {
		// No uppercase name in range: lowercased order is pool order.
		for _, e := range p.tools[lo:hi] {
			if in(e) {
				if out = append(out, e); len(out) == k {
					break
				}
			}
		}
		return out
	}
	for _, e := range p.tools[lo:hi] {
		if !in(e) {
			continue
		}
		if i, _ := slices.BinarySearchFunc(out, e, poolCompare); k < 0 || i < k {
			if len(out) == k {
				out = out[:k-1]
			}
			out = slices.Insert(out, i, e)
		}
	}
	return out
}
