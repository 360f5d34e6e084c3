package toolsearch

import (
	"reflect"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"weak"
)

// An index is built once per registry version and strategy value: the
// registry keeps one memo per comparable Strategy, shared by its Searchers
// and Sessions, and builds the index of an Eager strategy in the
// background as soon as a version is published.
//
// The Searchers hold their memo; the registry holds it only weakly, so
// that a memo (its index, and the eager watch of it) is freed once no
// Searcher uses it: a strategy value made per Session does not pile up.

// strategyIndexes are the indexes of the comparable strategies used with
// one registry, one memo per strategy value, shared by its Searchers and
// Sessions.
type strategyIndexes struct {
	m sync.Map // Strategy → weak.Pointer[memo[Index]]

	mu    sync.Mutex
	eager []*eagerIndex // the memos of the strategies whose Input says Eager
}

// eagerIndex builds the index of an Eager strategy for the newest registry
// version, on one goroutine at a time that ends when it is done.
type eagerIndex struct {
	st      Strategy
	memo    weak.Pointer[memo[Index]]
	running atomic.Bool // a goroutine is building
	again   atomic.Bool // a version was published since it last looked
}

// watch makes st's index (held by m) eager, once per strategy value.
func (x *strategyIndexes) watch(st Strategy, m *memo[Index]) *eagerIndex {
	wm := weak.Make(m)
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, e := range x.eager {
		if e.memo == wm {
			return e
		}
	}
	e := &eagerIndex{st: st, memo: wm}
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
		m := e.memo.Value()
		if m == nil { // no Searcher uses it any more
			return
		}
		e.build(m, r, snap)
		e.running.Store(false)
		// A kick that came after the load either saw running true and set
		// again (seen here), or started a goroutine of its own.
		if !e.again.Load() || !e.running.CompareAndSwap(false, true) {
			return
		}
	}
}

// build builds m's index of snap. A Strategy whose Index panics cannot
// take the process down from this goroutine: the panic is dropped, the
// memo keeps no index, and the next query builds it again on its own
// goroutine, where a panic reaches the application as any panic of its
// own code does.
func (e *eagerIndex) build(m *memo[Index], r *Registry, snap *snapshot) {
	defer func() { _ = recover() }()
	m.get(snap, func(snap *snapshot, prev Index) Index { return indexFor(e.st, corpusOf(r, snap), prev) })
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

// memoOf returns the memo holding st's index, made when no Searcher holds
// one any more.
func (x *strategyIndexes) memoOf(st Strategy) *memo[Index] {
	for {
		old, ok := x.m.Load(st)
		if ok {
			if m := old.(weak.Pointer[memo[Index]]).Value(); m != nil {
				return m
			}
		}
		m := &memo[Index]{}
		wm := weak.Make(m)
		if ok && x.m.CompareAndSwap(st, old, wm) || !ok && !loaded(x.m.LoadOrStore(st, wm)) {
			runtime.AddCleanup(m, x.forget, sharedKey{st, wm})
			return m
		}
	}
}

func loaded(_ any, loaded bool) bool { return loaded }

// sharedKey names one memo of strategyIndexes.
type sharedKey struct {
	st Strategy
	wm weak.Pointer[memo[Index]]
}

// forget drops the entries of a memo that was freed.
func (x *strategyIndexes) forget(k sharedKey) {
	x.m.CompareAndDelete(k.st, k.wm)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.eager = slices.DeleteFunc(x.eager, func(e *eagerIndex) bool { return e.memo == k.wm })
}
