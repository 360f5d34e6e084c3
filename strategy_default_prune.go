package toolsearch

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/text"
)

// Pruning the default strategy's query. A sentence has common words ("a",
// "the", "for") whose postings hold most of the catalog but which add a
// few points each. For a query with no required term that asks for at
// most collectAllAbove hits, the rules are applied as items, cheapest
// first: a term's name rules (an equal part, else a part containing it,
// else adjacent parts joined) are one item, bounded by the largest weight
// that can fire; its hint and its description rules are one item each.
// A score is a sum of whole weights, so the order does not change it.
//
// Before a costly item, the k-th best score so far (theta) is found: a
// tool can gain at most the bounds of the items left, so when they add up
// to less than theta, a tool not touched yet cannot reach the best k, nor
// can a touched one whose score plus that sum is below theta. The items
// left then score the remaining candidates only: a binary search of a
// postings list (every one is in slot order), or the name rules checked on the tool's own parts
// (an item is applied to every tool as before when that is cheaper). The
// hits, with their scores and rules, are those of the exhaustive path.
//
// The work the query budget pays for (the substring scan of the
// vocabulary, the terms of several runs) is done term by term in query
// order as in the exhaustive path, so a cut falls at the same place; a
// term whose substring scan was cut has its name rules applied at once.

// pruneMinCost is the fewest postings an item must read for theta to be
// worth finding before it.
const pruneMinCost = 512

// rankPruned scores the terms (no required term; 0 < q.K ≤
// collectAllAbove) as described above and returns the best hits, and
// whether it pruned.
func (k *keywordIndex) rankPruned(q Query, all []string, a *accumulator, work *querywork.Budget, hits []Hit) ([]Hit, bool) {
	ix := k.ix
	ps := &a.prune
	ps.items, ps.subs = ps.items[:0], ps.subs[:0]
	for _, term := range all {
		ts := termState{g: a.next()}
		p := ix.lookup(term)
		it := keywordItem{name: true, term: term, g: ts.g, p: p, lo: len(ps.subs), span: ix.joinable(term)}
		cut := false
		if len(term) < maxNameLength && partChars(term) {
			it.substr = true
			cut = !ix.substrings(term, work, func(q *postings) { ps.subs = append(ps.subs, q) })
		}
		it.hi = len(ps.subs)
		if cut {
			ix.applyName(a, &it)
		} else if ix.weighName(a, &it); it.bound > 0 {
			ps.items = append(ps.items, it)
		}
		if !text.OneRun(term) {
			ix.slowWord(a, term, &ts, fieldHint, k.pos, work)
			ix.slowWord(a, term, &ts, fieldDesc, k.pos, work)
			continue
		}
		if p != nil {
			if n := p.hint.Len(); n > 0 {
				ps.items = append(ps.items, keywordItem{cost: n, bound: weightHint, list: p.hint, w: weightHint, r: RuleHint})
			}
			if n := p.desc.Len(); n > 0 {
				ps.items = append(ps.items, keywordItem{cost: n, bound: weightDescription, list: p.desc, w: weightDescription, r: RuleDescription})
			}
		}
	}
	slices.SortStableFunc(ps.items, func(x, y keywordItem) int { return cmp.Compare(x.cost, y.cost) })

	var rest, done uint32 // the bounds of the items left, and of those applied
	for i := range ps.items {
		rest += ps.items[i].bound
	}
	// A check before item i finds theta from the best K tools so far (see
	// probe); the next one waits until rest falls below the last theta
	// plus the bounds applied since.
	pruned := false
	var theta, seen, doneThen uint32
	for i := range ps.items {
		it := &ps.items[i]
		if !pruned && it.cost >= pruneMinCost && len(a.touched) <= 2*it.cost && rest < seen+done-doneThen {
			th, ok := k.probe(a, q, ps.items[i:])
			seen, doneThen = th, done
			if ok && rest < th {
				pruned, theta = true, th
				ps.start(a, rest, theta)
			}
		}
		switch {
		case !pruned:
			ix.applyItem(a, it)
		case it.name && len(ps.live)*96 < it.cost:
			for _, s := range ps.live {
				if w, r := it.nameHit(ix.slot(s)); w > 0 {
					a.credit(s, &a.acc[s], w, r)
				}
			}
		case it.name:
			ix.applyNameLive(a, it)
		case len(ps.live)*bits.Len(uint(it.list.Len())) < it.cost:
			for _, s := range ps.live {
				if it.has(s) {
					a.credit(s, &a.acc[s], it.w, it.r)
				}
			}
		default:
			for _, pg := range it.list.Pages() {
				for _, s := range pg {
					if ps.isLive(s) {
						a.credit(s, &a.acc[s], it.w, it.r)
					}
				}
			}
		}
		rest -= it.bound
		done += it.bound
		if pruned {
			ps.live = slices.DeleteFunc(ps.live, func(s int32) bool {
				if a.acc[s].sr&accScore+rest < theta {
					ps.mark[s>>6] &^= 1 << (s & 63)
					return true
				}
				return false
			})
		}
	}

	clear(ps.items) // (they hold postings of this version)
	clear(ps.subs)
	best := q.TopHits(hits)
	if pruned {
		for _, s := range ps.live {
			sr := a.acc[s].sr
			best.Offer(int(k.pos[s]), float64(sr&accScore), Rule(sr>>accScoreBits)&accRules)
			ps.mark[s>>6] &^= 1 << (s & 63)
		}
		for _, s := range a.touched {
			a.acc[s].sr = 0
		}
		return best.Hits(), true
	}
	for _, s := range a.touched {
		c := &a.acc[s]
		sr := c.sr
		c.sr = 0
		best.Offer(int(k.pos[s]), float64(sr&accScore), Rule(sr>>accScoreBits)&accRules)
	}
	return best.Hits(), false
}

