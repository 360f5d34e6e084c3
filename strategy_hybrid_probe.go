package toolsearch

import (
	"context"
	"slices"

	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/querywork"
)

// Probing: a query of several terms one of which is far more common than
// the others ("create issue the"), or with a required term, need not
// score every posting of its common terms. The terms' name credits are
// gathered first, in query order, so that the work budget is spent and
// cut as when every term is scored in turn. The candidates are the tools
// the cheapest term reaches (with a required term: the tools its cheapest
// required term reaches, since every hit has it). Each term's postings
// and credits are then read in query order, as term at a time, but only
// a candidate's are scored (a bit per slot tells, or, for a term with
// many times more postings than candidates, each candidate is looked up
// in them: seekSlots), so a candidate's score
// is the same float as term at a time gives. A tool that only the common
// terms reach scores at most the sum of their bounds (idf × (k1 + 1), the
// limit of the saturation), times the coverage of that many terms and
// the largest name-cover factor (1 + nameCover × their number, a tool
// having at least one own name word); while that is not below the k-th
// best score found, the next cheapest term joins those that give
// candidates and its new candidates are scored too. The hits are those of scoring every term
// in turn: the same tools, scores and rules.
//
// A query of one term needs neither: each tool it reaches scores from one
// posting and its name credit, so rankOne offers each tool as its posting
// is read, without the accumulators.

// probeMaxTerms is the most terms a probed query has.
const probeMaxTerms = 16

// probeMinCost is the fewest postings the commonest term must have, and
// probeRatio how many times the other terms' together, for probing to be
// worth it.
const (
	probeMinCost = 256
	probeRatio   = 2
)

// probeTerm is one term of a probed query.
type probeTerm struct {
	post            cow.List[hybridPost]
	cred            []int32 // the credited tools, their credits in hybridScratch.credOf
	stem            string
	weight          float64 // idf (× the stop-word share)
	matched, needed uint16
	empty           bool // the term reaches no tool
	required, stop  bool
	cost            int // postings and credits
}

// probeWorth reports whether the query is probed: 1 ≤ K ≤
// collectAllAbove hits, 2 to probeMaxTerms terms, nameCover and coverage
// at least 0 (the bound needs both), and either a required term or one
// term with most of the postings. Only the postings are known before the
// credits are gathered.
func (x *hybridIndex) probeWorth(qu Query, terms []hybridTerm) bool {
	if qu.K <= 0 || qu.K > collectAllAbove || len(terms) < 2 || len(terms) > probeMaxTerms ||
		x.p.nameCover < 0 || x.p.coverage < 0 {
		return false
	}
	total, most := 0, 0
	for _, t := range terms {
		n := x.post.Get(t.stem).Len()
		total += n
		most = max(most, n)
		if t.required {
			return true
		}
	}
	return most >= probeMinCost && most >= probeRatio*(total-most)
}

// gatherProbe fills sc.probe with the terms, their credits gathered in
// query order as scoreTerm gathers them.
func (x *hybridIndex) gatherProbe(ctx context.Context, sc *hybridScratch, terms []hybridTerm, work *querywork.Budget) {
	p := &x.p
	credOf, mark := sc.credOf, sc.mark
	sc.probe = sc.probe[:0]
	sc.credBuf, sc.kindBuf = sc.credBuf[:0], sc.kindBuf[:0]
	for ti, t := range terms {
		pt := probeTerm{stem: t.stem, post: x.post.Get(t.stem), required: t.required, stop: t.stop}
		start := len(sc.credBuf)
		sc.credBuf, sc.kindBuf = x.gatherCredits(ctx, t, pt.post, work, mark, sc.credBuf, sc.kindBuf)
		ncred := len(sc.credBuf) - start
		both := sc.postedCredits(pt.post, sc.credBuf[start:]) // postings of credited tools
		if ncred > 0 {
			sh := 2 * uint(ti)
			for i, d := range sc.credBuf[start:] {
				mark[d>>6] &^= 1 << (d & 63)
				credOf[d] |= uint32(sc.kindBuf[start+i]) << sh
			}
		}
		pt.cost = pt.post.Len() + ncred
		if n := pt.post.Len() + ncred - both; n > 0 {
			pt.weight = idf(n, x.n)
			if t.stop {
				pt.weight *= p.stop
			}
		} else {
			pt.empty = true
		}
		if !t.stop {
			pt.matched = 1
			if t.required {
				pt.needed = 1
			}
		}
		sc.probe = append(sc.probe, pt)
	}
	// The credits live in sc.credBuf, which may have moved as it grew.
	off := 0
	for i := range sc.probe {
		pt := &sc.probe[i]
		n := pt.cost - pt.post.Len()
		pt.cred = sc.credBuf[off : off+n : off+n]
		off += n
	}
}

