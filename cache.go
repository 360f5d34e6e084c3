package toolsearch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// entry is a registered tool with everything derived from it. It is built
// once when the tool is registered and shared by every snapshot until the
// tool is replaced by a different definition or removed, so the derived data
// is computed once per tool, not once per search or per snapshot.
type entry struct {
	tool      Tool
	lowerName string
	parts     []string  // name parts (scoring.go)
	desc      lowerText // the description, for the word rules
	hint      lowerText // the search hint, likewise
	lim       *Limits   // registration-side limits in force when it was registered; shared

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

	// The compiled input schema, for the call guard (guard.go).
	validatorOnce sync.Once
	validator     *jsonschema.Schema
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
		isMCP:     c.IsMCP(),
		deferred:  c.Deferred(),
		lowerName: lower(c.Name),
		desc:      newText(c.Description),
		hint:      newText(c.SearchHint),
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

// limits returns the registration-side limits e was registered under (the
// defaults for an entry built outside a registry).
func (e *entry) limits() *Limits {
	if e.lim == nil {
		return &Limits{}
	}
	return e.lim
}

var defaultSchema = json.RawMessage(`{"type":"object"}`)

// loadSchema returns the tool's input schema as compact JSON. A lazy
// LoadSchema is called at most once; its result is validated like a schema
// given at registration.
func (e *entry) loadSchema() (json.RawMessage, error) {
	l := e.lazy()
	l.schemaOnce.Do(func() {
		raw := e.tool.InputSchema
		if len(raw) == 0 && e.tool.LoadSchema != nil {
			var err error
			if raw, err = e.tool.LoadSchema(); err != nil {
				l.schemaErr = fmt.Errorf("load schema of %q: %w", e.tool.Name, err)
				return
			}
			if err := checkSchema(raw, e.limits()); err != nil {
				l.schemaErr = fmt.Errorf("load schema of %q: %w", e.tool.Name, err)
				return
			}
		}
		if len(raw) == 0 {
			raw = defaultSchema
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil { // validated already
			l.schemaErr = fmt.Errorf("schema of %q: %w: %v", e.tool.Name, ErrInvalidSchema, err)
			return
		}
		l.schema = buf.Bytes()
	})
	return l.schema, l.schemaErr
}

// textCache holds the prompt texts rendered from one snapshot. Each is
// built on first use and then returned as is, so rendering the prompt for an
// unchanged registry does no work and allocates nothing.
type textCache struct {
	once    sync.Once
	section string // system-prompt section
	block   string // <available-deferred-tools> block
	names   []string
}

// fill renders the texts for the deferred tools of s that in accepts.
func (c *textCache) fill(s *snapshot, in func(*entry) bool) {
	c.once.Do(func() {
		c.names = make([]string, 0, len(s.deferred))
		for _, e := range s.deferred {
			if in(e) {
				c.names = append(c.names, e.tool.Name)
			}
		}
		c.names = sortNames(c.names)
		c.section = renderSection(c.names)
		c.block = renderBlock(c.names)
	})
}

// scopedTexts are the prompt texts of a scoped Searcher for one snapshot.
type scopedTexts struct {
	snap  *snapshot
	texts textCache
}

// texts returns the prompt texts of the Searcher's view of snap: the
// snapshot's own for an unscoped Searcher, else rendered once per snapshot
// and kept by the Searcher.
func (s *Searcher) texts(snap *snapshot) *textCache {
	if s.opts.Scope == nil {
		snap.texts.fill(snap, everything)
		return &snap.texts
	}
	st := s.scoped.Load()
	if st == nil || st.snap != snap {
		st = &scopedTexts{snap: snap}
		s.scoped.Store(st)
	}
	st.texts.fill(snap, s.in)
	return &st.texts
}

// sortNames sorts names taken in pool order: two sorted runs (tools not
// from MCP servers, then MCP tools), merged in one pass.
func sortNames(names []string) []string {
	split := 1
	for split < len(names) && names[split-1] <= names[split] {
		split++
	}
	if split >= len(names) {
		return names
	}
	a, b := names[:split], names[split:]
	if !slices.IsSorted(b) {
		slices.Sort(names)
		return names
	}
	out := make([]string, 0, len(names))
	for len(a) > 0 && len(b) > 0 {
		if b[0] < a[0] {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}
