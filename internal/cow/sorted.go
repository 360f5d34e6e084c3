package cow

import (
	"iter"
	"slices"
)

// The sorted lists of a registry version (its tools in pool order, its
// deferred tools, the MCP-prefix list) are split into pages, so that the
// next version shares every page a change does not write: a one-item
// change copies one page (at most 2,048 items) and the page table (a few
// words per page), not the list.

// sortedPage is the number of items a Sorted is built with per page; a
// page that grows to twice that is split, one that shrinks below a
// quarter is merged with its neighbour.
const sortedPage = 1024

// Sorted is a list of T kept in the order of the cmp its changes are
// given, split into pages shared between versions, with a count per page
// of the items that mark reports (for counting them over a range without
// reading it). A version is immutable: With returns the next one. The
// zero value is an empty list that marks nothing.
type Sorted[T any] struct {
	pages [][]T
	ends  []int32 // ends[p]: the items in pages[:p+1]
	marks []int32 // marked items per page; nil when mark is nil
	mark  func(T) bool
}

// NewSorted returns the list of items, which must be sorted; items is not
// kept. mark (nil: none) picks the items Marked counts.
func NewSorted[T any](items []T, mark func(T) bool) Sorted[T] {
	s := Sorted[T]{mark: mark}
	for lo := 0; lo < len(items); lo += sortedPage {
		s.pages = append(s.pages, slices.Clone(items[lo:min(lo+sortedPage, len(items))]))
	}
	s.index(nil)
	return s
}

// index computes ends and marks; keep (nil: none) gives the count of a
// page that is unchanged from the version before.
func (s *Sorted[T]) index(keep func(p int) (int32, bool)) {
	s.ends = make([]int32, len(s.pages))
	n := int32(0)
	for p, pg := range s.pages {
		n += int32(len(pg))
		s.ends[p] = n
	}
	if s.mark == nil {
		s.marks = nil
		return
	}
	s.marks = make([]int32, len(s.pages))
	for p, pg := range s.pages {
		if keep != nil {
			if m, ok := keep(p); ok {
				s.marks[p] = m
				continue
			}
		}
		for _, v := range pg {
			if s.mark(v) {
				s.marks[p]++
			}
		}
	}
}

// Len returns the number of items.
func (s *Sorted[T]) Len() int {
	if len(s.ends) == 0 {
		return 0
	}
	return int(s.ends[len(s.ends)-1])
}

// page returns the page holding item i and i's offset in it.
func (s *Sorted[T]) page(i int) (p, off int) {
	lo, hi := 0, len(s.ends)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(s.ends[m]) <= i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return 0, i
	}
	return lo, i - int(s.ends[lo-1])
}

// At returns item i, 0 ≤ i < Len().
func (s *Sorted[T]) At(i int) T {
	p, off := s.page(i)
	return s.pages[p][off]
}

// All yields the items in order.
func (s *Sorted[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		for _, pg := range s.pages {
			for _, v := range pg {
				if !yield(v) {
					return
				}
			}
		}
	}
}

// From yields the items from position i on, with their positions.
func (s *Sorted[T]) From(i int) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		if i >= s.Len() {
			return
		}
		p, off := s.page(max(i, 0))
		pos := max(i, 0)
		for ; p < len(s.pages); p, off = p+1, 0 {
			for _, v := range s.pages[p][off:] {
				if !yield(pos, v) {
					return
				}
				pos++
			}
		}
	}
}

// Search returns the position of the first item for which cmp (the item
// against the target) is not negative, and whether cmp is 0 there; cmp
// must be increasing along the list.
func (s *Sorted[T]) Search(cmp func(T) int) (int, bool) {
	p := searchPages(s.pages, cmp)
	if p == len(s.pages) {
		return s.Len(), false
	}
	off, found := slices.BinarySearchFunc(s.pages[p], 0, func(v T, _ int) int { return cmp(v) })
	if p > 0 {
		off += int(s.ends[p-1])
	}
	return off, found
}