// probeScored says how many of a probed query's terms gave candidates:
// first at the start, cheap in the end (the others were looked up only).
type probeScored struct{ first, cheap int }

// rankProbe is Rank for a query probeWorth accepts (at most
// probeMaxTerms terms: their credits share a uint32 per slot, two bits
// each).
func (x *hybridIndex) rankProbe(ctx context.Context, terms []hybridTerm, sc *hybridScratch, work *querywork.Budget, best *TopHits) probeScored {
	x.gatherProbe(ctx, sc, terms, work)
	pts := sc.probe
	p := &x.p
	var required, counted uint16
	for _, t := range terms {
		if t.required {
			required++
		}
		if !t.stop {
			counted++
		}
	}
	// order: the terms by cost, cheapest first; the first cheap of them
	// give the candidates, the others are common.
	var order [probeMaxTerms]int
	for i := range pts {
		order[i] = i
	}
	ord := order[:len(pts)]
	slices.SortStableFunc(ord, func(a, b int) int { return pts[a].cost - pts[b].cost })
	// The candidates come from the cheapest term first (with a required
	// term: the cheapest required one, whose tools are the only ones that
	// can be hits); the others join while the bound below says a tool
	// they alone reach could be a hit.
	if required > 0 {
		for j, i := range ord {
			if pts[i].required {
				ord[0], ord[j] = ord[j], ord[0]
				break
			}
		}
	}
	cheap := 1
	first := cheap
	mark, fresh := sc.mark, sc.fresh
	sc.cand = sc.cand[:0]
	scored := 0 // sc.cand[:scored] are scored
	for j := 0; ; j++ {
		if j < cheap {
			// The tools of term ord[j] not yet candidates.
			pt := &pts[ord[j]]
			if !pt.empty {
				add := func(d int32) {
					if bit := uint64(1) << (d & 63); mark[d>>6]&bit == 0 {
						mark[d>>6] |= bit
						fresh[d>>6] |= bit
						sc.cand = append(sc.cand, d)
					}
				}
				for _, pg := range pt.post.Pages() {
					for i := range pg {
						add(pg[i].slot)
					}
				}
				for _, d := range pt.cred {
					add(d)
				}
			}
			if j+1 < cheap {
				continue
			}
			x.scoreFresh(sc, sc.cand[scored:], required, counted, best)
			scored = len(sc.cand)
		}
		if required > 0 || j+1 >= len(ord) {
			break
		}
		// A tool the common terms alone reach scores at most bound.
		var sum float64
		var nCommon, countedCommon int
		for _, i := range ord[j+1:] {
			sum += pts[i].weight * (p.k1 + 1)
			nCommon++
			if !pts[i].stop {
				countedCommon++
			}
		}
		bound := sum * (1 + p.nameCover*float64(nCommon))
		if p.coverage != 0 && counted > 0 {
			bound *= coverFactor(min(countedCommon, int(counted)), int(counted), p.coverage)
		}
		if bound*(1+1e-9) < best.threshold() {
			break
		}
		cheap = j + 2 // the cheapest common term joins the cheap ones
	}
	for _, d := range sc.cand {
		mark[d>>6] &^= 1 << (d & 63)
	}
	for _, d := range sc.credBuf {
		sc.credOf[d] = 0
	}
	sc.cand = sc.cand[:0]
	clear(sc.probe) // the pooled scratch holds no posting lists of this version
	return probeScored{first, cheap}
}

