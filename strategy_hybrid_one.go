package toolsearch

// A query of one term: each posting scored as it is read, and those that
// cannot reach the kept hits passed over by their weight.

import (
	"context"
	"math"

	"github.com/toolsearch/toolsearch/internal/querywork"
)

// rankOne ranks a query of one term. Each tool the term reaches scores
// from its one posting and its name credit, so its score is computed and
// offered as its posting is read, without the accumulators or a second
// pass over the tools: the same floats as rankTerms (its sum starts at 0,
// and the coverage factor of a tool matching the one term is (1/1)^c = 1).
// Once K hits are kept, postings whose weight cannot reach their
// threshold are passed over without being scored (oneSkip.next).
func (x *hybridIndex) rankOne(ctx context.Context, t hybridTerm, sc *hybridScratch, work *querywork.Budget, best *TopHits) {
	p := &x.p
	q := x.newQuery()
	mark, credOf := sc.mark, sc.credOf
	post := x.post.Get(t.stem)
	sc.cred, sc.kind = x.gatherCredits(ctx, t, post, work, mark, sc.cred[:0], sc.kind[:0])
	both := sc.postedCredits(post, sc.cred) // postings of credited tools
	for i, d := range sc.cred {
		credOf[d] = uint32(sc.kind[i])
	}
	n := post.Len() + len(sc.cred) - both
	if n == 0 {
		return // nothing was credited either
	}
	weight := idf(n, x.n) // a lone term is never a stop word kept after others
	k1, k1p1 := p.k1, p.k1+1
	prune := p.nameCover >= 0
	thr := best.threshold()
	sk := oneSkip{mark: mark, credOf: credOf, lens: q.lens, p: p, credits: q.credits, weight: weight, k1: k1, k1p1: k1p1, one: 1}
	sk.setMin(thr)
	for _, pg := range post.Pages() {
		for i := 0; ; i++ {
			if i = sk.next(pg, i); i >= len(pg) {
				break
			}
			ps := &pg[i]
			d := ps.slot
			f := ps.flags
			rules := f & postRules
			var s float64
			if fastWeight(ps) { // next has its score (but a large name's factor) and credit
				s = sk.s
				rules |= creditRules[sk.c]
				if f&(postName|postServer) == postName && ps.own == ownLarge {
					s = x.nameCovered(s, &hybridAcc{nameHits: 1, own: ps.own}, d)
				}
			} else {
				w := float64(x.postWeight(&q, ps, t.stem))
				if both > 0 && mark[d>>6]&(1<<(d&63)) != 0 {
					mark[d>>6] &^= 1 << (d & 63)
					c := credOf[d]
					credOf[d] = 0
					if f&postName == 0 {
						w += q.credits[c]
						rules |= creditRules[c]
					}
				}
				s = weight * w * k1p1 / (w + k1)
				if !(s > 0) {
					continue
				}
				if f&(postName|postServer) == postName { // one own name word hit
					if prune && s*(1+p.nameCover) < thr {
						continue
					}
					s = x.nameCovered(s, &hybridAcc{nameHits: 1, own: ps.own}, d)
				}
			}
			if s >= thr {
				best.Offer(x.c.Position(int(d)), s, rules)
				thr = best.threshold()
				sk.setMin(thr)
			}
		}
	}
	for _, d := range sc.cred { // those without a posting, in the order credited
		if bit := uint64(1) << (d & 63); mark[d>>6]&bit != 0 {
			mark[d>>6] &^= bit
			c := credOf[d]
			credOf[d] = 0
			w := q.credits[c]
			if s := weight * w * k1p1 / (w + k1); s > 0 && s >= thr {
				best.Offer(x.c.Position(int(d)), s, creditRules[c])
				thr = best.threshold()
			}
		}
	}
}

// oneSkip is what a one-term query needs to score its postings in a
// tight loop and pass over those that cannot reach the kept hits.
type oneSkip struct {
	mark     []uint64 // the credited tools not yet scored
	credOf   []uint32 // their credits
	lens     *hybridLens
	p        *hybridParams
	credits  [4]float64 // hybridQuery.credits
	weight   float64    // the term's idf
	k1, k1p1 float64
	thr      float64 // the kept hits' threshold
	zero     float64 // 0 and 1, read from here: the constants, written in
	one      float64 // next's loop, would be set again on each turn
	wsum     float64 // minWeight(thr) lowered by more than a float32's rounding (next's bound)
	s        float64 // the score of the posting next returned
	c        uint32  // and its credit (0: none)
}

