package toolsearch

import (
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lazyTool returns a deferred tool whose schema is supplied lazily, and the
// counter of LoadSchema calls.
func lazyTool(name, desc string) (Tool, *atomic.Int32) {
	var calls atomic.Int32
	return Tool{
		Name: name, Description: desc, ShouldDefer: true,
		LoadSchema: func() (json.RawMessage, error) {
			calls.Add(1)
			return json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`), nil
		},
	}, &calls
}

func TestLazySchemaLoadedOnceAcrossSearches(t *testing.T) {
	tool, calls := lazyTool("Lazy", "A lazy report tool.")
	r, err := NewRegistry(nil, tool, Tool{Name: "Other", Description: "another report tool", ShouldDefer: true})
	require.NoError(t, err)
	s := NewSearcher(r, nil)

	search(t, s, "other", 0)
	assert.Equal(t, int32(0), calls.Load(), "not loaded until the tool is returned")
	for range 100 {
		res := search(t, s, "report", 0)
		require.Len(t, res.Matches, 2)
		assert.JSONEq(t, `{"type":"object","properties":{"x":{"type":"string"}}}`, string(res.Matches[0].Schema))
	}
	search(t, s, "select:Lazy", 0)
	assert.Equal(t, int32(1), calls.Load(), "LoadSchema is called at most once")

	// A change elsewhere in the deferred set invalidates the prompt texts but
	// not this tool's derived data.
	before := deferredBlock(s)
	require.NoError(t, r.Register(Tool{Name: "New", ShouldDefer: true}))
	assert.NotEqual(t, before, deferredBlock(s), "the deferred block is rebuilt when the set changes")
	assert.Contains(t, deferredBlock(s), "\nNew\n")
	search(t, s, "report", 0)
	assert.Equal(t, int32(1), calls.Load(), "an unchanged tool keeps its loaded schema")
}

func TestReplaceInvalidatesDerivedData(t *testing.T) {
	tool, calls := lazyTool("Lazy", "Export a report.")
	r, err := NewRegistry(nil, tool)
	require.NoError(t, err)
	s := NewSearcher(r, nil)
	assert.Equal(t, []string{"Lazy"}, matchNames(search(t, s, "report", 0)))
	assert.Equal(t, int32(1), calls.Load())

	// Same name, new description: the old words no longer match, the new do.
	tool2, calls2 := lazyTool("Lazy", "Print an invoice.")
	require.NoError(t, r.Replace(tool2))
	assert.Empty(t, search(t, s, "report", 0).Matches)
	assert.Equal(t, []string{"Lazy"}, matchNames(search(t, s, "invoice", 0)))
	assert.Equal(t, int32(1), calls2.Load(), "the replacement's schema is loaded anew")

	// New hint.
	require.NoError(t, r.Replace(Tool{Name: "Lazy", Description: "Print an invoice.", SearchHint: "billing", ShouldDefer: true}))
	assert.Equal(t, []hit{{"Lazy", 4}}, hits(search(t, s, "billing", 0)))

	// New schema under the same name.
	require.NoError(t, r.Replace(Tool{Name: "Lazy", ShouldDefer: true, InputSchema: json.RawMessage(`{"type":"object","required":["a"]}`)}))
	assert.JSONEq(t, `{"type":"object","required":["a"]}`, string(search(t, s, "select:Lazy", 0).Matches[0].Schema))
}

func TestUnchangedReplaceKeepsDerivedData(t *testing.T) {
	tool := Tool{Name: "T", Description: "d", InputSchema: json.RawMessage(testSchema), ShouldDefer: true}
	r, err := NewRegistry(nil, tool)
	require.NoError(t, err)
	e1 := r.load().named("T")
	require.NoError(t, r.Replace(tool))
	assert.Same(t, e1, r.load().named("T"), "an identical definition keeps its entry")
	tool.Description = "e"
	require.NoError(t, r.Replace(tool))
	assert.NotSame(t, e1, r.load().named("T"), "a changed definition gets a new entry")
}

func TestLazySchemaFailureIsReported(t *testing.T) {
	r, err := NewRegistry(nil,
		Tool{Name: "Broken", Description: "report", ShouldDefer: true, LoadSchema: func() (json.RawMessage, error) {
			return nil, errors.New("server gone")
		}},
		Tool{Name: "Invalid", Description: "report", ShouldDefer: true, LoadSchema: func() (json.RawMessage, error) {
			return json.RawMessage(`{"$ref":"https://example.com/x"}`), nil
		}},
		Tool{Name: "Fine", Description: "report", ShouldDefer: true},
	)
	require.NoError(t, err)
	res := search(t, NewSearcher(r, nil), "report", 0)
	assert.Equal(t, []string{"Fine"}, matchNames(res))
	require.Len(t, res.Notes, 2)
	assert.Contains(t, res.Notes[0], `Broken was left out: load schema of "Broken": server gone`)
	assert.Contains(t, res.Notes[1], `Invalid was left out`)
	assert.Contains(t, res.Notes[1], `refusing to load an external document`)
}

func TestPromptTextsAreCachedPerSnapshot(t *testing.T) {
	r := specPool(t)
	s := NewSearcher(r, nil)
	a := s.SystemPromptSection()
	allocs := testing.AllocsPerRun(100, func() {
		_ = s.SystemPromptSection()
		_ = deferredBlock(s)
	})
	assert.Zero(t, allocs, "rendering for an unchanged registry allocates nothing")
	require.Equal(t, 1, r.Remove("WebFetch"))
	assert.NotEqual(t, a, s.SystemPromptSection())
	assert.NotContains(t, s.SystemPromptSection(), "WebFetch")
}

// TestEntrySize keeps the per-tool entry in the 256-byte size class: it is
// allocated once per registered tool (BenchmarkHeap measures the whole).
func TestEntrySize(t *testing.T) {
	assert.LessOrEqual(t, unsafe.Sizeof(entry{}), uintptr(256))
}

// memoRun is a memo of strings over three snapshots: its build returns
// "v1", "v2" or "v3" for the snapshot, and records the prev it got.
type memoRun struct {
	m          memo[string]
	s1, s2, s3 *snapshot
	prevOf     map[*snapshot]string
	made       map[*snapshot]int
}

func newMemoRun(t *testing.T) *memoRun {
	t.Helper()
	r := &memoRun{s1: &snapshot{}, s2: &snapshot{}, s3: &snapshot{}, prevOf: map[*snapshot]string{}, made: map[*snapshot]int{}}
	require.Equal(t, "v1", r.m.get(r.s1, r.build))
	return r
}

func (r *memoRun) build(snap *snapshot, prev string) string {
	r.prevOf[snap] = prev
	r.made[snap]++
	return map[*snapshot]string{r.s1: "v1", r.s2: "v2", r.s3: "v3"}[snap]
}

// A memo's value for a snapshot gets the previous snapshot's value as
// prev whichever caller makes it: the caller that stored the new state
// may be overtaken by another caller for the same snapshot before it
// makes it (the semantic strategy then lost its table of vectors and
// embedded every tool again).
func TestMemoPrevWhenOvertaken(t *testing.T) {
	r := newMemoRun(t)
	st := r.m.state(r.s2) // stored, not made yet
	assert.Equal(t, "v2", r.m.get(r.s2, r.build), "the caller that overtook")
	assert.Equal(t, "v1", r.prevOf[r.s2])
	v, ok := st.made(r.build)
	assert.True(t, ok)
	assert.Equal(t, "v2", v, "the caller that stored the state")
	assert.Equal(t, 1, r.made[r.s2], "the value is made once")
}

// A caller for a newer snapshot that finds the state before it not made
// yet makes that value first, and takes it as prev.
func TestMemoPrevMadeForTheNext(t *testing.T) {
	r := newMemoRun(t)
	st := r.m.state(r.s2) // stored, not made yet
	assert.Equal(t, "v3", r.m.get(r.s3, r.build))
	assert.Equal(t, "v2", r.prevOf[r.s3], "prev of the newer snapshot's value")
	assert.Equal(t, "v1", r.prevOf[r.s2], "prev of the value made for the newer one")
	v, ok := st.made(r.build)
	assert.True(t, ok)
	assert.Equal(t, "v2", v, "the caller that stored the state")
	assert.Equal(t, 1, r.made[r.s2], "the value is made once")
}

// Callers that ask for an older snapshot again chain on the newest value:
// every value's prev is the one asked for just before it.
func TestMemoPrevOfAnOlderSnapshot(t *testing.T) {
	r := newMemoRun(t)
	r.m.get(r.s2, r.build)
	assert.Equal(t, "v1", r.m.get(r.s1, r.build))
	assert.Equal(t, "v2", r.prevOf[r.s1])
	assert.Equal(t, 2, r.made[r.s1])
}

// A caller for a newer snapshot waits for the making of the value before
// it, and gets it as prev.
func TestMemoPrevWaitsForAMake(t *testing.T) {
	var m memo[string]
	s1, s2 := &snapshot{}, &snapshot{}
	making, release := make(chan struct{}), make(chan struct{})
	done := make(chan string)
	go func() {
		done <- m.get(s1, func(*snapshot, string) string { close(making); <-release; return "v1" })
	}()
	<-making
	got := make(chan string)
	go func() { m.get(s2, func(_ *snapshot, prev string) string { got <- prev; return "v2" }) }()
	close(release)
	assert.Equal(t, "v1", <-done)
	assert.Equal(t, "v1", <-got, "prev of the newer value: the one being made")
}

// Once made, a state lets go of the state before it.
func TestMemoDropsPrevOnceMade(t *testing.T) {
	r := newMemoRun(t)
	r.m.get(r.s2, r.build)
	assert.Nil(t, r.m.cur.Load().prev)
}

// Callers racing on different snapshots (run with -race): only the first
// value made has no prev.
func TestMemoChainsUnderContention(t *testing.T) {
	var m memo[int]
	var mu sync.Mutex
	noPrev, n := 0, 0
	build := func(_ *snapshot, prev int) int {
		mu.Lock()
		defer mu.Unlock()
		if prev == 0 {
			noPrev++
		}
		n++
		return n
	}
	snaps := make([]*snapshot, 8)
	for i := range snaps {
		snaps[i] = &snapshot{}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				m.get(snaps[(g+i)%len(snaps)], build)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 1, noPrev, "values made without a prev, of %d", n)
}
