package toolsearch

import (
	"errors"
	"iter"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/toolsearch/toolsearch/internal/schema"
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

// serverStatusNames are the text forms of the statuses, by value.
var serverStatusNames = [...]string{"connected", "pending", "disconnected"}

// String returns "connected", "pending" or "disconnected", and
// "ServerStatus(N)" for a value that is none of them.
func (s ServerStatus) String() string { return enumString(s, serverStatusNames[:], "ServerStatus") }

// MarshalText returns the String form.
func (s ServerStatus) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "connected", "pending" or "disconnected". Another
// text is an error wrapping ErrInvalidOption.
func (s *ServerStatus) UnmarshalText(text []byte) error {
	v, err := enumParse[ServerStatus](text, serverStatusNames[:], "server status")
	if err == nil {
		*s = v
	}
	return err
}

// The defaults of RegistryOptions.
const (
	defaultMaxSchemaBytes      = schema.DefaultMaxBytes // bytes in one tool's input schema: 64 KiB
	defaultMaxSchemaDepth      = schema.DefaultMaxDepth // nesting of objects and arrays in one schema: 64
	defaultMaxDescriptionBytes = 16 << 10               // bytes in one tool's description
	defaultMaxSchemaWork       = schema.DefaultMaxWork  // subschemas applied to one value when validating: 10,000
	defaultMaxHintBytes        = 1 << 10                // bytes in one tool's search hint
)

// RegistryOptions bound what a tool definition (from an MCP server, say)
// can make the Registry do. A nil *RegistryOptions means the defaults; a
// zero or negative field means that field's default. They are fixed when
// the Registry is made; the zero Registry uses the defaults. A tool over a
// limit is refused with an error naming it and wrapping ErrLimit (and
// ErrInvalidSchema for a schema); the limits apply to lazy schemas
// (Tool.LoadSchema) when they are loaded. Besides these, a schema holding
// a number with more than 100 digits or an exponent beyond ±400 is refused
// (ErrInvalidSchema and ErrLimit, naming where the number is): compiling
// and validating such a number costs time in proportion to its exponent.
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
	// MaxHintBytes is the longest search hint accepted, in bytes; a longer
	// one is refused (wrapping ErrLimit). A hint is a short phrase of
	// extra search words (an MCP server gives it in _meta), read by every
	// keyword search like the description. Default 1 KiB.
	MaxHintBytes int
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
	r.MaxHintBytes = orDefault(r.MaxHintBytes, defaultMaxHintBytes)
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
	served  map[string]map[string]struct{} // MCP server → the names of its registered tools
	snap    atomic.Pointer[snapshot]
	limits  atomic.Pointer[RegistryOptions] // with defaults; nil until first used (the zero Registry)
	scratch scratchPool                     // per-query score arrays, shared by the snapshots
	hitBufs sync.Pool                       // per-query hit buffers
	schemas schemaCache                     // schemas known to be valid
	indexes strategyIndexes                 // the strategies' indexes of the newest snapshot
}

// NewRegistry returns a Registry with options opts (nil: the defaults)
// holding tools. An error is Register's: nothing is registered.
func NewRegistry(opts *RegistryOptions, tools ...Tool) (*Registry, error) {
	lim := opts.withDefaults()
	r := &Registry{}
	r.limits.Store(&lim)
	if err := r.Register(tools...); err != nil {
		return nil, err
	}
	return r, nil
}

// schemaLimits returns the limits of o that bound a schema.
func (o *RegistryOptions) schemaLimits() *schema.Limits {
	return &schema.Limits{MaxBytes: o.MaxSchemaBytes, MaxDepth: o.MaxSchemaDepth, MaxWork: o.MaxSchemaWork}
}

// registryLimits returns the limits in force, shared by the entries built
// under them.
func (r *Registry) registryLimits() *RegistryOptions {
	if lim := r.limits.Load(); lim != nil {
		return lim
	}
	lim := (*RegistryOptions)(nil).withDefaults() // the zero Registry
	r.limits.CompareAndSwap(nil, &lim)
	return r.limits.Load()
}

func (r *Registry) load() *snapshot {
	if s := r.snap.Load(); s != nil {
		return s
	}
	return emptySnapshot
}

