package toolsearch

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// perSession is a user strategy allocated per Session (&perSession{…}):
// a comparable value, distinct every time.
type perSession struct{ Strategy }

// eagerPerSession is one whose index is built in the background.
type eagerPerSession struct{ Strategy }

func (e *eagerPerSession) Input() StrategyInput {
	in := e.Strategy.Input()
	in.Eager = true
	return in
}

// sharedIndexes counts the memos and eager watches x still holds.
func sharedIndexes(x *strategyIndexes) (memos, eager int) {
	x.m.Range(func(any, any) bool { memos++; return true })
	x.mu.Lock()
	defer x.mu.Unlock()
	return memos, len(x.eager)
}

func heapAfterGC() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC() // the second cycle frees what the first one's cleanups let go
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestUnusedIndexesAreFreed: 1,000 short-lived Searchers and Sessions, each
// with a strategy of its own (distinct BM25 options, a user strategy
// allocated per Session, eager or not), leave the heap where it started:
// an index is freed once no Searcher uses it. Each index here is about
// 100 KB, so keeping them would hold some 100 MB.
func TestUnusedIndexesAreFreed(t *testing.T) {
	tools := make([]Tool, 300)
	for i := range tools {
		tools[i] = Tool{Name: fmt.Sprintf("mcp__srv__read_file_%d", i), Description: fmt.Sprintf("read the file number %d of the project", i), Server: "srv"}
	}
	reg, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	search := func(s *Searcher) {
		_, err := s.Search("read file", 5)
		require.NoError(t, err)
	}
	search(NewSearcher(reg, nil))
	before := heapAfterGC()
	for i := range 1000 {
		var st Strategy
		switch i % 3 {
		case 0:
			st = BM25Strategy(&BM25Options{K1: 1 + float64(i)/1000})
		case 1:
			st = &perSession{BM25Strategy(nil)}
		default:
			st = &eagerPerSession{BM25Strategy(nil)}
		}
		if i%2 == 0 {
			search(NewSearcher(reg, &SearchOptions{Strategy: st}))
		} else {
			search(NewSession(reg, &SessionOptions{Search: SearchOptions{Strategy: st}}).searcher)
		}
	}
	after := heapAfterGC()
	// The cleanups run on a goroutine of their own, whenever it is
	// scheduled: wait for them for up to 10 s (20 rounds of Gosched, as
	// before, assumed it would run within them), then check.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if m, e := sharedIndexes(&reg.indexes); m == 0 && e == 0 {
			break
		}
		time.Sleep(time.Millisecond)
		after = heapAfterGC()
	}
	t.Logf("heap: %d bytes before, %d after 1,000 short-lived Searchers", before, after)
	require.Less(t, after, before+16<<20, "heap after 1,000 short-lived Searchers: %d bytes, before: %d", after, before)
	memos, eager := sharedIndexes(&reg.indexes)
	require.Zero(t, memos, "memos of strategies no Searcher uses")
	require.Zero(t, eager, "eager watches of strategies no Searcher uses")
	search(NewSearcher(reg, &SearchOptions{Strategy: BM25Strategy(&BM25Options{K1: 1})})) // a memo freed is made again
}

// TestEagerIndexPanicIsContained: a Strategy whose Index panics on the
// registry's background goroutine does not take the process down (without
// the recovery, this test binary dies); the memo keeps no index, and the
// next query builds it on its own goroutine, where the panic reaches the
// caller.
func TestEagerIndexPanicIsContained(t *testing.T) {
	reg := strategyRegistry(t)
	built := make(chan int)
	close(built) // eagerStrategy's Index sends on it: a panic
	st := &eagerStrategy{built: built}
	first := NewSearcher(reg, &SearchOptions{Strategy: st}) // starts the eager build
	require.NoError(t, reg.Register(Tool{Name: "Extra", ShouldDefer: true}))
	waitEagerIdle(t, reg, func() bool { return st.calls.Load() >= 1 })
	s := NewSearcher(reg, &SearchOptions{Strategy: st})
	require.Panics(t, func() { _, _ = s.Search("issue", 5) }, "the query builds the index itself, and its panic is the caller's")
	waitEagerIdle(t, reg, func() bool { return true })
	runtime.KeepAlive(first) // (the registry holds the index only weakly: a collection would free it)
}

// waitEagerIdle waits until ready holds and no eager build runs.
func waitEagerIdle(t *testing.T, reg *Registry, ready func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		idle := true
		reg.indexes.mu.Lock()
		for _, e := range reg.indexes.eager {
			idle = idle && !e.running.Load()
		}
		reg.indexes.mu.Unlock()
		if idle && ready() {
			return
		}
		runtime.Gosched()
	}
	t.Fatal("the eager build did not end")
}
