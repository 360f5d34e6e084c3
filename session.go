package toolsearch

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// SessionOptions configure a Session. A nil *SessionOptions means the
// defaults; a zero field means that field's default. Options are copied.
type SessionOptions struct {
	// Scope limits the tools of the conversation (a subagent's allow-list);
	// nil means every tool. It overrides Search.Scope.
	Scope *Scope
	// Format is the rendering of ToolSearch results; default FormatInline.
	// With CallBridge on, FormatToolReference is rendered as FormatInline
	// (the model needs the schemas in the result).
	Format Format
	// Mode says when tools are deferred; default ModeAlways.
	Mode ToolSearchMode
	// ContextWindow is the model's context window in tokens, for
	// ModeAuto; default DefaultContextWindow.
	ContextWindow int
	// CountTokens counts the tokens of tool definitions, for ModeAuto; it
	// should return what the provider's token counting reports for a
	// request carrying just these tools (AutoTokenOverhead is subtracted).
	// When nil, or when it returns an error, characters are counted
	// instead. It is called without any lock held, at most once per
	// registry change in the usual case (racing calls may repeat it), and
	// possibly from several goroutines.
	CountTokens func(tools []ToolDefinition) (int, error)
	// CallBridge offers the fixed CallTool tool: discovered tools are not
	// added to Tools() and the model calls them through CallTool, so the
	// tool list stays the same for the whole conversation.
	CallBridge bool
	// Search configures the Session's Searcher (MaxResults, MaxResultsCap);
	// nil means the defaults. Its Scope is ignored: Scope above is used.
	Search *SearchOptions
}

// Session is the state of one conversation over a shared Registry: the
// tools the model has discovered through ToolSearch, what it was told
// about the deferred tools, and its scope. Many Sessions may share one
// Registry; each sees only its own discoveries. A Session is safe for
// concurrent use; it never holds a lock while calling user code (lazy
// schemas, CountTokens).
//
// A turn of an agent loop uses it like this: send Tools() (and Announce()
// text) with the request; answer a ToolSearch call with HandleToolSearch;
// check any other call with CheckCall before running it.
type Session struct {
	reg      *Registry
	opts     SessionOptions
	searcher *Searcher
	in       func(*entry) bool // the scope

	mu         sync.Mutex
	discovered map[string]struct{}
	announced  []string // deferred names last announced, sorted; nil = none

	auto atomic.Pointer[autoDecision]
}

// NewSession returns a Session over reg, which must not be nil.
func NewSession(reg *Registry, opts *SessionOptions) *Session {
	s := &Session{reg: reg, discovered: map[string]struct{}{}}
	if opts != nil {
		s.opts = *opts
	}
	var so SearchOptions
	if s.opts.Search != nil {
		so = *s.opts.Search
	}
	so.Scope = s.opts.Scope
	s.searcher = NewSearcher(reg, &so)
	s.opts.Scope = s.searcher.opts.Scope // the Searcher's copy
	s.opts.Search = nil
	s.in = s.searcher.in
	s.opts.ContextWindow = cmp.Or(s.opts.ContextWindow, DefaultContextWindow)
	if s.opts.Mode.Kind == ModeAuto && s.opts.Mode.Percent <= 0 {
		s.opts.Mode.Percent = DefaultAutoPercent
	}
	return s
}

// Searcher returns the Session's Searcher: the Registry seen through the
// Session's scope. Searches made directly on it are not recorded.
func (s *Session) Searcher() *Searcher { return s.searcher }

// format returns the rendering used for ToolSearch results.
func (s *Session) format() Format {
	if s.opts.CallBridge && s.opts.Format == FormatToolReference {
		return FormatInline
	}
	return s.opts.Format
}

// ToolSearchOffered reports whether the next request offers ToolSearch:
// the mode defers tools, and the scope has a deferred tool or an MCP
// server is pending. When it is false, Tools() is every tool in scope, in
// full.
func (s *Session) ToolSearchOffered() bool { return s.searchOn(s.reg.load()) }

func (s *Session) searchOn(snap *snapshot) bool {
	return s.hasDeferred(snap) && s.modeDefers(snap)
}

