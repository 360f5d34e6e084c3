package toolsearch

import (
	"sync"
	"sync/atomic"
)

// scratchPool keeps accumulators for reuse: one spare that survives garbage
// collections (a sync.Pool is emptied by them, and a registry that changes
// often allocates enough to collect often), and a sync.Pool for concurrent
// queries. The zero value is ready; a nil pool allocates every time.
type scratchPool struct {
	spare atomic.Pointer[accumulator]
	more  sync.Pool
}

func (p *scratchPool) get() *accumulator {
	if p == nil {
		return &accumulator{}
	}
	if a := p.spare.Swap(nil); a != nil {
		return a
	}
	if a, ok := p.more.Get().(*accumulator); ok {
		return a
	}
	return &accumulator{}
}

func (p *scratchPool) put(a *accumulator) {
	if p != nil && !p.spare.CompareAndSwap(nil, a) {
		p.more.Put(a)
	}
}

// accumulator is the per-query state, indexed by slot. It is reused through
// index.pool; the gen fields make clearing between terms unnecessary.
type accumulator struct {
	acc     []acc
	touched []int32
	gen     uint32
	mark    []uint64 // a bit per slot, all clear between uses (intersect)
	cands   []int32  // intersect's result, reused
}

// intersect returns the slots in every list of lists (sorted shortest
// first; slots below slots), spending a unit of work per element read. The
// slice is reused by the next call.
func (a *accumulator) intersect(lists [][]int32, slots int, work *queryWork) []int32 {
	cands := append(a.cands[:0], lists[0]...)
	if !work.spend(len(lists[0])) {
		return cands[:0]
	}
	if n := (slots + 63) / 64; len(a.mark) < n {
		a.mark = make([]uint64, n)
	}
	for _, l := range lists[1:] {
		if len(cands) == 0 || !work.spend(len(l)+len(cands)) {
			break
		}
		for _, s := range l {
			a.mark[s>>6] |= 1 << (s & 63)
		}
		kept := cands[:0]
		for _, s := range cands {
			if a.mark[s>>6]&(1<<(s&63)) != 0 {
				kept = append(kept, s)
			}
		}
		for _, s := range l {
			a.mark[s>>6] = 0
		}
		cands = kept
	}
	a.cands = cands
	return cands
}

type acc struct {
	score   int32
	nameGen uint32 // the term for which a name rule has fired
	satGen  uint32 // the term this tool satisfies (for required terms)
	spanGen uint32 // the term that ends with one of this tool's name parts
	req     uint16 // required terms satisfied
	rules   Rule
}

func (a *accumulator) next() uint32 {
	a.gen++
	if a.gen == 0 { // wrapped: forget every mark
		for i := range a.acc {
			a.acc[i] = acc{score: a.acc[i].score, req: a.acc[i].req, rules: a.acc[i].rules}
		}
		a.gen = 1
	}
	return a.gen
}

// add gives slot s w points for rule r.
func (a *accumulator) add(s int32, w int32, r Rule) {
	c := &a.acc[s]
	if c.score == 0 {
		a.touched = append(a.touched, s)
	}
	c.score += w
	c.rules |= r
}

// sat records that slot s satisfies the current term g.
func (a *accumulator) sat(s int32, g uint32, required bool) {
	c := &a.acc[s]
	if required && c.satGen != g {
		c.req++
	}
	c.satGen = g
}
