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
// one when asked for another snapshot, handing the old value to build as
// prev. Only the newest state is kept once made, so a memo never pins a
// chain of old snapshots.
//
// The first caller that needs a snapshot's value makes it, without any
// lock held; concurrent callers for the same snapshot wait for it. Callers
// that race on different snapshots each make theirs, and each value gets
// as prev the value of the snapshot asked for just before its own: a
// value not made yet when the next one needs it is made then, with the
// next one's build. So every caller of one memo passes the same build
// function (one that depends only on the snapshot and prev).
type memo[T any] struct {
	cur atomic.Pointer[memoState[T]]
}

// memoState is a memo's value for one snapshot, and until it is made the
// state it replaced in the memo.
type memoState[T any] struct {
	snap   *snapshot
	prev   *memoState[T] // nil once made
	once   sync.Once
	val    T
	failed atomic.Bool // build panicked: there is no value
}

// get returns the value for snap, made by build on first use. A build
// that panics leaves no value: the panic goes on up its caller's stack,
// and the callers that were waiting for it build the value again
// themselves (from no prev).
func (m *memo[T]) get(snap *snapshot, build func(snap *snapshot, prev T) T) T {
	for {
		st := m.state(snap)
		if v, ok := st.made(build); ok {
			return v
		}
		m.cur.CompareAndSwap(st, nil)
	}
}

// state returns the memo's state for snap, storing a new one (whose prev
// is the state it replaces) unless the memo holds one. Every state is
// stored, so that its prev is the one the memo held just before it, even
// when callers race on different snapshots.
func (m *memo[T]) state(snap *snapshot) *memoState[T] {
	for {
		old := m.cur.Load()
		if old != nil && old.snap == snap {
			return old
		}
		st := &memoState[T]{snap: snap, prev: old}
		if m.cur.CompareAndSwap(old, st) {
			return st
		}
	}
}

// made returns the state's value, making it with build (after the values
// before it that are not made yet) if no caller has; a make in progress
// is waited for. ok is false when the build panicked: there is no value.
func (s *memoState[T]) made(build func(snap *snapshot, prev T) T) (val T, ok bool) {
	s.once.Do(func() {
		var prev T
		if s.prev != nil {
			if p, ok := s.prev.made(build); ok {
				prev = p
			}
		}
		done := false
		defer func() {
			s.prev = nil // so that a memo never pins a chain of old snapshots
			if !done {
				s.failed.Store(true)
			}
		}()
		s.val = build(s.snap, prev)
		done = true
	})
	return s.val, !s.failed.Load()
}
