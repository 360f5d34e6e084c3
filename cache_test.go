package toolsearch

import (
	"encoding/json"
	"errors"
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