// searchPages returns the first page whose last item is not below the
// target (cmp ≥ 0), or len(pages).
func searchPages[T any](pages [][]T, cmp func(T) int) int {
	lo, hi := 0, len(pages)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if pg := pages[m]; cmp(pg[len(pg)-1]) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Marked returns the number of marked items among positions [lo, hi).
func (s *Sorted[T]) Marked(lo, hi int) int {
	if s.mark == nil || lo >= hi {
		return 0
	}
	n := 0
	p, off := s.page(lo)
	for i := lo; i < hi && p < len(s.pages); p, off = p+1, 0 {
		pg := s.pages[p]
		if off == 0 && i+len(pg) <= hi {
			n += int(s.marks[p])
			i += len(pg)
			continue
		}
		for _, v := range pg[off:min(len(pg), off+hi-i)] {
			if s.mark(v) {
				n++
			}
		}
		i += len(pg) - off
	}
	return n
}

// With returns the list without the items of remove and with those of
// add, in the order of cmp (which must be the list's, and a total order
// of its items: an item of remove is the item cmp finds equal to it; one
// the list does not hold is ignored). s is not changed: the new version
// shares every page it does not write.
func (s *Sorted[T]) With(remove, add []T, cmp func(a, b T) int) Sorted[T] {
	if len(remove) == 0 && len(add) == 0 {
		return *s
	}
	type pg struct {
		items []T
		owned bool
		marks int32 // when not owned
	}
	pages := make([]pg, len(s.pages))
	for i, items := range s.pages {
		pages[i].items = items
		if s.marks != nil {
			pages[i].marks = s.marks[i]
		}
	}
	own := func(p int) []T {
		if !pages[p].owned {
			pages[p].items = slices.Clip(slices.Clone(pages[p].items))
			pages[p].owned = true
		}
		return pages[p].items
	}
	find := func(x T) int {
		lo, hi := 0, len(pages)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if it := pages[m].items; cmp(it[len(it)-1], x) < 0 {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo
	}
	for _, r := range remove {
		p := find(r)
		if p == len(pages) {
			continue
		}
		i, ok := slices.BinarySearchFunc(pages[p].items, r, cmp)
		if !ok {
			continue
		}
		items := slices.Delete(own(p), i, i+1)
		if len(items) == 0 {
			pages = slices.Delete(pages, p, p+1)
		} else {
			pages[p].items = items
		}
	}
	for _, a := range add {
		p := min(find(a), len(pages)-1)
		if p < 0 {
			pages = append(pages, pg{items: []T{a}, owned: true})
			continue
		}
		i, _ := slices.BinarySearchFunc(pages[p].items, a, cmp)
		items := slices.Insert(own(p), i, a)
		if len(items) < 2*sortedPage {
			pages[p].items = items
			continue
		}
		half := len(items) / 2
		pages[p].items = slices.Clip(items[:half])
		pages = slices.Insert(pages, p+1, pg{items: slices.Clone(items[half:]), owned: true})
	}
	// A page shrunk below a quarter joins its neighbour.
	for p := 0; p < len(pages) && len(pages) > 1; p++ {
		if !pages[p].owned || len(pages[p].items) >= sortedPage/4 {
			continue
		}
		q := p + 1
		if q == len(pages) {
			p, q = p-1, p
		}
		joined := slices.Concat(pages[p].items, pages[q].items)
		pages[p] = pg{items: joined, owned: true}
		pages = slices.Delete(pages, q, q+1)
		if len(joined) >= 2*sortedPage {
			half := len(joined) / 2
			pages[p].items = slices.Clip(joined[:half])
			pages = slices.Insert(pages, p+1, pg{items: joined[half:], owned: true})
		}
	}
	n := Sorted[T]{pages: make([][]T, len(pages)), mark: s.mark}
	for i := range pages {
		n.pages[i] = pages[i].items
	}
	n.index(func(p int) (int32, bool) { return pages[p].marks, !pages[p].owned })
	return n
}
