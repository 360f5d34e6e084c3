package toolsearch

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// ToolSearchName is the name of the ToolSearch tool. A registered tool with
// this name is never deferred.
const ToolSearchName = "ToolSearch"

// MaxNameLength is the longest tool name a Registry accepts, in bytes.
const MaxNameLength = 128

// Errors returned by the Registry, wrapped with the tool's name; test them
// with errors.Is.
var (
	// ErrInvalidName: a name is empty, longer than MaxNameLength or has a
	// character outside [A-Za-z0-9_.-].
	ErrInvalidName = errors.New("toolsearch: invalid tool name")
	// ErrDuplicateTool: a name (or alias) is already taken.
	ErrDuplicateTool = errors.New("toolsearch: duplicate tool name")
	// ErrInvalidSchema: an input schema is not valid JSON, not a JSON
	// object, not a valid JSON Schema, or refers to an external document.
	ErrInvalidSchema = errors.New("toolsearch: invalid input schema")
	// ErrNoSuchTool: a name given to Remove is not registered.
	ErrNoSuchTool = errors.New("toolsearch: no such tool")
)

// Tool is one tool definition. Name is required; every other field is
// optional. A Tool is a value: the Registry copies it (Aliases and
// InputSchema included) when it is registered.
type Tool struct {
	// Name is the name the model calls the tool by: 1 to 128 characters
	// from [A-Za-z0-9_.-]. MCP tools are named mcp__<server>__<tool>
	// (see MCPToolName).
	Name string
	// Description is the text the model sees.
	Description string
	// InputSchema is the tool's input JSON Schema (a JSON object). Empty
	// means {"type":"object"}. It is validated when the tool is registered.
	InputSchema json.RawMessage
	// LoadSchema, when InputSchema is empty, supplies the schema lazily: it
	// is called at most once per registered Tool value, the first time the
	// tool is returned by a search, and its result is validated then. A
	// tool whose LoadSchema fails is left out of that result with a note.
	LoadSchema func() (json.RawMessage, error)
	// SearchHint is a short phrase of extra search words.
	SearchHint string
	// ShouldDefer asks for a tool that is not from an MCP server to be
	// deferred. MCP tools are always deferred unless AlwaysLoad is set.
	ShouldDefer bool
	// AlwaysLoad keeps the tool loaded: it is never deferred and never
	// returned by keyword searches. It beats everything else.
	AlwaysLoad bool
	// Server is the MCP server the tool comes from; empty for other tools.
	Server string
	// MCPName is the tool's raw name on its MCP server.
	MCPName string
	// Aliases are other names that select:NAME accepts for this tool.
	Aliases []string
}

// IsMCP reports whether the tool comes from an MCP server: Server is set or
// the name starts with "mcp__".
func (t *Tool) IsMCP() bool {
	return t.Server != "" || strings.HasPrefix(t.Name, "mcp__")
}

// Deferred reports whether the tool is deferred: AlwaysLoad → no; MCP tool →
// yes; named ToolSearch → no; otherwise ShouldDefer.
func (t *Tool) Deferred() bool {
	switch {
	case t.AlwaysLoad:
		return false
	case t.IsMCP():
		return true
	case t.Name == ToolSearchName:
		return false
	}
	return t.ShouldDefer
}

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

// Registry holds tool definitions. The zero value is an empty registry ready
// to use. A Registry is safe for concurrent use: readers work on an
// immutable snapshot published atomically and never wait for writers;
// writers are serialized. A Registry must not be copied after first use.
type Registry struct {
	mu      sync.Mutex // serializes writers
	tools   map[string]*entry
	owners  map[string]string // name or alias → tool name
	servers map[string]ServerStatus
	version uint64
	snap    atomic.Pointer[snapshot]
	scratch scratchPool // per-query score arrays, shared by the snapshots
	schemas schemaCache // schemas known to be valid
	limits  Limits      // registration-side limits (limits.go); zero until set or first used
}