// hasDeferred reports whether the scope has a deferred tool, or an MCP
// server is pending that may bring one.
func (s *Session) hasDeferred(snap *snapshot) bool {
	return len(s.searcher.texts(snap).names) > 0 || len(snap.pending) > 0 && s.maySeeDeferred()
}

// modeDefers reports whether the mode defers the deferred tools of snap.
func (s *Session) modeDefers(snap *snapshot) bool {
	switch m := s.opts.Mode; {
	case m.Kind == ModeNever || m.Kind == ModeAuto && m.Percent >= 100:
		return false
	case m.Kind == ModeAuto:
		return s.autoOn(snap)
	}
	return true
}

// maySeeDeferred reports whether the scope can hold a deferred tool, so
// that a pending server may bring one.
func (s *Session) maySeeDeferred() bool {
	sc := s.opts.Scope
	return sc == nil || sc.IncludeDeferred || slices.ContainsFunc(sc.Allow, func(n string) bool { return n != "*" })
}

// autoOn decides ModeAuto for snap: the deferred tools in scope are
// measured with CountTokens (or in characters) once per snapshot.
func (s *Session) autoOn(snap *snapshot) bool {
	if d := s.auto.Load(); d != nil && d.snap == snap {
		return d.on
	}
	var defs []ToolDefinition
	for _, e := range snap.deferred {
		if s.in(e) {
			defs = append(defs, definition(e, false))
		}
	}
	threshold := autoThreshold(s.opts.ContextWindow, s.opts.Mode.Percent)
	on, counted := false, false
	if s.opts.CountTokens != nil {
		if n, err := s.opts.CountTokens(defs); err == nil {
			on, counted = autoDefersTokens(n, threshold), true
		}
	}
	if !counted {
		chars := 0
		for i := range defs {
			chars += definitionChars(&defs[i])
		}
		on = autoDefersChars(chars, threshold)
	}
	s.auto.Store(&autoDecision{snap: snap, on: on})
	return on
}

// definition returns the ToolDefinition of e. A schema that cannot be
// loaded is replaced by {"type":"object"} (callers that send the tool
// check loadSchema first).
func definition(e *entry, deferLoading bool) ToolDefinition {
	schema, err := e.loadSchema()
	if err != nil {
		schema = defaultSchema
	}
	return ToolDefinition{
		Name:         e.tool.Name,
		Description:  e.tool.Description,
		InputSchema:  slicesClone(schema),
		DeferLoading: deferLoading,
	}
}

func slicesClone(b json.RawMessage) json.RawMessage { return json.RawMessage(slices.Clone([]byte(b))) }

// Tools returns the tool definitions to send with the next request, in
// this order:
//
//  1. every tool in scope that is not deferred, in pool order (a
//     registered tool named ToolSearch or, with the bridge, CallTool is
//     left out: the Session's own definition takes its place);
//  2. ToolSearch, when offered (see ToolSearchOffered);
//  3. CallTool, when CallBridge is set and ToolSearch is offered;
//  4. without the bridge, every discovered tool that is deferred,
//     available (its server connected) and in scope, in pool order, with
//     DeferLoading set when Format is FormatToolReference.
//
// When ToolSearch is not offered, it is every tool in scope in pool order,
// in full. A discovered tool whose server disconnected or that was removed
// is left out but stays discovered: it comes back when the tool does.
// The result is the same, byte for byte once encoded, for the same
// registry, scope and discovered set. With CallBridge it does not depend
// on the discovered set at all.
//
// A tool whose lazy schema cannot be loaded is left out, and the error
// names it; the other definitions are returned all the same. The slice is
// the caller's.
func (s *Session) Tools() ([]ToolDefinition, error) {
	snap := s.reg.load()
	on := s.searchOn(snap)
	var disc map[string]struct{}
	if on && !s.opts.CallBridge {
		s.mu.Lock()
		disc = maps.Clone(s.discovered)
		s.mu.Unlock()
	}
	var out []ToolDefinition
	var errs []error
	add := func(e *entry, deferLoading bool) {
		if _, err := e.loadSchema(); err != nil {
			errs = append(errs, err)
			return
		}
		out = append(out, definition(e, deferLoading))
	}
	for _, e := range snap.pool {
		if !s.in(e) || on && (e.deferred || e.tool.Name == ToolSearchName || s.opts.CallBridge && e.tool.Name == CallToolName) {
			continue
		}
		add(e, false)
	}
	if !on {
		return out, errors.Join(errs...)
	}
	out = append(out, s.searcher.ToolDefinition())
	if s.opts.CallBridge {
		out = append(out, CallToolDefinition())
		return out, errors.Join(errs...)
	}
	if len(disc) > 0 {
		refs := s.opts.Format == FormatToolReference
		for _, e := range snap.deferred {
			if _, ok := disc[e.tool.Name]; ok && s.in(e) {
				add(e, refs)
			}
		}
	}
	return out, errors.Join(errs...)
}

