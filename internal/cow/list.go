package cow

import (
	"iter"
	"math"
	"sort"
)

// ListPage is the most elements a page of a List holds, unless its
// patches give another size (PatchPages). A page a patch writes holds at
// least a quarter of that, unless it is the list's only page: a page left
// smaller takes its neighbour in.
const ListPage = 128

// listMinPage is the fewest elements a page of at most ListPage that a
// patch writes holds, unless the list has no other page.
const listMinPage = ListPage / 4

// List is a list of T in slot order, split into pages shared between
// versions: a patch copies the pages it changes and the list's header (a
// pointer per page), never an element of a page it leaves alone, and it
// never writes a page or a header a List it returned holds. The zero List
// is empty; a List is read by any number of goroutines.
type List[T any] struct {
	pages [][]T // each non-empty, in slot order
	n     int
}

// ListPages returns the number of pages of at most page elements of a
// list of n elements that AppendList makes.
func ListPages(n, page int) int { return (n + page - 1) / page }

// AppendList returns the list of els, which are in slot order, in pages
// of at most page elements, and heads with the list's header appended:
// the list's pages share els' array, which nothing may write again, and
// its header shares heads' array, from len(heads) on. Lists made one
// after another into a heads of capacity for all their pages (ListPages)
// share one header array; a patch of one never writes it.
func AppendList[T any](heads [][]T, els []T, page int) (List[T], [][]T) {
	if len(els) == 0 {
		return List[T]{}, heads
	}
	from := len(heads)
	heads = emit(heads, els, page)
	return List[T]{pages: heads[from:len(heads):len(heads)], n: len(els)}, heads
}

// Len returns the number of elements.
func (l List[T]) Len() int { return l.n }

// Pages returns the pages of l, in order, each non-empty: read them, never
// change them.
func (l List[T]) Pages() [][]T { return l.pages }

// All returns the elements of l in order.
func (l List[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		for _, pg := range l.pages {
			for _, v := range pg {
				if !yield(v) {
					return
				}
			}
		}
	}
}

// Slice returns a copy of the elements of l.
func (l List[T]) Slice() []T {
	out := make([]T, 0, l.n)
	for _, pg := range l.pages {
		out = append(out, pg...)
	}
	return out
}

// Patch returns l without the elements whose slot (slotOf) is in gone and
// with join merged in by slot: l, gone and join are in slot order, and a
// slot of join is not one of l's unless gone has it (an element of join
// whose slot l keeps goes after l's). l is not changed. The pages that
// keep their elements are shared with l; the others are written anew,
// with the neighbour of one left small, in pages of at most ListPage.
func (l List[T]) Patch(gone []int32, join []T, slotOf func(T) int32) List[T] {
	return l.PatchPages(gone, join, slotOf, ListPage)
}

// PatchPages is Patch writing pages of at most page elements (and at
// least page/4, but for a list's only page); the pages it leaves alone
// keep their sizes, which earlier patches with another page may have
// given. A larger page trades a longer copy of the page a change writes
// for a shorter header, which a patch copies whole.
func (l List[T]) PatchPages(gone []int32, join []T, slotOf func(T) int32, page int) List[T] {
	if len(gone) == 0 && len(join) == 0 {
		return l
	}
	pages := l.pages
	out := make([][]T, 0, len(pages)+len(join)/page+2)
	n := l.n + len(join)
	var carry []T // elements written anew, not yet in out
	i := 0
	for i < len(pages) {
		if carry == nil {
			if len(gone) == 0 && len(join) == 0 {
				break
			}
			// The page of the next change: the last whose first slot is
			// not after it, or the first page.
			s := int32(math.MaxInt32)
			if len(gone) > 0 {
				s = gone[0]
			}
			if len(join) > 0 {
				s = min(s, slotOf(join[0]))
			}
			j := i + sort.Search(len(pages)-i, func(k int) bool { return slotOf(pages[i+k][0]) > s })
			j = max(j-1, i)
			out = append(out, pages[i:j]...)
			i = j
		}
		pg := pages[i]
		hi := int32(math.MaxInt32) // the page holds the slots below hi
		if i+1 < len(pages) {
			hi = slotOf(pages[i+1][0])
		}
		g, jn := 0, 0
		for g < len(gone) && gone[g] < hi {
			g++
		}
		for jn < len(join) && slotOf(join[jn]) < hi {
			jn++
		}
		if carry == nil {
			carry = make([]T, 0, len(pg)+jn)
		}
		var cut int
		carry, cut = merge(carry, pg, gone[:g], join[:jn], slotOf)
		n -= cut
		gone, join = gone[g:], join[jn:]
		i++
		switch {
		case len(carry) == 0: // the page is gone
			carry = nil
		case len(carry) >= page/4:
			out = emit(out, carry, page)
			carry = nil
		}
	}
	out = append(out, pages[i:]...)
	if len(join) > 0 { // l had no page
		carry = append(carry, join...)
	}
	if len(carry) > 0 {
		if len(carry) < page/4 && len(out) > 0 {
			last := out[len(out)-1]
			out = out[:len(out)-1]
			carry = append(append(make([]T, 0, len(last)+len(carry)), last...), carry...)
		}
		out = emit(out, carry, page)
	}
	if n == 0 {
		return List[T]{}
	}
	return List[T]{pages: out, n: n}
}

// merge appends to dst the elements of pg whose slot is not in gone, with
// join merged in, and returns it with the number of elements left out.
func merge[T any](dst, pg []T, gone []int32, join []T, slotOf func(T) int32) ([]T, int) {
	g, j, cut := 0, 0, 0
	for _, q := range pg {
		s := slotOf(q)
		for g < len(gone) && gone[g] < s {
			g++
		}
		if g < len(gone) && gone[g] == s {
			cut++
			continue
		}
		for j < len(join) && slotOf(join[j]) < s {
			dst = append(dst, join[j])
			j++
		}
		dst = append(dst, q)
	}
	return append(dst, join[j:]...), cut
}

// emit appends els to out as pages of at most page elements, of
// sizes as even as can be. The pages share els' array, which nothing
// writes again.
func emit[T any](out [][]T, els []T, page int) [][]T {
	k := (len(els) + page - 1) / page
	for p := range k {
		a, b := p*len(els)/k, (p+1)*len(els)/k
		out = append(out, els[a:b:b])
	}
	return out
}

// PatchSorted replaces the list under k with l.Patch(gone, join, slotOf):
// the one way a paged posting list changes. An emptied list is deleted; a
// new key is cloned, so the map never keeps a caller's larger string
// alive.
func PatchSorted[P any](e *MapEdit[List[P]], k string, gone []int32, join []P, slotOf func(P) int32) {
	l, had := e.Get(k)
	nl := l.Patch(gone, join, slotOf)
	putList(e, k, had, nl, nl.Len() == 0)
}
