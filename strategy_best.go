package toolsearch

import (
	"context"
	"slices"
)

// topRanker is an Index that keeps the best hits itself, in its final pass
// over the tools a query touched, instead of appending every hit for the
// pipeline to cut: the built-in indexes implement it, so that a query
// matching most of a large catalog costs no hit buffer in proportion to
// it. The pipeline (Searcher.rank) uses it when the Index has it, and
// Index.Rank otherwise.
type topRanker interface {
	// rankTop returns hits with the best n hits of the query appended,
	// best first (by score, then position), among the tools for which in
	// holds (nil: every tool); n < 0 appends every hit, in any order.
	rankTop(ctx context.Context, query string, n int, in func(pos int) bool, hits []Hit) ([]Hit, []string, error)
}

// collectAllAbove is the k above which bestHits collects every hit and
// sorts them once, rather than keeping k in order as it goes.
const collectAllAbove = 64

// bestHits keeps the best k hits offered, by score then position: the
// order of the ranked form.
type bestHits struct {
	k    int            // < 0: keep every hit, in any order
	in   func(int) bool // the scope; nil: every tool
	hits []Hit          // hits[base:] are kept, best first when k ≤ collectAllAbove
	base int
}

func newBestHits(k int, in func(int) bool, hits []Hit) bestHits {
	return bestHits{k: k, in: in, hits: hits, base: len(hits)}
}

// below reports whether a hit scoring score cannot be kept: k hits are
// kept, in order, and the last of them scores more.
func (b *bestHits) below(score float64) bool {
	if b.k < 0 || b.k > collectAllAbove {
		return false
	}
	top := b.hits[b.base:]
	return len(top) == b.k && (b.k == 0 || score < top[b.k-1].Score)
}

// offer considers the tool at position pos with its score and rules.
func (b *bestHits) offer(score float64, pos int32, rules Rule) {
	if b.k < 0 || b.k > collectAllAbove {
		if b.k != 0 && (b.in == nil || b.in(int(pos))) {
			b.hits = append(b.hits, Hit{Tool: int(pos), Score: score, Rules: rules})
		}
		return
	}
	top := b.hits[b.base:]
	if len(top) == b.k {
		if b.k == 0 {
			return
		}
		if last := &top[b.k-1]; score < last.Score || score == last.Score && int(pos) > last.Tool {
			return
		}
	}
	if b.in != nil && !b.in(int(pos)) {
		return
	}
	i := len(top)
	for i > 0 && (score > top[i-1].Score || score == top[i-1].Score && int(pos) < top[i-1].Tool) {
		i--
	}
	if len(top) < b.k {
		b.hits = append(b.hits, Hit{})
		top = b.hits[b.base:]
	}
	copy(top[i+1:], top[i:len(top)-1])
	top[i] = Hit{Tool: int(pos), Score: score, Rules: rules}
}

// done returns the hits: the best k in order, or every hit for k < 0.
func (b *bestHits) done() []Hit {
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
