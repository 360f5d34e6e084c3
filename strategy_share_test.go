package toolsearch

import (
	"context"
	"encoding/json"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// eagerStrategy is the hybrid strategy with Input().Eager set. Each index
// it builds is reported on built (its corpus size), after gate lets it go.
type eagerStrategy struct {
	gate  chan struct{} // nil: no wait
	built chan int
	calls atomic.Int32
}

func (*eagerStrategy) Name() string { return "eager" }
func (*eagerStrategy) Input() StrategyInput {
	return StrategyInput{MaxTerms: hybridMaxTerms, Eager: true}
}

func (e *eagerStrategy) Index(c *Corpus) Index { return e.build(c, nil) }

// eagerIndex is the hybrid index of an eagerStrategy.
type eagerStrategyIndex struct {
	Index
	e *eagerStrategy
}

func (x eagerStrategyIndex) Update(c *Corpus) Index { return x.e.build(c, x.Index) }

// build returns the hybrid index of c: prev's Update, or a new one.
func (e *eagerStrategy) build(c *Corpus, prev Index) Index {
	e.calls.Add(1)
	if e.gate != nil {
		<-e.gate
	}
	x := indexFor(HybridStrategy(), c, prev)
	e.built <- c.Len()
	return eagerStrategyIndex{x, e}
}

func receive(t *testing.T, ch <-chan int, what string) int {
	t.Helper()
	select {
	case n := <-ch:
		return n
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		return 0
	}
}

// An eager strategy's index is built in the background when a Searcher is
// made and after every change, without a query; a burst of changes made
// while a build runs is indexed once, at its newest version; queries then
// use that index.
func TestEagerIndex(t *testing.T) {
	reg := strategyRegistry(t)
	deferred := 6 // strategyTools: all but Read
	st := &eagerStrategy{gate: make(chan struct{}), built: make(chan int, 16)}
	s := NewSearcher(reg, &SearchOptions{Strategy: st})
	NewSearcher(reg, &SearchOptions{Strategy: st}) // a second Searcher shares the index and the watch
	for i := range 5 {
		require.NoError(t, reg.Register(Tool{Name: "Extra" + string(rune('A'+i)), ShouldDefer: true}))
	}
	close(st.gate) // the first build, started by NewSearcher, goes on
	first := receive(t, st.built, "the first build")
	assert.True(t, first >= deferred && first <= deferred+5, "the first build indexes the version it loaded (%d tools)", first)
	if first != deferred+5 {
		assert.Equal(t, deferred+5, receive(t, st.built, "the build of the newest version"))
	}
	calls := st.calls.Load()
	assert.LessOrEqual(t, calls, int32(3), "five changes during a build are not five builds")

	res, err := s.Search("issue", 5)
	require.NoError(t, err)
	assert.Contains(t, matchNames(res), "mcp__github__list_issues")
	assert.Equal(t, calls, st.calls.Load(), "the query used the index built in the background")

	// The registry holds the index only weakly: a collection here frees
	// it unless a Searcher that uses it is still reachable, as s is
	// (KeepAlive below); without one, nothing is built after Replace.
	runtime.GC()
	require.NoError(t, reg.Replace(Tool{Name: "ExtraA", Description: "changed", ShouldDefer: true}))
	assert.Equal(t, deferred+5, receive(t, st.built, "the build after Replace"))
	runtime.KeepAlive(s)
}

// Prepare builds the index of the current version once; the next query
// does not build it again.
func TestPrepare(t *testing.T) {
	reg := strategyRegistry(t)
	var builds atomic.Int32
	s := NewSearcher(reg, &SearchOptions{Strategy: &countingStrategy{Strategy: HybridStrategy(), builds: &builds}})
	assert.Equal(t, int32(0), builds.Load(), "a lazy strategy builds nothing when the Searcher is made")
	s.Prepare()
	assert.Equal(t, int32(1), builds.Load())
	s.Prepare()
	_, err := s.Search("issue", 5)
	require.NoError(t, err)
	assert.Equal(t, int32(1), builds.Load(), "Prepare again and a query reuse the index")
	require.NoError(t, reg.Register(Tool{Name: "Extra", ShouldDefer: true}))
	assert.Equal(t, int32(1), builds.Load(), "a change alone builds nothing")
	s.Prepare()
	assert.Equal(t, int32(2), builds.Load(), "Prepare after a change builds the new version")
}

type ctxKey struct{}

// ctxStrategy records the ctxKey value of the context Rank receives.
type ctxStrategy struct{ got atomic.Value }

func (*ctxStrategy) Name() string           { return "ctx" }
func (*ctxStrategy) Input() StrategyInput   { return StrategyInput{} }
func (c *ctxStrategy) Index(*Corpus) Index  { return c }
func (c *ctxStrategy) Update(*Corpus) Index { return c }
func (c *ctxStrategy) Rank(ctx context.Context, _ Query, hits []Hit) ([]Hit, []string, error) {
	v, _ := ctx.Value(ctxKey{}).(string)
	c.got.Store(v)
	return append(hits, Hit{Tool: 0, Score: 1}), nil, nil
}

// The context variants hand their context to the strategy's Rank; the
// others hand it context.Background().
func TestContextVariants(t *testing.T) {
	reg := strategyRegistry(t)
	st := &ctxStrategy{}
	s := NewSearcher(reg, &SearchOptions{Strategy: st})
	sess := NewSession(reg, &SessionOptions{Search: SearchOptions{Strategy: st}})
	ctx := context.WithValue(context.Background(), ctxKey{}, "mine")
	args := json.RawMessage(`{"query":"anything at all"}`)
	for _, c := range []struct {
		name string
		call func() (*Result, error)
		want string
	}{
		{"SearchContext", func() (*Result, error) { return s.SearchContext(ctx, "anything at all", 0) }, "mine"},
		{"CallContext", func() (*Result, error) { return s.CallContext(ctx, args) }, "mine"},
		{"Session.CallContext", func() (*Result, error) { return sess.CallContext(ctx, args) }, "mine"},
		{"Search", func() (*Result, error) { return s.Search("anything at all", 0) }, ""},
		{"Call", func() (*Result, error) { return s.Call(args) }, ""},
		{"Session.Call", func() (*Result, error) { return sess.Call(args) }, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			st.got.Store("unset")
			res, err := c.call()
			require.NoError(t, err)
			assert.Equal(t, FormRanked, res.Form)
			assert.Len(t, res.Matches, 1)
			assert.Equal(t, c.want, st.got.Load())
		})
	}
}
