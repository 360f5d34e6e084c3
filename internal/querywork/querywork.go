// Package querywork is the work budget of one query: the text that the
// mechanisms whose cost a query controls may scan, in units of about one
// byte compared (SearchOptions.MaxQueryWork of the root package). The
// search pipeline carries it to the built-in strategies' Rank in the
// context; select: suggestions and the call guard's close names draw on
// one too. A mechanism that finds the budget spent stops, and the result
// gets a note saying that matching was cut.
package querywork

import (
	"context"
	"math"
)

// Budget is the work left to one query. It is used by one goroutine.
type Budget struct {
	left int
	cut  bool
}

type key struct{}

// New returns a budget of n units.
func New(n int) *Budget { return &Budget{left: n} }

// With returns ctx carrying a budget of n units.
func With(ctx context.Context, n int) (context.Context, *Budget) {
	w := New(n)
	return context.WithValue(ctx, key{}, w), w
}

// Of returns the budget ctx carries; an unlimited one when none (an Index
// used outside a Searcher).
func Of(ctx context.Context) *Budget {
	if w, ok := ctx.Value(key{}).(*Budget); ok {
		return w
	}
	return New(math.MaxInt)
}

// Spend takes n units, reporting false, and recording the cut, when they
// are not left. A mechanism that knows only after the work how much it
// did spends the most it may do, then gives back the rest (Refund).
func (w *Budget) Spend(n int) bool {
	if w.left < n {
		w.left, w.cut = 0, true
		return false
	}
	w.left -= n
	return true
}

// Refund gives back n units spent but not used.
func (w *Budget) Refund(n int) { w.left += n }

// Left returns the units left.
func (w *Budget) Left() int { return w.left }

// Cut reports whether a Spend found the budget spent.
func (w *Budget) Cut() bool { return w.cut }
