package toolsearch

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/toolsearch/toolsearch/internal/querywork"
)

// pool keeps per-query scratch state for reuse: one spare that survives
// garbage collections (a sync.Pool is emptied by them, and a registry that
// changes often allocates enough to collect often), and a sync.Pool for
// concurrent queries. The zero value is ready; a nil pool allocates every
// time.
type pool[T any] struct {
	spare atomic.Pointer[T]
	more  sync.Pool
}

func (p *pool[T]) get() *T {
	if p == nil {
		return new(T)
	}
	if a := p.spare.Swap(nil); a != nil {
		return a
	}
	if a, ok := p.more.Get().(*T); ok {
		return a
	}
	return new(T)
}

func (p *pool[T]) put(a *T) {
	if p != nil && !p.spare.CompareAndSwap(nil, a) {
		p.more.Put(a)
	}
}

// scratchPool keeps the keyword index's accumulators, shared by the
// indexes of one registry.
type scratchPool = pool[accumulator]

// accumulator is the keyword index's per-query state, indexed by slot. It
// is reused through index.pool; the generations make clearing between
// terms unnecessary.
type accumulator struct {
	acc     []acc
	touched []int32  // slots whose score is not 0
	gen     uint32   // the last generation given to a term
	mark    []uint64 // a bit per slot, all clear between uses (intersect, spans)
	cands   []int32  // intersect's result, reused
	prune   pruneScratch
}

// acc is one tool's state: 8 bytes, so that the array of a large registry
// stays in cache.
type acc struct {
	// sr holds the score (the low accScoreBits bits), the keyword rules
	// that fired (the next bits) and accAlive (the top bit).
	sr uint32
	// gen is the generation of the last term that gave the tool a name
	// rule or, for a required term, that it satisfied (see termState).
	gen uint32
}

const (
	accScoreBits = 24
	accScore     = 1<<accScoreBits - 1
	accAlive     = 1 << 31            // the tool satisfied every required term
	accRules     = Rule(keywordRules) // the rule bits, above the score
	// maxRankedTerms is the most terms the keyword index ranks a query
	// with: their weights fit in the score's bits.
	maxRankedTerms = accScore / (weightMCPPartExact + weightHint + weightDescription)
)

// The keyword rules must fit between the score and accAlive: a rule of the
// default strategy above them does not compile.
const _ uint = accAlive>>accScoreBits - 1 - uint(keywordRules)

// begin readies a for a query of terms terms over slots slots.
func (a *accumulator) begin(slots, terms int) {
	if len(a.acc) < slots {
		a.acc = make([]acc, slots+slots/8)
		a.gen = 0
	}
	if n := (slots + 63) / 64; len(a.mark) < n {
		a.mark = make([]uint64, n+n/8)
	}
	if uint64(a.gen)+uint64(terms) >= math.MaxUint32 { // would wrap: forget every generation
		for i := range a.acc {
			a.acc[i].gen = 0
		}
		a.gen = 0
	}
}

func (a *accumulator) next() uint32 {
	a.gen++
	return a.gen
}

// termState says how one term of a query scores. Required terms come
// first. For a required term, gen records that a tool satisfied it; a tool
// that missed one is dead: its score no longer matters, so it is skipped.
// After the last required term the tools that satisfied them all are
// marked accAlive, and the optional terms score only those.
type termState struct {
	g        uint32 // this term's generation
	prev     uint32 // the previous required term's, when chain
	required bool
	chain    bool // a required term after the first: only tools with gen == prev are alive
	alive    bool // an optional term of a query with required terms: only accAlive tools count
}

// skip reports whether c no longer matters for the term.
func (t *termState) skip(c *acc) bool {
	return t.chain && c.gen != t.prev && c.gen != t.g || t.alive && c.sr&accAlive == 0
}

// credit adds w points for rule r to slot s.
func (a *accumulator) credit(s int32, c *acc, w uint32, r Rule) {
	if c.sr == 0 {
		a.touched = append(a.touched, s)
	}
	c.sr = (c.sr + w) | uint32(r)<<accScoreBits
}

// nameRule gives the tools of list w points for rule r, unless a name rule
// already fired for them on this term.
func (a *accumulator) nameRule(list slotList, w uint32, r Rule, t *termState) {
	for _, pg := range list.Pages() {
		for _, s := range pg {
			c := &a.acc[s]
			if c.gen == t.g || t.skip(c) {
				continue
			}
			a.credit(s, c, w, r)
			c.gen = t.g
		}
	}
}

// textRule gives the tools of list w points for the hint or description
// rule r, which also satisfies a required term.
func (a *accumulator) textRule(list slotList, w uint32, r Rule, t *termState) {
	for _, pg := range list.Pages() {
		for _, s := range pg {
			a.textHit(s, w, r, t)
		}
	}
}

func (a *accumulator) textHit(s int32, w uint32, r Rule, t *termState) {
	c := &a.acc[s]
	if t.skip(c) {
		return
	}
	a.credit(s, c, w, r)
	if t.required {
		c.gen = t.g
	}
}

// markAlive marks the tools that satisfied the last required term, g.
func (a *accumulator) markAlive(g uint32) {
	for _, s := range a.touched {
		if c := &a.acc[s]; c.gen == g {
			c.sr |= accAlive
		}
	}
}

// intersect returns the slots in every list of lists (sorted shortest
// first; slots below slots), spending a unit of work per element read. The
// slice is reused by the next call.
func (a *accumulator) intersect(lists []slotList, slots int, work *querywork.Budget) []int32 {
	cands := a.cands[:0]
	for _, pg := range lists[0].Pages() {
		cands = append(cands, pg...)
	}
	if !work.Spend(lists[0].Len()) {
		return cands[:0]
	}
	if n := (slots + 63) / 64; len(a.mark) < n {
		a.mark = make([]uint64, n)
	}
	for _, l := range lists[1:] {
		if len(cands) == 0 || !work.Spend(l.Len()+len(cands)) {
			break
		}
		for _, pg := range l.Pages() {
			for _, s := range pg {
				a.mark[s>>6] |= 1 << (s & 63)
			}
		}
		kept := cands[:0]
		for _, s := range cands {
			if a.mark[s>>6]&(1<<(s&63)) != 0 {
				kept = append(kept, s)
			}
		}
		for _, pg := range l.Pages() {
			for _, s := range pg {
				a.mark[s>>6] = 0
			}
		}
		cands = kept
	}
	a.cands = cands
	return cands
}

// pruneScratch is the reusable state of the default strategy's pruned
// path (strategy_default_prune.go).
type pruneScratch struct {
	items []keywordItem
	subs  []*postings // the postings of the parts containing each term
	live  []int32     // the candidates, once pruning starts
	mark  []uint64    // a bit per candidate's slot; all clear between queries
	top   []int32     // the best K slots of a probe
}

// A keywordItem is the name rules of one term, or its hint or its
// description rule.
type keywordItem struct {
	cost   int       // postings read to apply it to every tool
	bound  uint32    // the most it adds to a tool's score
	name   bool      // the name rules; else a text rule
	term   string    // (name) the term
	g      uint32    // (name) the term's generation
	p      *postings // (name) the term's postings, or nil
	lo, hi int       // (name) the term's parts containing it: subs[lo:hi]
	substr bool      // (name) the term was scanned for the substring rule
	span   bool      // (name) the full-name rule may fire
	list   slotList  // (text) the postings
	w      uint32    // (text) the weight
	r      Rule      // (text) the rule
}
