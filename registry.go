package toolsearch

import (
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// ServerStatus is the connection state of an MCP server.
type ServerStatus int

const (
	// ServerConnected: the server's tools are available. It is the status of
	// a server the Registry has not been told about.
	ServerConnected ServerStatus = iota
	// ServerPending: the server is still connecting. Its tools are not
	// available yet and its name is reported with search results.
	ServerPending
	// ServerDisconnected: the server went away. Its tools are kept but not
	// available until it is connected again.
	ServerDisconnected
)

// String returns "connected", "pending" or "disconnected".
func (s ServerStatus) String() string {
	switch s {
	case ServerPending:
		return "pending"
	case ServerDisconnected:
		return "disconnected"
	}
	return "connected"
}

// The defaults of RegistryOptions.
const (
	defaultMaxSchemaBytes      = 64 << 10 // bytes in one tool's input schema
	defaultMaxSchemaDepth      = 64       // nesting of objects and arrays in one schema
	defaultMaxDescriptionBytes = 16 << 10 // bytes in one tool's description
	defaultMaxSchemaWork       = 10_000   // subschemas applied to one value when validating
)

// RegistryOptions bound what a tool definition (from an MCP server, say)
// can make the Registry do. A nil *RegistryOptions means the defaults; a
// zero or negative field means that field's default. They are fixed when
// the Registry is made; the zero Registry uses the defaults. A tool over a
// limit is refused with an error naming it and wrapping ErrLimit (and
// ErrInvalidSchema for a schema); the limits apply to lazy schemas
// (Tool.LoadSchema) when they are loaded.
type RegistryOptions struct {
	// MaxSchemaBytes is the largest input schema accepted, in bytes.
	// Default 64 KiB.
	MaxSchemaBytes int
	// MaxSchemaDepth is the deepest nesting of JSON objects and arrays an
	// input schema may have ({} is depth 1). It is checked before the
	// schema is compiled, so a deep schema costs one scan of its bytes.
	// Default 64.
	MaxSchemaDepth int
	// MaxSchemaWork bounds the work of validating arguments against an
	// input schema (Session.CheckCall does): the most subschemas that
	// validation may apply to any one value of the arguments, following
	// $ref, allOf, anyOf, oneOf and the like, for arguments nested up to
	// 64 levels. It is computed when the schema is compiled. A schema whose
	// references fan out (a chain of anyOf pairs referring to the next pair
	// costs 2ⁿ, and a recursive one 2 to the power of the arguments' depth)
	// is refused rather than hang a validation later. Real schemas stay far
	// below the default: at most 13 among the 6,334 schemas of
	// testdata/bench. Default 10,000.
	MaxSchemaWork int
	// MaxDescriptionBytes is the longest description accepted, in bytes: it
	// bounds the text every keyword search scans per tool. A longer one is
	// refused (wrapping ErrLimit only): the description is what the model
	// reads to choose the tool, so cutting it for matching alone would
	// change search results without anyone being told. Default 16 KiB.
	// NewMCPTool already cuts MCP descriptions at 2,048 characters,
	// visibly.
	MaxDescriptionBytes int
}

// withDefaults returns o with every zero or negative field set to its
// default.
func (o *RegistryOptions) withDefaults() RegistryOptions {
	var r RegistryOptions
	if o != nil {
		r = *o
	}
	r.MaxSchemaBytes = orDefault(r.MaxSchemaBytes, defaultMaxSchemaBytes)
	r.MaxSchemaDepth = orDefault(r.MaxSchemaDepth, defaultMaxSchemaDepth)
	r.MaxSchemaWork = orDefault(r.MaxSchemaWork, defaultMaxSchemaWork)
	r.MaxDescriptionBytes = orDefault(r.MaxDescriptionBytes, defaultMaxDescriptionBytes)
	return r
}

// Registry holds tool definitions. The zero value is an empty registry with
// the default RegistryOptions, ready to use. A Registry is safe for
// concurrent use: readers work on an immutable snapshot published
// atomically and never wait for writers; writers are serialized. A Registry
// must not be copied after first use.
type Registry struct {
	mu      sync.Mutex // serializes writers
	tools   map[string]*entry
	owners  map[string]string // name or alias → tool name
	servers map[string]ServerStatus
	snap    atomic.Pointer[snapshot]
	limits  *RegistryOptions // with defaults; nil until first used (the zero Registry)
	scratch scratchPool      // per-query score arrays, shared by the snapshots
	hitBufs sync.Pool        // per-query hit buffers
	schemas schemaCache      // schemas known to be valid
	indexes strategyIndexes  // the strategies' indexes of the newest snapshot
}

// NewRegistry returns a Registry with options opts (nil: the defaults)
// holding tools. An error is Register's: nothing is registered.
func NewRegistry(opts *RegistryOptions, tools ...Tool) (*Registry, error) {
	lim := opts.withDefaults()
	r := &Registry{limits: &lim}
	if err := r.Register(tools...); err != nil {
		return nil, err
	}
	return r, nil
}

// registryLimits returns the limits in force, shared by the entries built
// under them. r.mu must be held.
func (r *Registry) registryLimits() *RegistryOptions {
	if r.limits == nil { // the zero Registry
		lim := (*RegistryOptions)(nil).withDefaults()
		r.limits = &lim
	}
	return r.limits
}

func (r *Registry) load() *snapshot {
	if s := r.snap.Load(); s != nil {
		return s
	}
	return emptySnapshot
}

// Register adds tools. It is all or nothing: if any tool is invalid or
// its name (or an alias) is taken, nothing is added and the error lists
// every problem, each wrapping ErrInvalidName, ErrDuplicateTool or
// ErrInvalidSchema.
func (r *Registry) Register(tools ...Tool) error {
	return r.write(tools, false)
}

// Replace adds tools, replacing registered tools of the same names. It is
// all or nothing, like Register. A replaced tool's derived data and lazy
// schema are computed anew unless the new definition is identical.
func (r *Registry) Replace(tools ...Tool) error {
	return r.write(tools, true)
}

func (r *Registry) write(tools []Tool, replace bool) error {
	if len(tools) == 0 {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	built, errs := r.prepare(tools, replace, nil)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	r.commit(built, nil)
	return nil
}

// prepare validates tools against the registry (and each other) and builds
// their entries. Names in ignore (a server's old tools) are treated as free.
// Invalid tools are left out of built and reported in errs, in input order.
func (r *Registry) prepare(tools []Tool, replace bool, ignore map[string]bool) (built []*entry, errs []error) {
	taken := map[string]string{} // name or alias → owner, within this batch
	lim := r.registryLimits()
	schemas, schemaErrs := r.checkSchemas(tools, lim)
	for i := range tools {
		t := &tools[i]
		if err := validateTool(t, lim, schemaErrs[i]); err != nil {
			errs = append(errs, err)
			continue
		}
		var dup []string
		for _, n := range append([]string{t.Name}, t.Aliases...) {
			if owner, ok := taken[n]; ok {
				dup = append(dup, fmt.Sprintf("%q is also given for %q in the same call", n, owner))
				continue
			}
			if owner, ok := r.owner(n); ok && !ignore[owner] && !(replace && owner == t.Name) {
				dup = append(dup, fmt.Sprintf("%q is taken by %q", n, owner))
			}
		}
		if len(dup) > 0 {
			errs = append(errs, fmt.Errorf("register %q: %w: %s", t.Name, ErrDuplicateTool, strings.Join(dup, "; ")))
			continue
		}
		for _, n := range append([]string{t.Name}, t.Aliases...) {
			taken[n] = t.Name
		}
		e := newEntryShared(t, schemas[i])
		e.lim = lim
		if old := r.tools[t.Name]; old != nil && old.sameAs(e) {
			e = old // unchanged: keep derived data and any loaded schema
		}
		built = append(built, e)
	}
	return built, errs
}

// owner returns the name of the registered tool that has name n as its name
// or an alias.
func (r *Registry) owner(n string) (string, bool) {
	o, ok := r.owners[n]
	return o, ok
}

// commit applies removals and built entries and publishes a new snapshot.
// r.mu must be held.
func (r *Registry) commit(built []*entry, remove []string) {
	if r.tools == nil {
		r.tools = map[string]*entry{}
		r.owners = map[string]string{}
	}
	for _, n := range remove {
		r.drop(n)
	}
	for _, e := range built {
		r.drop(e.tool.Name)
		r.tools[e.tool.Name] = e
		r.owners[e.tool.Name] = e.tool.Name
		for _, a := range e.tool.Aliases {
			r.owners[a] = e.tool.Name
		}
	}
	changed := slices.Clip(remove)
	for _, e := range built {
		changed = append(changed, e.tool.Name)
	}
	r.publish(changed)
}

// drop forgets tool n and its aliases. r.mu must be held.
func (r *Registry) drop(n string) {
	e := r.tools[n]
	if e == nil {
		return
	}
	delete(r.tools, n)
	delete(r.owners, n)
	for _, a := range e.tool.Aliases {
		delete(r.owners, a)
	}
}

// publish builds and stores the next snapshot, given the names of the
// tools that may have changed (definition or availability). A small change
// patches the current snapshot; a large one, or one the current snapshot's
// index has no room for, rebuilds it. r.mu must be held.
func (r *Registry) publish(changed []string) {
	r.publishSnapshot(changed)
	r.indexes.changed(r)
}

// publishSnapshot is publish without starting the eager indexes.
func (r *Registry) publishSnapshot(changed []string) {
	old := r.snap.Load()
	if old == nil || old.ix.needsRebuild() {
		r.snap.Store(buildSnapshot(r.tools, r.servers, &r.scratch))
		return
	}
	var remove, add []*entry
	seen := make(map[string]bool, len(changed))
	for _, n := range changed {
		if seen[n] {
			continue
		}
		seen[n] = true
		was := old.named(n)
		var now *entry
		if e := r.tools[n]; e != nil && available(e, r.servers) {
			now = e
		}
		if was == now {
			continue
		}
		if was != nil {
			remove = append(remove, was)
		}
		if now != nil {
			add = append(add, now)
		}
	}
	if len(remove)+len(add) > max(64, len(old.pool)/8) {
		r.snap.Store(buildSnapshot(r.tools, r.servers, &r.scratch))
		return
	}
	r.snap.Store(old.apply(remove, add, r.servers))
}

// Remove removes the named tools and returns how many it removed; a name
// that is not registered is ignored, as delete ignores a missing key.
func (r *Registry) Remove(names ...string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var gone []string
	for _, n := range names {
		if _, ok := r.tools[n]; ok && !slices.Contains(gone, n) {
			gone = append(gone, n)
		}
	}
	if len(gone) > 0 {
		r.commit(nil, gone)
	}
	return len(gone)
}

// SetServerTools replaces every tool of MCP server server with tools at
// once, as after an MCP tools/list_changed notification. A tool whose
// Server is empty is given server. The valid tools are registered; a tool
// that is invalid, names another server (ErrServerMismatch) or whose name
// is taken by a tool outside this server is skipped, and skipped holds one
// error per skipped tool, naming it and wrapping a sentinel: one bad tool
// does not take a server down. err is non-nil only when nothing was done:
// an empty server name (ErrInvalidName). The server's status is not
// changed.
func (r *Registry) SetServerTools(server string, tools []Tool) (skipped []error, err error) {
	if server == "" {
		return nil, fmt.Errorf("set server tools: %w: empty server name", ErrInvalidName)
	}
	tools = slices.Clone(tools)
	keep := tools[:0]
	for _, t := range tools {
		if t.Server == "" {
			t.Server = server
		}
		if t.Server != server {
			skipped = append(skipped, fmt.Errorf("register %q: %w: its Server is %q, not %q", t.Name, ErrServerMismatch, t.Server, server))
			continue
		}
		keep = append(keep, t)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := map[string]bool{}
	for n, e := range r.tools {
		if e.tool.Server == server {
			old[n] = true
		}
	}
	built, prepErrs := r.prepare(keep, false, old)
	r.commit(built, slices.Collect(maps.Keys(old)))
	return append(skipped, prepErrs...), nil
}

// RemoveServer removes every tool of MCP server server and forgets its
// status. It returns the number of tools removed.
func (r *Registry) RemoveServer(server string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var gone []string
	for n, e := range r.tools {
		if e.tool.Server == server {
			gone = append(gone, n)
		}
	}
	_, known := r.servers[server]
	delete(r.servers, server)
	if len(gone) > 0 || known {
		r.commit(nil, gone)
	}
	return len(gone)
}

// SetServerStatus records the connection status of MCP server server. The
// tools of a pending or disconnected server are kept but are not available:
// they are not searched, listed or counted until the server is connected.
// Pending servers are named in search results.
func (r *Registry) SetServerStatus(server string, status ServerStatus) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.servers[server] == status {
		if _, known := r.servers[server]; known || status == ServerConnected {
			return
		}
	}
	if r.servers == nil {
		r.servers = map[string]ServerStatus{}
	}
	r.servers[server] = status
	var changed []string
	for n, e := range r.tools {
		if e.tool.Server == server {
			changed = append(changed, n)
		}
	}
	r.publish(changed)
}

// ServerStatus returns the status of MCP server server; ServerConnected for
// a server it has not been told about.
func (r *Registry) ServerStatus(server string) ServerStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.servers[server]
}

// Lookup returns a copy of the registered tool named name, available or
// not.
func (r *Registry) Lookup(name string) (Tool, bool) {
	r.mu.Lock()
	e := r.tools[name]
	r.mu.Unlock()
	if e == nil {
		return Tool{}, false
	}
	return e.copyTool(), true
}

// Tools returns the available tools (those of pending or disconnected
// servers left out) in pool order: tools not from MCP servers sorted by
// name, then MCP tools sorted by name. Each is a copy.
func (r *Registry) Tools() iter.Seq[Tool] {
	s := r.load()
	return func(yield func(Tool) bool) {
		for _, e := range s.pool {
			if !yield(e.copyTool()) {
				return
			}
		}
	}
}

// validateTool checks the name, aliases and description of t against lim,
// and reports schemaErr, the result of checking its schema (checkSchemas).
func validateTool(t *Tool, lim *RegistryOptions, schemaErr error) error {
	if err := checkName(t.Name); err != nil {
		return fmt.Errorf("register %q: %w", t.Name, err)
	}
	for _, a := range t.Aliases {
		if err := checkName(a); err != nil {
			return fmt.Errorf("register %q: alias %q: %w", t.Name, a, err)
		}
	}
	if n := len(t.Description); n > lim.MaxDescriptionBytes {
		return fmt.Errorf("register %q: %w: the description is %d bytes, the limit is %d", t.Name, ErrLimit, n, lim.MaxDescriptionBytes)
	}
	if schemaErr != nil {
		return fmt.Errorf("register %q: %w", t.Name, schemaErr)
	}
	return nil
}