// scoreFresh scores the tools of cand, whose bits are set in sc.fresh, on
// every term in query order, as scoreTerm does, and offers them to best
// as rankTerms' final pass does; it clears their bits in sc.fresh. It may
// sort cand in place.
func (x *hybridIndex) scoreFresh(sc *hybridScratch, cand []int32, required, counted uint16, best *TopHits) {
	if len(cand) == 0 {
		return
	}
	p := &x.p
	q := x.newQuery()
	k1, k1p1 := p.k1, p.k1+1
	acc, fresh, credOf := sc.acc, sc.fresh, sc.credOf
	sorted := false // cand is in slot order
	for i := range sc.probe {
		pt := &sc.probe[i]
		if pt.empty {
			continue
		}
		sh := 2 * uint(i)
		weight, matched, needed := pt.weight, pt.matched, pt.needed
		r := freshRun{acc: acc, fresh: fresh, credOf: credOf, lens: q.lens, credits: q.credits,
			weight: weight, k1: k1, k1p1: k1p1, matched: matched, needed: needed, sh: sh}
		// add adds the posting ps of a candidate.
		add := func(ps *hybridPost) {
			if fastWeight(ps) {
				r.post(ps, float64(q.lens.weight(ps)))
			} else {
				r.post(ps, float64(x.postWeight(&q, ps, pt.stem)))
			}
		}
		if pt.post.Len() >= probeSeekRatio*len(cand) {
			if !sorted {
				slices.Sort(cand)
				sorted = true
			}
			seekSlots(pt.post.Pages(), cand, add)
		} else {
			for _, pg := range pt.post.Pages() {
				for j := 0; ; j++ {
					if j = r.page(pg, j); j >= len(pg) {
						break
					}
					add(&pg[j]) // its weight is not in the tables
				}
			}
		}
		for _, d := range pt.cred {
			c := Rule(credOf[d] >> sh & 3)
			if c == 0 || fresh[d>>6]&(1<<(d&63)) == 0 {
				continue
			}
			credOf[d] &^= 3 << sh
			a := &acc[d]
			a.rules |= creditRules[c]
			r.add(a, q.credits[c])
		}
	}
	covered := p.coverage != 0 && counted > 0
	var cover coverTable
	if covered {
		cover.init(int(counted), p.coverage)
	}
	thr := best.threshold()
	for _, d := range cand {
		fresh[d>>6] &^= 1 << (d & 63)
		a := acc[d]
		acc[d] = hybridAcc{}
		s := a.score
		if !(s > 0) || a.needed < required || a.matched == 0 && counted > 0 {
			continue
		}
		if covered {
			s *= cover.factor(int(a.matched))
		}
		if a.nameHits > 0 {
			s = x.nameCovered(s, &a, d)
		}
		if s >= thr {
			best.Offer(x.c.Position(int(d)), s, a.rules)
			thr = best.threshold()
		}
	}
}

// newQuery returns the per-query values of x's version: its length
// normalisations and the name credits' weights.
func (x *hybridIndex) newQuery() hybridQuery {
	p := &x.p
	return hybridQuery{lens: x.lens, credits: [4]float64{0, p.name, p.namePart, p.name * p.typo}}
}

// marked returns how many postings of pg have their slot marked in mark.
// (A call per page: a loop over the pages in its caller would keep fewer
// of the caller's variables in registers.)
//
//go:noinline
func marked(pg []hybridPost, mark []uint64) int {
	n := 0
	for i := range pg {
		if d := pg[i].slot; mark[d>>6]&(1<<(d&63)) != 0 {
			n++
		}
	}
	return n
}

// freshRun is what scoreFresh needs to score one term's postings of the
// candidates (marked in fresh) into the accumulators.
type freshRun struct {
	acc              []hybridAcc
	fresh            []uint64 // the candidates
	credOf           []uint32 // the credits, two bits a term
	lens             *hybridLens
	credits          [4]float64 // hybridQuery.credits
	weight, k1, k1p1 float64    // the term's idf, and the saturation's
	matched, needed  uint16     // what a match adds to a tool's counts
	sh               uint       // where credOf holds the term's credit
}

