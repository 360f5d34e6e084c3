package toolsearch

import (
	"encoding/json"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/internal/text"
)

// Registration in two steps. build checks a batch of tools on its own and
// builds their entries (the expensive part: compiling schemas, deriving
// name parts and word runs) with no lock held, so that readers and the
// writers of other servers never wait for it; admit then checks the batch
// against the registry under the writer lock, which commit publishes.

// batch is a built batch of tools: for each tool given, its entry or the
// error that refused it.
type batch struct {
	entries []*entry
	errs    []error
}

// build checks tools (their names, limits, schemas, and names repeated
// within the batch) and builds their entries.
func (r *Registry) build(tools []Tool) *batch {
	b := &batch{entries: make([]*entry, len(tools)), errs: make([]error, len(tools))}
	taken := make(map[string]string, len(tools)) // name or alias → owner, within this batch
	lim := r.registryLimits()
	tools = validTexts(tools)
	slim := lim.schemaLimits() // shared by the entries of the batch
	schemas, schemaErrs := r.checkSchemas(tools, slim)
	ok := make([]bool, len(tools))
	for i := range tools {
		t := &tools[i]
		if err := validateTool(t, lim, schemaErrs[i]); err != nil {
			b.errs[i] = err
			continue
		}
		var dup []string
		for n := range namesOf(t) {
			if owner, ok := taken[n]; ok {
				dup = append(dup, fmt.Sprintf("%q is also given for %q in the same call", n, owner))
			}
		}
		if len(dup) > 0 {
			b.errs[i] = wrapf(errorf(ErrDuplicateTool, "%s", strings.Join(dup, "; ")), "register %q", t.Name)
			continue
		}
		for n := range namesOf(t) {
			taken[n] = t.Name
		}
		ok[i] = true
	}
	// The entries (name parts, word runs) of a large batch are built on
	// several goroutines.
	each(len(tools), func(i int) {
		if ok[i] {
			e := newEntryShared(&tools[i], schemas[i])
			e.lim = slim
			b.entries[i] = e
		}
	})
	if builtHook != nil {
		builtHook()
	}
	return b
}

// namesOf yields t's name, then its aliases.
func namesOf(t *Tool) iter.Seq[string] {
	return func(yield func(string) bool) {
		if !yield(t.Name) {
			return
		}
		for _, a := range t.Aliases {
			if !yield(a) {
				return
			}
		}
	}
}

// each calls fn(i) for every i < n: in chunks on GOMAXPROCS goroutines when
// n is at least parallelBuild, else in order on this one.
func each(n int, fn func(i int)) {
	if n < parallelBuild || runtime.GOMAXPROCS(0) < 2 {
		for i := range n {
			fn(i)
		}
		return
	}
	const chunk = 1024
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for lo := int(next.Add(chunk)) - chunk; lo < n; lo = int(next.Add(chunk)) - chunk {
				for i := lo; i < min(lo+chunk, n); i++ {
					fn(i)
				}
			}
		})
	}
	wg.Wait()
}

// builtHook and publishHook, when set (by tests only), are called at the end
// of build (no lock held) and at the start of publish (the writer lock
// held).
var builtHook, publishHook func()

// admit checks the built entries of b against the registry: a name or alias
// taken by a registered tool is refused, unless its owner is in ignore (a
// server's old tools) or, with replace, is the tool itself. It returns the
// entries to commit and every error of the batch, in input order. r.mu
// must be held.
func (r *Registry) admit(b *batch, replace bool, ignore map[string]bool) (built []*entry, errs []error) {
	built = make([]*entry, 0, len(b.entries))
	for i, e := range b.entries {
		if e == nil {
			errs = append(errs, b.errs[i])
			continue
		}
		t := &e.tool
		var dup []string
		for _, n := range append([]string{t.Name}, t.Aliases...) {
			if owner, ok := r.owner(n); ok && !ignore[owner] && !(replace && owner == t.Name) {
				dup = append(dup, fmt.Sprintf("%q is taken by %s", n, describe(r.tools[owner])))
			}
		}
		if len(dup) > 0 {
			errs = append(errs, wrapf(errorf(ErrDuplicateTool, "%s", strings.Join(dup, "; ")), "register %q", t.Name))
			continue
		}
		if old := r.tools[t.Name]; old != nil && old.sameAs(e) {
			e = old // unchanged: keep derived data and any loaded schema
		}
		built = append(built, e)
	}
	return built, errs
}

// describe names a registered tool in an error: its name and, for an MCP
// tool, its server and raw name.
func describe(e *entry) string {
	if e.tool.Server == "" {
		return strconv.Quote(e.tool.Name)
	}
	return fmt.Sprintf("%q (tool %q of server %q)", e.tool.Name, text.Echo(e.tool.MCPName), e.tool.Server)
}

// validTexts returns tools with every byte of invalid UTF-8 in a
// description, search hint or input schema replaced by U+FFFD, as a JSON
// decoder reads it, so that every text the package writes is valid UTF-8.
// tools is not changed: it is returned as it is when every text is valid,
// else a copy is.
func validTexts(tools []Tool) []Tool {
	var out []Tool
	for i := range tools {
		t := &tools[i]
		if utf8.ValidString(t.Description) && utf8.ValidString(t.SearchHint) && utf8.Valid(t.InputSchema) {
			continue
		}
		if out == nil {
			out = slices.Clone(tools)
		}
		c := &out[i]
		c.Description, c.SearchHint = text.ValidUTF8(c.Description), text.ValidUTF8(c.SearchHint)
		if !utf8.Valid(c.InputSchema) {
			c.InputSchema = json.RawMessage(text.ValidUTF8(string(c.InputSchema)))
		}
	}
	if out == nil {
		return tools
	}
	return out
}

// validateTool checks the name, aliases and description of t against lim,
// and reports schemaErr, the result of checking its schema (checkSchemas).
func validateTool(t *Tool, lim *RegistryOptions, schemaErr error) error {
	if err := checkName(t.Name); err != nil {
		return wrapf(err, "register %q", t.Name)
	}
	for _, a := range t.Aliases {
		if err := checkName(a); err != nil {
			return wrapf(err, "register %q: alias %q", t.Name, a)
		}
	}
	if n := len(t.Description); n > lim.MaxDescriptionBytes {
		return wrapf(errorf(ErrLimit, "the description is %d bytes, the limit is %d", n, lim.MaxDescriptionBytes), "register %q", t.Name)
	}
	if n := len(t.SearchHint); n > lim.MaxHintBytes {
		return wrapf(errorf(ErrLimit, "the search hint is %d bytes, the limit is %d", n, lim.MaxHintBytes), "register %q", t.Name)
	}
	if t.Err != nil {
		return wrapf(t.Err, "register %q", t.Name)
	}
	if schemaErr != nil {
		return wrapf(schemaErr, "register %q", t.Name)
	}
	return nil
}