// start makes the candidates the tools touched whose score plus rest can
// reach theta.
func (ps *pruneScratch) start(a *accumulator, rest, theta uint32) {
	if n := (len(a.acc) + 63) / 64; len(ps.mark) < n {
		ps.mark = make([]uint64, n)
	}
	ps.live = ps.live[:0]
	for _, s := range a.touched {
		if a.acc[s].sr&accScore+rest >= theta {
			ps.live = append(ps.live, s)
			ps.mark[s>>6] |= 1 << (s & 63)
		}
	}
}

func (ps *pruneScratch) isLive(s int32) bool { return ps.mark[s>>6]&(1<<(s&63)) != 0 }

// probe returns a lower bound of the final K-th best score: the K best
// tools in scope so far, each scored in full by the items left (read from
// its name parts, or by a binary search of a text item's list, which is in
// slot order), and the least of their scores.
// It returns false when fewer than K tools in scope have a score.
func (k *keywordIndex) probe(a *accumulator, q Query, left []keywordItem) (uint32, bool) {
	ps := &a.prune
	top := ps.top[:0]
	score := func(s int32) uint32 { return a.acc[s].sr & accScore }
	for _, s := range a.touched {
		if len(top) == q.K && score(s) <= score(top[q.K-1]) || q.In != nil && !q.In(int(k.pos[s])) {
			continue
		}
		if len(top) < q.K {
			top = append(top, s)
		}
		i := len(top) - 1
		for i > 0 && score(s) > score(top[i-1]) {
			top[i] = top[i-1]
			i--
		}
		top[i] = s
	}
	ps.top = top
	if len(top) < q.K {
		return 0, false
	}
	least := uint32(accScore)
	for _, s := range top {
		sc := score(s)
		for i := range left {
			switch it := &left[i]; {
			case it.name:
				w, _ := it.nameHit(k.ix.slot(s))
				sc += w
			case it.has(s):
				sc += it.w
			}
		}
		least = min(least, sc)
	}
	return least, true
}

