package toolsearch

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/toolsearch/toolsearch/internal/schema"
	"github.com/toolsearch/toolsearch/internal/text"
	"github.com/toolsearch/toolsearch/internal/words"
)

// entry is a registered tool with everything derived from it. It is built
// once when the tool is registered and shared by every snapshot until the
// tool is replaced by a different definition or removed, so the derived data
// is computed once per tool, not once per search or per snapshot.
type entry struct {
	tool      Tool
	lowerName string
	parts     []string       // name parts (scoring.go)
	desc      text.Lowered   // the description, for the word rules
	hint      text.Lowered   // the search hint, likewise
	lim       *schema.Limits // the registry's schema limits when it was registered; shared

	lazyData atomic.Pointer[lazyData] // made on first use (lazy)

	// Small fields last, packed into one word (the entry is 256 bytes).
	slot      int32 // place in the newest snapshot's index (index.go); set by writers only
	isMCP     bool  // from an MCP server (deferral, pool order)
	scoresMCP bool  // name starts with mcp__ (scoring weights)
	deferred  bool
	upper     bool // the name has an uppercase letter (lowerName differs)
}

// lazyData is what an entry computes only when it is first asked for: most
// tools of a large registry are never loaded or called, so the entry does
// not carry room for it.
type lazyData struct {
	schemaOnce sync.Once
	schema     json.RawMessage // compact JSON
	schemaErr  error
	plain      bool   // schema has nothing json.Marshal escapes (Result.JSON copies it)
	nameJSON   []byte // the name and description as JSON strings, for Result.JSON
	descJSON   []byte

	// The compiled input schema, for the call guard (guard.go).
	validatorOnce sync.Once
	validator     *schema.Validator
	validatorErr  error
}

// lazy returns e's lazyData, made by the first caller.
func (e *entry) lazy() *lazyData {
	if l := e.lazyData.Load(); l != nil {
		return l
	}
	e.lazyData.CompareAndSwap(nil, &lazyData{})
	return e.lazyData.Load()
}

func newEntry(t *Tool) *entry { return newEntryShared(t, slices.Clone(t.InputSchema)) }

// newEntryShared is newEntry with schema, equal to t.InputSchema, kept as
// the tool's schema without a copy: it must never be changed.
func newEntryShared(t *Tool, schema json.RawMessage) *entry {
	c := *t
	c.Aliases = slices.Clone(t.Aliases)
	c.InputSchema = schema
	e := &entry{
		tool:      c,
		isMCP:     c.isMCP(),
		deferred:  c.Deferred(),
		lowerName: words.Lower(c.Name),
		desc:      text.NewLowered(c.Description),
		hint:      text.NewLowered(c.SearchHint),
	}
	e.upper = e.lowerName != c.Name
	e.parts, e.scoresMCP = nameParts(c.Name)
	return e
}

// sameAs reports whether f was built from the same definition as e, so that
// e's derived data (and its loaded schema) can be kept.
func (e *entry) sameAs(f *entry) bool {
	a, b := &e.tool, &f.tool
	return a.Name == b.Name && a.Description == b.Description && a.SearchHint == b.SearchHint &&
		a.ShouldDefer == b.ShouldDefer && a.AlwaysLoad == b.AlwaysLoad && a.Server == b.Server &&
		a.MCPName == b.MCPName && slices.Equal(a.Aliases, b.Aliases) &&
		bytes.Equal(a.InputSchema, b.InputSchema) && a.LoadSchema == nil && b.LoadSchema == nil
}

// copyTool returns a copy of the tool that shares nothing with the entry.
func (e *entry) copyTool() Tool {
	t := e.tool
	t.Aliases = slices.Clone(t.Aliases)
	t.InputSchema = slices.Clone(t.InputSchema)
	return t
}

// limits returns the schema limits e was registered under (the defaults
// for an entry built outside a registry).
func (e *entry) limits() *schema.Limits {
	if e.lim == nil {
		return &schema.DefaultLimits
	}
	return e.lim
}