// Search answers a ToolSearch call (args are the raw arguments the model
// sent) through the Session's scope and records every tool it returned
// as discovered (a tool that is not deferred is recorded too, as a
// history would show it, and is sent once all the same). Errors are those of Searcher.Call.
func (s *Session) Search(args json.RawMessage) (*Result, error) {
	res, err := s.searcher.Call(args)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	for _, m := range res.Matches {
		s.discovered[m.Name] = struct{}{}
	}
	s.mu.Unlock()
	return res, nil
}

// HandleToolSearch answers a ToolSearch call like Search and renders the
// result as tool_result content in the Session's Format. For arguments
// that cannot be answered, the content is one text block saying what was
// wrong and isError is true: send it back as an error tool_result.
func (s *Session) HandleToolSearch(args json.RawMessage) (content []ContentBlock, isError bool) {
	res, err := s.Search(args)
	if err != nil {
		return []ContentBlock{{Type: "text", Text: err.Error()}}, true
	}
	return res.Content(s.format()), false
}

// Discovered returns the names of the tools discovered in this
// conversation, sorted; they include tools that are not available now.
func (s *Session) Discovered() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.discovered))
}

// IsDiscovered reports whether tool name was discovered in this
// conversation.
func (s *Session) IsDiscovered(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.discovered[name]
	return ok
}

// AddDiscovered records names as discovered, as if ToolSearch had returned
// them. Names need not be registered (a tool may come back later). A name
// that is not a valid tool name is an error wrapping ErrInvalidName; the
// valid ones are recorded all the same.
func (s *Session) AddDiscovered(names ...string) error {
	var errs []error
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		if err := checkName(n); err != nil {
			errs = append(errs, fmt.Errorf("discovered %q: %w", n, err))
			continue
		}
		s.discovered[n] = struct{}{}
	}
	return errors.Join(errs...)
}

// Compact tells the Session that the conversation was compacted: the
// discovered set is kept, and the next Announce is a full announcement
// (the earlier ones were summarized away).
func (s *Session) Compact() {
	s.mu.Lock()
	s.announced = nil
	s.mu.Unlock()
}

// Clear starts a new conversation: the discovered set is emptied and the
// next Announce is a full announcement.
func (s *Session) Clear() {
	s.mu.Lock()
	clear(s.discovered)
	s.announced = nil
	s.mu.Unlock()
}

// SessionState is the saved state of a Session (see Session.Snapshot). Its
// JSON form is {"discovered": [...], "announced": [...]}, names sorted.
type SessionState struct {
	// Discovered are the discovered tool names.
	Discovered []string `json:"discovered"`
	// Announced are the deferred tool names last announced; nil (JSON
	// null) when nothing was announced since the conversation began or was
	// compacted: the next announcement is then full.
	Announced []string `json:"announced"`
}

// Snapshot returns the Session's state, to save (as JSON) and Restore
// later, for example around a compaction or a process restart. The
// slices are the caller's.
func (s *Session) Snapshot() SessionState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return SessionState{
		Discovered: append([]string{}, slices.Sorted(maps.Keys(s.discovered))...),
		Announced:  slices.Clone(s.announced), // nil stays nil
	}
}