// has reports whether a text item's list holds s.
func (it *keywordItem) has(s int32) bool { return hasSlot(it.list, s) }

// weighName sets the cost and bound of a name item.
func (ix *index) weighName(a *accumulator, it *keywordItem) {
	bound := func(l slotList, w uint32) {
		if l.Len() > 0 {
			it.cost += l.Len()
			it.bound = max(it.bound, w)
		}
	}
	if p := it.p; p != nil {
		bound(p.part, weightPartExact)
		bound(p.mpart, weightMCPPartExact)
	}
	for _, q := range a.prune.subs[it.lo:it.hi] {
		bound(q.part, weightPartSubstring)
		bound(q.mpart, weightMCPPartSubstring)
	}
	if it.span {
		it.bound = max(it.bound, weightFullName)
	}
}

// applyItem applies an item to every tool.
func (ix *index) applyItem(a *accumulator, it *keywordItem) {
	if it.name {
		ix.applyName(a, it)
		return
	}
	for _, pg := range it.list.Pages() {
		for _, s := range pg {
			a.credit(s, &a.acc[s], it.w, it.r)
		}
	}
}

// applyName applies a term's name rules to every tool, in the order of
// the exhaustive path: an equal part, else a part containing the term,
// else adjacent parts joined.
func (ix *index) applyName(a *accumulator, it *keywordItem) {
	ts := termState{g: it.g}
	if p := it.p; p != nil {
		a.nameRule(p.part, weightPartExact, RulePartExact, &ts)
		a.nameRule(p.mpart, weightMCPPartExact, RulePartExact, &ts)
	}
	for _, q := range a.prune.subs[it.lo:it.hi] {
		a.nameRule(q.part, weightPartSubstring, RulePartSubstring, &ts)
		a.nameRule(q.mpart, weightMCPPartSubstring, RulePartSubstring, &ts)
	}
	if it.span {
		ix.spans(a, it.term, &ts)
	}
}

// applyNameLive applies a term's name rules to the candidates, reading
// its postings.
func (ix *index) applyNameLive(a *accumulator, it *keywordItem) {
	ps := &a.prune
	rule := func(list slotList, w uint32, r Rule) {
		for _, pg := range list.Pages() {
			for _, s := range pg {
				if c := &a.acc[s]; ps.isLive(s) && c.gen != it.g {
					a.credit(s, c, w, r)
					c.gen = it.g
				}
			}
		}
	}
	if p := it.p; p != nil {
		rule(p.part, weightPartExact, RulePartExact)
		rule(p.mpart, weightMCPPartExact, RulePartExact)
	}
	for _, q := range ps.subs[it.lo:it.hi] {
		rule(q.part, weightPartSubstring, RulePartSubstring)
		rule(q.mpart, weightMCPPartSubstring, RulePartSubstring)
	}
	if it.span {
		for _, s := range ps.live {
			if c := &a.acc[s]; c.gen != it.g && spansParts(it.term, ix.slot(s).parts) {
				a.credit(s, c, weightFullName, RuleFullName)
			}
		}
	}
}

// nameHit returns the weight and rule of the first name rule that fires
// for e on a name item's term, read from e's parts; 0 when none does.
func (it *keywordItem) nameHit(e *entry) (uint32, Rule) {
	sub := false
	for _, part := range e.parts {
		if part == it.term {
			if e.scoresMCP {
				return weightMCPPartExact, RulePartExact
			}
			return weightPartExact, RulePartExact
		}
		sub = sub || it.substr && len(part) > len(it.term) && strings.Contains(part, it.term)
	}
	switch {
	case sub && e.scoresMCP:
		return weightMCPPartSubstring, RulePartSubstring
	case sub:
		return weightPartSubstring, RulePartSubstring
	case it.span && spansParts(it.term, e.parts):
		return weightFullName, RuleFullName
	}
	return 0, 0
}