// next returns the index of the first posting of pg from i on that a
// one-term query offers: one whose weight is not in hybridLens' tables
// (the caller scores it), or one whose score reaches the threshold,
// which it leaves in sk.s with the posting's credit in sk.c (without
// the name-cover factor for a tool of ownLarge name words, which the
// caller applies). A posting's credit is taken as rankOne takes it (its
// mark and credit cleared, the credit added unless a name word has the
// term). Most postings cost the weight's four table reads, the mark's
// test and a comparison of the weight's sum (before its rounding to a
// float32) with wsum, branches that go the same way for most of them.
// (A call per page and per posting offered keeps the loop's variables in
// registers.) i is at least 0.
//
//go:noinline
func (sk *oneSkip) next(pg []hybridPost, i int) int {
	mark, lens, wsum := sk.mark, sk.lens, sk.wsum
	_ = lens.b                           // one nil check, before the loop
	for ; uint(i) < uint(len(pg)); i++ { // (i ≥ 0: one comparison bounds pg[i])
		ps := &pg[i]
		f := ps.flags
		if f&postFast == 0 {
			return i
		}
		sum := lens.sum(ps)
		var c uint32
		if d := uint32(ps.slot); mark[d>>6]&(1<<(d&63)) == 0 {
			if sum < wsum {
				continue
			}
		} else {
			mark[d>>6] &^= 1 << (d & 63)
			c = sk.credOf[d]
			sk.credOf[d] = 0
			if f&postName != 0 {
				c = 0
				if sum < wsum {
					continue
				}
			} else if sum+sk.credits[c%4] < wsum {
				continue
			}
		}
		w := float64(float32(sum)) // the posting's weight
		if c != 0 {
			w += sk.credits[c%4]
		}
		s := sk.weight * w * sk.k1p1 / (w + sk.k1)
		if !(s > sk.zero) {
			continue
		}
		if f&(postName|postServer) == postName { // one own name word hit
			if o := ps.own; o == ownLarge {
				sk.s, sk.c = s, c
				return i
			} else if o > 0 {
				s *= sk.one + sk.p.nameCover/float64(o) // coverOf(1, o)
			}
		}
		if s >= sk.thr {
			sk.s, sk.c = s, c
			return i
		}
	}
	return i
}

// setMin sets the threshold thr and the bound next passes postings over
// by. next compares the weight's sum before its rounding to a float32,
// which raises a weight w ≥ 0 by at most w × 2⁻²⁴: a sum (with its
// credit, also ≥ 0 when minWeight is finite) below minWeight × (1 − 1e-7)
// is a weight below minWeight.
func (sk *oneSkip) setMin(thr float64) {
	sk.thr = thr
	sk.wsum = sk.minWeight(thr) * (1 - 1e-7)
}

// minWeight is the weight (with its credit) below which a posting cannot
// reach thr: oneMinWeight's for a posting whose name-cover factor is the
// largest one own name word hit can give.
func (sk *oneSkip) minWeight(thr float64) float64 {
	return sk.p.oneMinWeight(thr, sk.weight, max(1, 1+sk.p.nameCover))
}

// oneMinWeight returns a weight below which a posting of a one-term query
// whose idf is weight cannot score thr: its score, weight × w(k1 + 1)/(w +
// k1) times at most factor (the name-cover factor of one own name word
// hit is at most 1 + nameCover, and 1 without that hit), is then below
// thr. The saturation rises with w, so the
// weight that gives thr is found once, not a division per posting; both
// the target and that weight are lowered by a relative 1e-6, far more
// than the rounding of either computation, so a posting it leaves out
// scores below thr as the scoring computes it. With thr, the idf or the
// factor not above 0 (a NaN name-cover weight makes the factor NaN), or
// weights that could make a posting's weight negative (the saturation
// then no longer rises with it), nothing is left out.
func (p *hybridParams) oneMinWeight(thr, weight, factor float64) float64 {
	if !(thr > 0) || !(weight > 0) || !(factor > 0) || !(p.k1 > 0) || !(p.b >= 0 && p.b <= 1) ||
		!(p.name >= 0 && p.namePart >= 0 && p.typo >= 0 && p.hint >= 0 && p.lead >= 0 && p.arg >= 0) {
		return math.Inf(-1)
	}
	y := thr / (weight * factor) * (1 - 1e-6)
	if k1p1 := p.k1 + 1; y < k1p1 {
		return y * p.k1 / (k1p1 - y) * (1 - 1e-6)
	}
	return math.Inf(1)
}