// page scores the candidates' postings of pg from i on, up to the first
// whose weight is not in hybridLens' tables (the caller scores it, by
// post), and returns its index (len(pg) when none). i is at least 0. (A
// call per page keeps the loop's variables in registers.)
//
//go:noinline
func (r *freshRun) page(pg []hybridPost, i int) int {
	fresh, lens, acc, credOf := r.fresh, r.lens, r.acc, r.credOf
	_ = lens.b // one nil check, before the loop
	for ; uint(i) < uint(len(pg)); i++ {
		ps := &pg[i]
		d := ps.slot
		if fresh[d>>6]&(1<<(d&63)) == 0 {
			continue
		}
		f := ps.flags
		if f&postFast == 0 {
			return i
		}
		// post's work, written out: a call would cost more than it.
		w := float64(lens.weight(ps))
		a := &acc[d]
		if c := Rule(credOf[d] >> r.sh & 3); c != 0 {
			credOf[d] &^= 3 << r.sh
			if f&postName == 0 {
				w += r.credits[c]
				a.rules |= creditRules[c]
			}
		}
		if f&(postName|postServer) == postName {
			a.nameHits++
			a.own = ps.own
		}
		a.rules |= f & postRules
		r.add(a, w)
	}
	return i
}

// post scores posting ps of a candidate, of weight w: its credit taken
// (cleared in credOf, so that scoreFresh's credit loop skips it; added
// unless a name word has the term), its name hit and rules noted, the
// saturated weight added.
func (r *freshRun) post(ps *hybridPost, w float64) {
	d := ps.slot
	a := &r.acc[d]
	f := ps.flags
	if c := Rule(r.credOf[d] >> r.sh & 3); c != 0 {
		r.credOf[d] &^= 3 << r.sh
		if f&postName == 0 {
			w += r.credits[c]
			a.rules |= creditRules[c]
		}
	}
	if f&(postName|postServer) == postName {
		a.nameHits++
		a.own = ps.own
	}
	a.rules |= f & postRules
	r.add(a, w)
}

// add adds the term's weight w in the candidate's accumulator a.
func (r *freshRun) add(a *hybridAcc, w float64) {
	a.score += r.weight * w * r.k1p1 / (w + r.k1)
	a.matched += r.matched
	a.needed += r.needed
}

// creditSeekRatio is how many times the credited tools a term's postings
// must number for postedCredits to look each up rather than count the
// marked postings.
const creditSeekRatio = 12

// postedCredits returns how many of the credited tools cred, marked in
// sc.mark, have a posting in post: the marked postings counted, or, when
// the postings outnumber the credited tools many times over, each looked
// up in slot order.
func (sc *hybridScratch) postedCredits(post cow.List[hybridPost], cred []int32) int {
	if len(cred) == 0 {
		return 0
	}
	n := 0
	if post.Len() < creditSeekRatio*len(cred) {
		for _, pg := range post.Pages() {
			n += marked(pg, sc.mark)
		}
		return n
	}
	sc.sorted = append(sc.sorted[:0], cred...)
	slices.Sort(sc.sorted)
	seekSlots(post.Pages(), sc.sorted, func(*hybridPost) { n++ })
	return n
}

// probeSeekRatio is how many times the candidates a term's postings
// must number for the candidates to be looked up in them (seekSlots)
// rather than the postings read through.
const probeSeekRatio = 8

// seekSlots calls f with the posting of each of slots (ascending and
// distinct) that pages (postings in slot order) has: a binary search
// within each page that can hold it.
func seekSlots(pages [][]hybridPost, slots []int32, f func(*hybridPost)) {
	pi, lo := 0, 0 // the page, and where in it the next slot can be
	for _, d := range slots {
		for pi < len(pages) && (len(pages[pi]) == 0 || pages[pi][len(pages[pi])-1].slot < d) {
			pi, lo = pi+1, 0
		}
		if pi == len(pages) {
			return
		}
		pg := pages[pi]
		hi := len(pg)
		for lo < hi {
			if m := int(uint(lo+hi) >> 1); pg[m].slot < d {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo < len(pg) && pg[lo].slot == d {
			f(&pg[lo])
		}
	}
}
