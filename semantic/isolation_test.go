package semantic

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// panicEmbedder panics when embedding the query "boom", and in every
// call when all is set.
type panicEmbedder struct {
	hashEmbedder
	all bool
}

func (e *panicEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.all || len(texts) == 1 && texts[0] == "boom" {
		panic("embedder bug: " + strings.Repeat("x", 1000))
	}
	return e.hashEmbedder.Embed(ctx, texts)
}

// panicStore panics in Put and Flush.
type panicStore struct{ puts atomic.Int32 }

func (*panicStore) Get(Key) ([]float32, bool) { return nil, false }
func (s *panicStore) Put(Key, []float32) error {
	s.puts.Add(1)
	panic("store bug")
}
func (*panicStore) Flush() error { panic("flush bug") }

// errorLog collects what OnError is told.
type errorLog struct {
	mu   sync.Mutex
	errs []string
}

func (l *errorLog) add(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, err.Error())
}

func (l *errorLog) all() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.errs, "\n")
}

// TestUserCodePanicsAreContained: an Embedder, a Store or an OnError that
// panics on one of the Strategy's goroutines does not take the process
// down (without the recovery this test binary dies): a background batch's
// panic is an error (Wait, OnError), a query embedding's is a note, a
// Store's is reported, an OnError's is dropped.
func TestUserCodePanicsAreContained(t *testing.T) {
	var log errorLog
	reg, err := toolsearch.NewRegistry(nil, semanticTools()...)
	require.NoError(t, err)
	st, err := New(&panicEmbedder{hashEmbedder{dims: 8}, true}, &Options{OnError: log.add})
	require.NoError(t, err)
	defer st.Close()
	s := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st})
	s.Prepare()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = st.Wait(ctx)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the Embedder panicked: embedder bug: xxx")
	assert.Less(t, len(err.Error()), 400, "the panic's value is quoted in part")
	assert.Contains(t, log.all(), "the Embedder panicked")

	reg, err = toolsearch.NewRegistry(nil, semanticTools()...)
	require.NoError(t, err)
	st, err = New(&panicEmbedder{hashEmbedder: hashEmbedder{dims: 8}}, nil)
	require.NoError(t, err)
	defer st.Close()
	s = toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st})
	s.Prepare()
	require.NoError(t, st.Wait(ctx))
	res := search(t, s, "boom")
	assert.Equal(t, []string{noteFailed}, res.Notes, "a query embedding that panics ranks by keywords")

	store := &panicStore{}
	f := newFixture(t, newTestEmbedder(), &Options{Store: store, OnError: log.add})
	f.ready(t)
	assert.Positive(t, store.puts.Load())
	assert.Contains(t, log.all(), "the Store's Put panicked: store bug")
	err = f.st.Close()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the Store's Flush panicked: flush bug")

	f = newFixture(t, &testEmbedder{hashEmbedder: hashEmbedder{dims: 8, err: assert.AnError}}, &Options{OnError: func(error) { panic("OnError bug") }})
	f.s.Prepare()
	require.ErrorIs(t, f.st.Wait(ctx), assert.AnError, "a failing batch whose OnError panics")
}

// lateEmbedder holds every batch until gate is closed, ignoring its
// context, then returns its vectors all the same.
type lateEmbedder struct {
	*testEmbedder
	gate chan struct{}
}

func (e *lateEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	if len(texts) > 1 {
		e.calls.Add(1)
		<-e.gate
	}
	return e.hashEmbedder.Embed(context.Background(), texts)
}

// TestCloseIsBounded: Close returns whatever the Embedder does (one that
// ignores its context held it forever), says that it gave up on the
// batch, and the batch's vectors, when they come, are dropped.
func TestCloseIsBounded(t *testing.T) {
	release := make(chan struct{})
	emb := &lateEmbedder{testEmbedder: newTestEmbedder(), gate: release}
	reg, err := toolsearch.NewRegistry(nil, semanticTools()...)
	require.NoError(t, err)
	st, err := New(emb, nil)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	f := &fixture{reg: reg, st: st, s: toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st})}
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	t.Cleanup(unblock) // before the fixture's Close, if this test fails
	f.st.work.closeWait = 50 * time.Millisecond
	f.s.Prepare()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for emb.calls.Load() == 0 { // until the batch is in Embed
		<-tick.C
	}
	done := make(chan error, 1)
	go func() { done <- f.st.Close() }()
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waits for an Embedder that ignores its context")
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the Embedder did not return within 50ms")
	unblock()
	f.st.work.wg.Wait() // the abandoned batch ends
	assert.Equal(t, []string{noteNoVectors}, search(t, f.s, "git status").Notes, "the abandoned batch's vectors are dropped")
}