// Restore replaces the Session's state with st. Every name must be a valid
// tool name (registered or not); otherwise nothing is changed and the
// error names each bad one, wrapping ErrInvalidName.
func (s *Session) Restore(st SessionState) error {
	var errs []error
	for _, list := range [][]string{st.Discovered, st.Announced} {
		for _, n := range list {
			if err := checkName(n); err != nil {
				errs = append(errs, fmt.Errorf("restore %q: %w", n, err))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	disc := make(map[string]struct{}, len(st.Discovered))
	for _, n := range st.Discovered {
		disc[n] = struct{}{}
	}
	var ann []string
	if st.Announced != nil {
		ann = append([]string{}, sortedCopy(st.Announced)...)
	}
	s.mu.Lock()
	s.discovered = disc
	s.announced = ann
	s.mu.Unlock()
	return nil
}

// Announcement is what a Session tells the model about its deferred tools
// on one turn (see Session.Announce).
type Announcement struct {
	// Text is the message to add to the conversation; "" when there is
	// nothing new to say.
	Text string
	// Full reports a full announcement (an <available-deferred-tools>
	// block) rather than a delta.
	Full bool
	// Added and Removed are the names that became available and went away
	// since the last announcement, sorted; for a full announcement Added
	// is every deferred name.
	Added, Removed []string
}

// Announce returns what to tell the model about the deferred tools in
// scope before the next request, and records it as told. The first call
// of a conversation (and the first after Compact, Clear or a Restore of a
// state whose Announced is nil) gives the full <available-deferred-tools> block
// (see Searcher.DeferredToolsBlock); later calls give the delta since the
// last announcement (see DeltaText), or "" when nothing changed. When the
// last deferred tool goes away, the delta says so. While the mode defers
// nothing (ModeNever, or ModeAuto below its threshold) it returns the zero
// Announcement and records nothing: every tool is then sent in full. An application that lists the deferred tools in its system
// prompt instead (SystemPromptSection) does not need Announce.
func (s *Session) Announce() Announcement {
	snap := s.reg.load()
	if !s.modeDefers(snap) {
		return Announcement{}
	}
	on := s.hasDeferred(snap)
	texts := s.searcher.texts(snap)
	names := texts.names
	s.mu.Lock()
	defer s.mu.Unlock()
	if !on && s.announced == nil {
		return Announcement{}
	}
	full := s.announced == nil
	prev := s.announced
	// names is immutable (it belongs to the snapshot's texts), so it is
	// kept without a copy; non-nil means announced, even if empty.
	s.announced = names
	if full {
		return Announcement{Text: texts.block, Full: true, Added: slices.Clone(names)}
	}
	if len(prev) == len(names) && (len(names) == 0 || &prev[0] == &names[0]) {
		return Announcement{} // same texts as last time: nothing changed
	}
	added, removed := diffSorted(prev, names)
	return Announcement{Text: DeltaText(added, removed), Added: added, Removed: removed}
}

// diffSorted returns the names in b but not a, and in a but not b; both
// inputs sorted and without duplicates.
func diffSorted(a, b []string) (added, removed []string) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			removed = append(removed, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			added = append(added, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return added, removed
}

// SystemPromptSection returns the system-prompt section listing the
// deferred tools in scope (see Searcher.SystemPromptSection), or "" while
// ToolSearch is not offered.
func (s *Session) SystemPromptSection() string {
	snap := s.reg.load()
	if !s.searchOn(snap) {
		return ""
	}
	return s.searcher.texts(snap).section
}

// String describes the Session for logs: its mode, scope and number of
// discovered tools.
func (s *Session) String() string {
	var b strings.Builder
	b.WriteString("toolsearch.Session{mode: " + s.opts.Mode.String())
	if sc := s.opts.Scope; sc != nil {
		b.WriteString(", scope: [" + strings.Join(sc.Allow, " ") + "]")
	}
	s.mu.Lock()
	n := len(s.discovered)
	s.mu.Unlock()
	fmt.Fprintf(&b, ", discovered: %d}", n)
	return b.String()
}