// NewRegistry returns an empty Registry holding tools.
func NewRegistry(tools ...Tool) (*Registry, error) {
	r := &Registry{}
	if err := r.Register(tools...); err != nil {
		return nil, err
	}
	return r, nil
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
	lim := r.registryLimits()    // one copy, shared by the entries built here
	schemas, schemaErrs := r.checkSchemas(tools, &lim)
	for i := range tools {
		t := &tools[i]
		if err := validateTool(t, &lim, schemaErrs[i]); err != nil {
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
		e.lim = &lim
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
	r.version++
	old := r.snap.Load()
	if old == nil || old.ix.needsRebuild() {
		r.snap.Store(buildSnapshot(r.version, r.tools, r.servers, &r.scratch))
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
		r.snap.Store(buildSnapshot(r.version, r.tools, r.servers, &r.scratch))
		return
	}
	r.snap.Store(old.apply(r.version, remove, add, r.servers))
}

// Remove removes the named tools. Names that are not registered are
// reported with ErrNoSuchTool; the others are removed all the same.
func (r *Registry) Remove(names ...string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var errs, gone []string
	for _, n := range names {
		if _, ok := r.tools[n]; ok {
			gone = append(gone, n)
		} else {
			errs = append(errs, fmt.Sprintf("%q", n))
		}
	}
	if len(gone) > 0 {
		r.commit(nil, gone)
	}
	if len(errs) > 0 {
		return fmt.Errorf("remove %s: %w", strings.Join(errs, ", "), ErrNoSuchTool)
	}
	return nil
}

// SetServerTools replaces every tool of MCP server server with tools at
// once, as after an MCP tools/list_changed notification. A tool whose Server
// is empty is given server; one naming another server is an error. Tools
// that are invalid or whose names are taken by tools outside this server are
// skipped and reported in the returned error (each wrapping a sentinel); the
// valid ones are registered all the same, so one bad tool does not take a
// server down. The server's status is not changed.
func (r *Registry) SetServerTools(server string, tools []Tool) error {
	if server == "" {
		return fmt.Errorf("set server tools: %w: empty server name", ErrInvalidName)
	}
	tools = slices.Clone(tools)
	var errs []error
	keep := tools[:0]
	for _, t := range tools {
		if t.Server == "" {
			t.Server = server
		}
		if t.Server != server {
			errs = append(errs, fmt.Errorf("register %q: %w: its Server is %q, not %q", t.Name, ErrInvalidName, t.Server, server))
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
	return errors.Join(append(errs, prepErrs...)...)
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

// Len returns the number of available tools.
func (r *Registry) Len() int { return len(r.load().pool) }

// Version returns a number that changes with every change to the registry.
func (r *Registry) Version() uint64 { return r.load().version }

// validateTool checks the name, aliases and description of t against lim,
// and reports schemaErr, the result of checking its schema (checkSchemas).
func validateTool(t *Tool, lim *Limits, schemaErr error) error {
	if err := checkName(t.Name); err != nil {
		return fmt.Errorf("register %q: %w", t.Name, err)
	}
	for _, a := range t.Aliases {
		if err := checkName(a); err != nil {
			return fmt.Errorf("register %q: alias %q: %w", t.Name, a, err)
		}
	}
	if err := lim.checkDescription(t.Description); err != nil {
		return fmt.Errorf("register %q: %w", t.Name, err)
	}
	if schemaErr != nil {
		return fmt.Errorf("register %q: %w", t.Name, schemaErr)
	}
	return nil
}

// checkName reports whether n is a valid tool name, naming every bad
// character.
func checkName(n string) error {
	if n == "" {
		return fmt.Errorf("%w: empty", ErrInvalidName)
	}
	if len(n) > MaxNameLength {
		return fmt.Errorf("%w: %d bytes long, the limit is %d", ErrInvalidName, len(n), MaxNameLength)
	}
	var bad []string
	for i, c := range n {
		if !nameChar(c) {
			bad = append(bad, fmt.Sprintf("%q at byte %d", c, i))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w: characters outside [A-Za-z0-9_.-]: %s", ErrInvalidName, strings.Join(bad, ", "))
	}
	return nil
}

func nameChar(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// MCPToolName returns the name under which tool tool of MCP server server is
// registered: mcp__<server>__<tool>, with every character outside
// [A-Za-z0-9_-] replaced by '_'.
func MCPToolName(server, tool string) string {
	return "mcp__" + sanitizeMCP(server) + "__" + sanitizeMCP(tool)
}

func sanitizeMCP(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, c := range s {
		if c == '.' || !nameChar(c) {
			c = '_'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// MaxMCPDescription is the length, in characters, at which NewMCPTool cuts
// an MCP tool's description.
const MaxMCPDescription = 2048

const truncatedMark = "… [truncated]"

// NewMCPTool converts a tool listed by MCP server server into a Tool: its
// name is MCPToolName(server, name), a description longer than 2,048
// characters is cut there and ends with "… [truncated]", and the _meta keys
// "anthropic/alwaysLoad" (boolean true) and "anthropic/searchHint" (a
// string; whitespace runs collapsed, trimmed) set AlwaysLoad and SearchHint.
// The schema is not validated here; registering the tool does that.
func NewMCPTool(server, name, description string, inputSchema json.RawMessage, meta map[string]any) Tool {
	t := Tool{
		Name:        MCPToolName(server, name),
		Description: truncateDescription(description),
		InputSchema: slices.Clone(inputSchema),
		Server:      server,
		MCPName:     name,
	}
	if v, ok := meta["anthropic/alwaysLoad"].(bool); ok && v {
		t.AlwaysLoad = true
	}
	if v, ok := meta["anthropic/searchHint"].(string); ok {
		t.SearchHint = strings.Join(splitSpace(v), " ")
	}
	return t
}

func truncateDescription(d string) string {
	n := 0
	for i := range d {
		if n == MaxMCPDescription {
			return d[:i] + truncatedMark
		}
		n++
	}
	return d
}

// snapshot is an immutable view of the registry. Everything derived from the
// set of tools hangs off it and is built at most once. A change builds the
// next snapshot from this one, sharing what the change does not touch
// (index.go).
type snapshot struct {
	version  uint64
	pool     []*entry // available tools in pool order
	deferred []*entry // available deferred tools in pool order
	// names finds available tools by name, alias and lowercased name (see
	// named, aliased, lowered).
	names   *nameIndex
	prefix  *prefixIndex // deferred tools by lowercased name, for mcp__ prefixes
	ix      *index       // keyword index of the deferred tools
	pending []string     // pending servers, sorted
	texts   textCache
}

var emptySnapshot = buildSnapshot(0, nil, nil, nil)

// available reports whether e's server (if any) is connected.
func available(e *entry, servers map[string]ServerStatus) bool {
	return e.tool.Server == "" || servers[e.tool.Server] == ServerConnected
}

// buildSnapshot builds a snapshot from scratch.
func buildSnapshot(version uint64, tools map[string]*entry, servers map[string]ServerStatus, scratch *scratchPool) *snapshot {
	s := &snapshot{version: version}
	s.pool = make([]*entry, 0, len(tools))
	for _, e := range tools {
		if available(e, servers) {
			s.pool = append(s.pool, e)
		}
	}
	slices.SortFunc(s.pool, poolCompare)
	for _, e := range s.pool {
		if e.deferred {
			s.deferred = append(s.deferred, e)
		}
	}
	s.names = buildNames(s.pool)
	s.prefix = buildPrefix(s.deferred)
	s.ix = buildIndex(s.deferred, scratch)
	s.pending = pendingServers(servers)
	return s
}

// apply returns the snapshot that follows s when the tools in remove leave
// the available set and those in add join it. s is not changed.
func (s *snapshot) apply(version uint64, remove, add []*entry, servers map[string]ServerStatus) *snapshot {
	n := &snapshot{version: version, pending: pendingServers(servers)}
	n.pool = patchSorted(s.pool, remove, add, poolCompare)
	isDeferred := func(e *entry) bool { return !e.deferred }
	rmD := slices.DeleteFunc(slices.Clone(remove), isDeferred)
	addD := slices.DeleteFunc(slices.Clone(add), isDeferred)
	n.names = s.names.update(remove, add)
	if len(rmD)+len(addD) == 0 {
		n.deferred, n.prefix, n.ix = s.deferred, s.prefix, s.ix
		return n
	}
	n.deferred = patchSorted(s.deferred, rmD, addD, poolCompare)
	n.prefix = s.prefix.update(rmD, addD)
	n.ix = s.ix.update(rmD, addD)
	return n
}

func pendingServers(servers map[string]ServerStatus) []string {
	var p []string
	for srv, st := range servers {
		if st == ServerPending {
			p = append(p, srv)
		}
	}
	slices.Sort(p)
	return p
}

// poolCompare orders tools not from MCP servers before MCP tools, each group
// by name in byte order.
func poolCompare(a, b *entry) int {
	if a.isMCP != b.isMCP {
		if a.isMCP {
			return 1
		}
		return -1
	}
	return cmp.Compare(a.tool.Name, b.tool.Name)
}

// schemaURL is the base URL a tool schema is compiled under. Relative
// references resolve against it and are refused by refuseLoad.
const schemaURL = "toolsearch:///input_schema.json"

// errExternalRef is returned for any document a schema refers to outside
// itself: schemas are inert, they never make the library read a file or
// open a connection.
var errExternalRef = fmt.Errorf("refusing to load an external document: schemas may only use references inside themselves")

func refuseLoad(url string) (io.ReadCloser, error) {
	return nil, fmt.Errorf("%w: %s", errExternalRef, url)
}

// compileSchema compiles raw as a JSON Schema without ever loading an
// external document. A schema that declares no $schema is read as draft
// 2020-12 (the MCP default); if it is invalid there but valid as draft-07 or
// draft-04, dialects MCP servers still emit, it is accepted as such.
func compileSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	if !json.Valid(raw) {
		return nil, fmt.Errorf("%w: not valid JSON", ErrInvalidSchema)
	}
	if b := bytes.TrimLeft(raw, " \t\r\n"); len(b) == 0 || b[0] != '{' {
		return nil, fmt.Errorf("%w: not a JSON object", ErrInvalidSchema)
	}
	var first error
	for _, d := range []*jsonschema.Draft{jsonschema.Draft2020, jsonschema.Draft7, jsonschema.Draft4} {
		c := jsonschema.NewCompiler()
		c.Draft = d
		c.LoadURL = refuseLoad
		if err := c.AddResource(schemaURL, bytes.NewReader(raw)); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
		}
		s, err := c.Compile(schemaURL)
		if err == nil {
			return s, nil
		}
		if first == nil {
			first = err
		}
		if errors.Is(err, errExternalRef) || bytes.Contains(raw, []byte(`"$schema"`)) {
			break // not a dialect problem
		}
	}
	return nil, fmt.Errorf("%w: %v", ErrInvalidSchema, first)
}

// checkSchema checks raw against the size and depth limits of lim, then
// compiles it and bounds the work of validating against it. The size and
// depth are checked first, so that an enormous or deeply nested schema is
// never handed to the compiler.
func checkSchema(raw json.RawMessage, lim *Limits) error {
	if err := lim.checkSchemaSize(raw); err != nil {
		return err
	}
	s, err := compileSchema(raw)
	if err != nil {
		return err
	}
	return lim.checkSchemaWork(s)
}

// schemaCache remembers the input schemas that passed checkSchema, byte for
// byte, so that a schema seen before (one shape shared by many tools, a
// server listing its tools again, a Replace) is not checked again, and the
// tools that have it share one copy. Only valid schemas are kept: an invalid
// one is checked every time, so its error is always complete. Validity is a
// function of the bytes and the limits alone, so a hit is as good as a
// check; the cache is dropped when the limits change.
type schemaCache struct {
	seed  maphash.Seed
	valid map[uint64][]json.RawMessage
	n     int
	lim   Limits // the limits the schemas were checked against
}

func (c *schemaCache) find(raw json.RawMessage) (json.RawMessage, uint64) {
	if c.valid == nil {
		c.seed = maphash.MakeSeed()
		c.valid = map[uint64][]json.RawMessage{}
	}
	h := maphash.Bytes(c.seed, raw)
	for _, v := range c.valid[h] {
		if bytes.Equal(v, raw) {
			return v, h
		}
	}
	return nil, h
}

func (c *schemaCache) add(h uint64, raw json.RawMessage) json.RawMessage {
	v := slices.Clone(raw)
	c.valid[h] = append(c.valid[h], v)
	c.n++
	return v
}

// parallelSchemas is the number of schemas to compile from which checkSchemas
// spreads the work over GOMAXPROCS goroutines.
const parallelSchemas = 32

// checkSchemas checks the schemas of tools. For each tool it returns the
// schema bytes to keep (shared with other tools that have the same schema)
// and the error for an invalid schema. Schemas not seen before are compiled,
// on several goroutines when there are many. r.mu must be held.
func (r *Registry) checkSchemas(tools []Tool, lim *Limits) ([]json.RawMessage, []error) {
	keep := make([]json.RawMessage, len(tools))
	errs := make([]error, len(tools))
	if r.schemas.n > 4*len(r.tools)+4096 || r.schemas.lim != *lim {
		// Forget schemas no tool may have any more, or checked under other
		// limits.
		r.schemas = schemaCache{lim: *lim}
	}
	var todo []int              // tools whose schema is compiled: the first of each new schema
	same := map[int]int{}       // tool → the tool in todo with the same new schema
	first := map[uint64][]int{} // hash → tools in todo
	for i := range tools {
		raw := tools[i].InputSchema
		if len(raw) == 0 {
			continue
		}
		var h uint64
		if keep[i], h = r.schemas.find(raw); keep[i] != nil {
			continue
		}
		j := slices.IndexFunc(first[h], func(j int) bool { return bytes.Equal(tools[j].InputSchema, raw) })
		if j >= 0 {
			same[i] = first[h][j]
			continue
		}
		first[h] = append(first[h], i)
		todo = append(todo, i)
	}
	if len(todo) >= parallelSchemas && runtime.GOMAXPROCS(0) > 1 {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				for j := next.Add(1) - 1; j < int64(len(todo)); j = next.Add(1) - 1 {
					i := todo[j]
					errs[i] = checkSchema(tools[i].InputSchema, lim)
				}
			})
		}
		wg.Wait()
	} else {
		for _, i := range todo {
			errs[i] = checkSchema(tools[i].InputSchema, lim)
		}
	}
	for _, i := range todo {
		if errs[i] == nil {
			_, h := r.schemas.find(tools[i].InputSchema)
			keep[i] = r.schemas.add(h, tools[i].InputSchema)
		}
	}
	for i, j := range same {
		keep[i], errs[i] = keep[j], errs[j]
	}
	return keep, errs
}
