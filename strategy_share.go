package toolsearch

import (
	"reflect"
	"sync"
	"sync/atomic"
)

// An index is built once per registry version and strategy value: the
// registry keeps one memo per comparable Strategy, shared by its Searchers
// and Sessions, and builds the index of an Eager strategy in the
// background as soon as a version is published.

// strategyIndexes are the indexes of the comparable strategies used with
// one registry, one memo per strategy value, shared by its Searchers and
// Sessions.
type strategyIndexes struct {
	m sync.Map // Strategy → *memo[Index]

	mu    sync.Mutex
	eager []*eagerIndex // the memos of the strategies whose Input says Eager
}

// eagerIndex builds the index of an Eager strategy for the newest registry
// version, on one goroutine at a time that ends when it is done.
type eagerIndex struct {
	st      Strategy
	memo    *memo[Index]
	running atomic.Bool // a goroutine is building
	again   atomic.Bool // a version was published since it last looked
}

// watch makes st's index (held by m) eager, once per strategy value.
func (x *strategyIndexes) watch(st Strategy, m *memo[Index]) *eagerIndex {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, e := range x.eager {
		if e.memo == m {
			return e
		}
	}
	e := &eagerIndex{st: st, memo: m}
	x.eager = append(x.eager, e)
	return e
}

// changed starts building the eager indexes of r's newest version.
func (x *strategyIndexes) changed(r *Registry) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, e := range x.eager {
		e.kick(r)
	}
}

// kick makes sure that r's newest version gets indexed: by the goroutine
// already building, which looks again when it is done, or by a new one.
func (e *eagerIndex) kick(r *Registry) {
	e.again.Store(true)
	if e.running.CompareAndSwap(false, true) {
		go e.run(r)
	}
}

func (e *eagerIndex) run(r *Registry) {
	for {
		e.again.Store(false)
		snap := r.load()
		e.memo.get(snap, func(snap *snapshot, prev Index) Index { return indexFor(e.st, corpusOf(r, snap), prev) })
		e.running.Store(false)
		// A kick that came after the load either saw running true and set
		// again (seen here), or started a goroutine of its own.
		if !e.again.Load() || !e.running.CompareAndSwap(false, true) {
			return
		}
	}
}

// indexFor returns st's index of c: prev's Update when there is a prev
// (an index of another version of the same registry), else st.Index.
func indexFor(st Strategy, c *Corpus, prev Index) Index {
	if prev != nil {
		return prev.Update(c)
	}
	return st.Index(c)
}

// shareable reports whether st can key a map: a non-comparable strategy
// (one holding a slice, map or function) gets an index per Searcher.
func shareable(st Strategy) bool { return reflect.ValueOf(st).Comparable() }

// memoOf returns the memo holding st's index.
func (x *strategyIndexes) memoOf(st Strategy) *memo[Index] {
	if m, ok := x.m.Load(st); ok {
		return m.(*memo[Index])
	}
	m, _ := x.m.LoadOrStore(st, &memo[Index]{})
	return m.(*memo[Index])
}
