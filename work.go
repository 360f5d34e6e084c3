package toolsearch

import (
	"context"
	"math"
)

// queryWork is the work budget of one query (SearchOptions.MaxQueryWork):
// the text that the mechanisms whose cost a query controls may scan, in
// units of about one byte compared. The pipeline carries it to the
// built-in strategies' Rank in the context; select: suggestions draw on it
// too. A mechanism that finds the budget spent stops, and the result gets
// a note saying that matching was cut.
type queryWork struct {
	left int
	cut  bool
}

type queryWorkKey struct{}

// withQueryWork returns ctx carrying a budget of n units.
func withQueryWork(ctx context.Context, n int) (context.Context, *queryWork) {
	w := &queryWork{left: n}
	return context.WithValue(ctx, queryWorkKey{}, w), w
}

// queryWorkOf returns the budget ctx carries; an unlimited one when none
// (an Index used outside a Searcher).
func queryWorkOf(ctx context.Context) *queryWork {
	if w, ok := ctx.Value(queryWorkKey{}).(*queryWork); ok {
		return w
	}
	return &queryWork{left: math.MaxInt}
}

// spend takes n units, reporting false, and recording the cut, when they
// are not left. A mechanism that knows only after the work how much it
// did spends the most it may do, then gives back the rest (refund).
func (w *queryWork) spend(n int) bool {
	if w.left < n {
		w.left, w.cut = 0, true
		return false
	}
	w.left -= n
	return true
}

// refund gives back n units spent but not used.
func (w *queryWork) refund(n int) { w.left += n }
