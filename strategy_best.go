package toolsearch

import (
	"math"
	"slices"
)

// collectAllAbove is the k above which TopHits collects every hit and
// sorts them once, rather than keeping k in order as it goes.
const collectAllAbove = 64

// TopHits keeps the best hits of a Query as an index offers them: the
// best q.K among the tools in scope (q.In), by score, then position (the
// order of the ranked form), or every hit when q.K < 0. An index that
// keeps its hits this way saves the Searcher a buffer of every match;
// the built-in ones do. Make one with Query.TopHits; it is used by one
// goroutine.
type TopHits struct {
	k    int            // < 0: keep every hit, in any order
	in   func(int) bool // the scope; nil: every tool
	hits []Hit          // hits[base:] are kept, best first when k ≤ collectAllAbove
	base int
}

// TopHits returns a TopHits for q that appends to hits.
func (q Query) TopHits(hits []Hit) TopHits { return newTopHits(q.K, q.In, hits) }

func newTopHits(k int, in func(int) bool, hits []Hit) TopHits {
	return TopHits{k: k, in: in, hits: hits, base: len(hits)}
}

// Below reports whether a hit scoring score would not be kept: K hits are
// kept already, and the last of them scores more. An index may skip the
// work of scoring a tool exactly once it knows it is Below.
func (b *TopHits) Below(score float64) bool {
	if b.k < 0 || b.k > collectAllAbove {
		return false
	}
	top := b.hits[b.base:]
	return len(top) == b.k && (b.k == 0 || score < top[b.k-1].Score)
}

// threshold returns the score below which a hit is not kept: Below(s)
// is s < threshold() for any score s, and Offer keeps nothing that
// scores less. It changes only with Offer.
func (b *TopHits) threshold() float64 {
	switch top := b.hits[b.base:]; {
	case b.k < 0 || b.k > collectAllAbove || len(top) < b.k:
		return math.Inf(-1)
	case b.k == 0:
		return math.Inf(1)
	default:
		return top[b.k-1].Score
	}
}

// Offer considers the tool at position pos, with its score (above 0) and
// the rules that fired. A tool outside the scope is not kept.
func (b *TopHits) Offer(pos int, score float64, rules Rule) {
	if b.k < 0 || b.k > collectAllAbove {
		if b.k != 0 && (b.in == nil || b.in(pos)) {
			b.hits = append(b.hits, Hit{Tool: pos, Score: score, Rules: rules})
		}
		return
	}
	top := b.hits[b.base:]
	if len(top) == b.k {
		if b.k == 0 {
			return
		}
		if last := &top[b.k-1]; score < last.Score || score == last.Score && pos > last.Tool {
			return
		}
	}
	if b.in != nil && !b.in(pos) {
		return
	}
	i := len(top)
	for i > 0 && (score > top[i-1].Score || score == top[i-1].Score && pos < top[i-1].Tool) {
		i--
	}
	if len(top) < b.k {
		b.hits = append(b.hits, Hit{})
		top = b.hits[b.base:]
	}
	copy(top[i+1:], top[i:len(top)-1])
	top[i] = Hit{Tool: pos, Score: score, Rules: rules}
}

// Hits returns the hits given to Query.TopHits followed by those kept: the
// best K, best first, or, for K < 0, every hit offered, in any order.
func (b *TopHits) Hits() []Hit {
	if b.k > collectAllAbove {
		top := b.hits[b.base:]
		slices.SortFunc(top, compareHits)
		b.hits = b.hits[:b.base+min(b.k, len(top))]
	}
	return b.hits
}

// compareHits orders hits by score, descending, then position.
func compareHits(a, b Hit) int {
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	}
	return a.Tool - b.Tool
}