// Register adds tools. It is all or nothing: if any tool is invalid or
// its name (or an alias) is taken, nothing is added and the error lists
// every problem, each wrapping ErrInvalidName, ErrDuplicateTool,
// ErrInvalidSchema or ErrLimit, or the tool's own Err.
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
	b := r.build(tools) // no lock held: validation and schema compilation
	r.mu.Lock()
	defer r.mu.Unlock()
	built, errs := r.admit(b, replace, nil)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	r.commit(built, nil)
	return nil
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
		r.tools = make(map[string]*entry, len(built))
		r.owners = make(map[string]string, len(built))
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
		if srv := e.tool.Server; srv != "" {
			if r.served == nil {
				r.served = map[string]map[string]struct{}{}
			}
			if r.served[srv] == nil {
				r.served[srv] = map[string]struct{}{}
			}
			r.served[srv][e.tool.Name] = struct{}{}
		}
	}
	changed := append(make([]string, 0, len(remove)+len(built)), remove...)
	for _, e := range built {
		changed = append(changed, e.tool.Name)
	}
	r.schemas.forgetIfStale(len(r.tools)) // schemas no tool may have any more
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
	if srv := e.tool.Server; srv != "" {
		if delete(r.served[srv], n); len(r.served[srv]) == 0 {
			delete(r.served, srv)
		}
	}
}

// serverTools returns the names of the registered tools of MCP server
// server, in no order: the cost is the server's, not the registry's. r.mu
// must be held.
func (r *Registry) serverTools(server string) []string {
	return slices.Collect(maps.Keys(r.served[server]))
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
	if publishHook != nil {
		publishHook()
	}
	old := r.snap.Load()
	var all *toolMap
	if old != nil {
		all = old.all
	}
	if all == nil {
		all = newToolMap(r.tools) // the first publication: every tool is new
	} else {
		defs := make(map[string]*entry, len(changed))
		for _, n := range changed {
			if e := r.tools[n]; all.get(n) != e {
				defs[n] = e
			}
		}
		if len(defs) > 0 {
			all = all.with(defs)
		}
	}
	servers := maps.Clone(r.servers)
	var log *changeLog
	if old != nil {
		log = old.log
	}
	log = log.next(changed)
	store := func(s *snapshot) {
		s.all, s.servers, s.log = all, servers, log
		r.snap.Store(s)
	}
	if old == nil || old.ix.needsRebuild() {
		store(buildSnapshot(r.tools, r.servers, &r.scratch, oldIndex(old)))
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
	if len(remove)+len(add) > max(64, old.pool.Len()/8) {
		store(buildSnapshot(r.tools, r.servers, &r.scratch, old.ix))
		return
	}
	store(old.apply(remove, add, r.servers))
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
		return nil, wrapf(errorf(ErrInvalidName, "empty server name"), "set server tools")
	}
	tools = slices.Clone(tools)
	keep := tools[:0]
	for _, t := range tools {
		if t.Server == "" {
			t.Server = server
		}
		if t.Server != server {
			skipped = append(skipped, wrapf(errorf(ErrServerMismatch, "its Server is %q, not %q", t.Server, server), "register %q", t.Name))
			continue
		}
		keep = append(keep, t)
	}
	b := r.build(keep) // no lock held: readers and other servers never wait for it
	r.mu.Lock()
	defer r.mu.Unlock()
	was := r.serverTools(server)
	old := make(map[string]bool, len(was))
	for _, n := range was {
		old[n] = true
	}
	built, prepErrs := r.admit(b, false, old)
	r.commit(built, was)
	return append(skipped, prepErrs...), nil
}

// RemoveServer removes every tool of MCP server server and forgets its
// status. It returns the number of tools removed.
func (r *Registry) RemoveServer(server string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	gone := r.serverTools(server)
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
	r.publish(r.serverTools(server))
}

// ServerStatus returns the status of MCP server server; ServerConnected for
// a server it has not been told about. It never waits for a writer.
func (r *Registry) ServerStatus(server string) ServerStatus {
	return r.load().servers[server]
}

// Lookup returns a copy of the registered tool named name, available or
// not. It never waits for a writer.
func (r *Registry) Lookup(name string) (Tool, bool) {
	e := r.load().all.get(name)
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
		for e := range s.pool.All() {
			if !yield(e.copyTool()) {
				return
			}
		}
	}
}

// orDefault returns v, or def when v is zero or negative.
func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
