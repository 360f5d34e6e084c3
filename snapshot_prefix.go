package toolsearch

import (
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/cow"
)

// prefixIndex holds the deferred tools whose lowercased names start with
// mcp__, sorted by lowercased name (then pool order), for the MCP-prefix
// form, in pages shared between snapshots. It counts the tools whose
// names have an uppercase letter: where a range has none, lowercased
// order is pool order.
type prefixIndex struct {
	tools cow.Sorted[*entry]
}

func lowerCompare(a, b *entry) int {
	if c := strings.Compare(a.lowerName, b.lowerName); c != 0 {
		return c
	}
	return poolCompare(a, b)
}

func prefixed(e *entry) bool { return strings.HasPrefix(e.lowerName, "mcp__") }

func hasUpper(e *entry) bool { return e.upper }

// buildPrefix indexes the deferred tools (any order).
func buildPrefix(deferred []*entry) *prefixIndex {
	var tools []*entry
	for _, e := range deferred {
		if prefixed(e) {
			tools = append(tools, e)
		}
	}
	slices.SortFunc(tools, lowerCompare)
	return &prefixIndex{tools: cow.NewSorted(tools, hasUpper)}
}

func (p *prefixIndex) update(remove, add []*entry) *prefixIndex {
	remove = slices.Collect(filter(remove, prefixed))
	add = slices.Collect(filter(add, prefixed))
	if len(remove) == 0 && len(add) == 0 {
		return p
	}
	return &prefixIndex{tools: p.tools.With(remove, add, lowerCompare)}
}

// find returns up to k (k < 0: all) deferred tools whose lowercased names
// start with q and that in accepts, in pool order.
func (p *prefixIndex) find(q string, k int, in func(*entry) bool) []*entry {
	lo, _ := p.tools.Search(func(e *entry) int { return strings.Compare(e.lowerName, q) })
	hi, _ := p.tools.Search(func(e *entry) int {
		if strings.HasPrefix(e.lowerName, q) {
			return -1
		}
		return strings.Compare(e.lowerName, q)
	})
	var out []*entry
	if p.tools.Marked(lo, hi) == 0 {
		// No uppercase name in range: lowercased order is pool order.
		for i, e := range p.tools.From(lo) {
			if i == hi {
				break
			}
			if in(e) {
				if out = append(out, e); len(out) == k {
					break
				}
			}
		}
		return out
	}
	for i, e := range p.tools.From(lo) {
		if i == hi {
			break
		}
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
