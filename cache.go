package toolsearch

import (
	"sync"
	"sync/atomic"
)

// memo is a value derived from one registry snapshot, made on first use
// and then shared: every memo of the package (prompt texts, strategy
// indexes, the auto-mode decision) is one. A memo held by a snapshot
// belongs to it; a memo held elsewhere (by a Registry, a Searcher or a
// Session) keeps the value of the last snapshot asked for and makes a new
// one when asked for a newer snapshot, handing the old value to build as
// prev. Only the newest state is kept, so a memo never pins a chain of old
// snapshots.
//
// The first caller for a snapshot makes the value, without any lock held;
// concurrent callers for the same snapshot wait for it. Callers that race
// on different snapshots may each make theirs.
type memo[T any] struct {
	cur atomic.Pointer[memoState[T]]
}

type memoState[T any] struct {
	snap   *snapshot
	once   sync.Once
	val    T
	failed atomic.Bool // build panicked: there is no value
}

// get returns the value for snap, made by build on first use. prev is the
// value made for the snapshot the memo held before (the zero T if none, or
// if it was never made). A build that panics leaves no value: the panic
// goes on up its caller's stack, and the callers that were waiting for it
// build the value again themselves.
func (m *memo[T]) get(snap *snapshot, build func(prev T) T) T {
	for {
		old := m.cur.Load()
		st := old
		if st == nil || st.snap != snap {
			st = &memoState[T]{snap: snap}
			if !m.cur.CompareAndSwap(old, st) {
				if now := m.cur.Load(); now != nil && now.snap == snap {
					st = now
				}
			}
		}
		st.once.Do(func() {
			var prev T
			if old != nil && old != st {
				prev = old.made()
			}
			done := false
			defer func() {
				if !done {
					st.failed.Store(true)
					m.cur.CompareAndSwap(st, nil)
				}
			}()
			st.val = build(prev)
			done = true
		})
		if !st.failed.Load() {
			return st.val
		}
	}
}

// made returns the state's value, waiting for a build in progress; a state
// that was never built stays at the zero T.
func (s *memoState[T]) made() T {
	s.once.Do(func() {})
	return s.val
}
