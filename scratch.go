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
