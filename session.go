package toolsearch

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"sync"

	"github.com/toolsearch/toolsearch/internal/text"
)

// SessionOptions configure a Session. A nil *SessionOptions means the
// defaults; a zero field means that field's default. Options are copied.
type SessionOptions struct {
	// Search configures how the Session answers ToolSearch calls (its
	// Searcher). Search.Scope is the conversation's scope (a subagent's
	// allow-list): it limits the tool list, the announcements, the
	// ToolSearch results and the call guard alike; nil means every tool.
	Search SearchOptions
	// Format is the rendering of ToolSearch results; default FormatInline.
	// With CallBridge on, FormatToolReference is rendered as FormatInline
	// (the model needs the schemas in the result).
	Format Format
	// Mode says when tools are deferred; default ModeAlways.
	Mode ToolSearchMode
	// ContextWindow is the model's context window in tokens, for an auto
	// Mode; default 200,000.
	ContextWindow int
	// CountTokens counts the tokens of tool definitions, for an auto Mode;
	// it should return what the provider's token counting reports for a
	// request carrying just these tools (500 tokens of fixed overhead are
	// subtracted). When nil, or when it returns an error, characters are
	// counted instead. It is called without any lock held, at most once per
	// registry change in the usual case (racing calls may repeat it), and
	// possibly from several goroutines, with every deferred tool in scope.
	// Counted in characters, a registry change costs the tools it
	// changed: the count of the version before is patched.
	CountTokens func(tools []ToolDefinition) (int, error)
	// CallBridge offers the fixed CallTool tool: discovered tools are not
	// added to Tools() and the model calls them through CallTool, so the
	// tool list stays the same for the whole conversation.
	CallBridge bool

	// MaxDiscovered bounds the discovered set against names that come from
	// outside the conversation's own ToolSearch calls: AddDiscovered and
	// Resume skip the names that would take the set past it (with one error
	// saying how many), and Restore refuses a state that holds more. Call
	// always records what it returned: those are registered tools, so the
	// set stays within the registry's size. Default 10,000.
	MaxDiscovered int
	// MaxArgumentBytes is the longest arguments CheckCall accepts for one
	// call (for a CallTool call, its whole arguments), in bytes; longer ones
	// are refused (ErrInvalidArguments and ErrLimit) before they are
	// decoded. Default 1 MiB, more than a model writes in one call.
	MaxArgumentBytes int
	// MaxValidationWork bounds the work of validating one call's arguments
	// against its tool's schema in CheckCall. Before validating, CheckCall
	// adds up an upper bound of that work and refuses the call
	// (ErrInvalidArguments and ErrLimit) when it is over: the decoding of
	// the arguments (30 units per value, 60 more per object member, 1 per
	// byte; a CallTool call pays for its outer decoding too), 300 units for
	// each subschema applied to each value, for a string checked against a
	// pattern its length times the pattern's program size, for a string
	// checked against a format its length (a thousand times its length for
	// the format "regex", which compiles it), the bytes of the enum and
	// const values compared, and 2 units per property a subschema lists,
	// per object. A unit is about ten nanoseconds of the schema library's
	// time. Default 10,000,000: about 30,000 values against small
	// subschemas, or a 1 MB string against a short pattern such as
	// ^[a-z]*$.
	MaxValidationWork int
}

// The defaults of SessionOptions.
const (
	defaultMaxDiscovered    = 10_000
	defaultMaxArgumentBytes = 1 << 20
)

// defaultMaxValidationWork is the default of SessionOptions.MaxValidationWork:
// about a tenth of a second of the schema library's time.
const defaultMaxValidationWork = 10_000_000

// defaultContextWindow is the context window assumed when
// SessionOptions.ContextWindow is 0.
const defaultContextWindow = 200_000

// Session is the state of one conversation over a shared Registry: the
// tools the model has discovered through ToolSearch, what it was told
// about the deferred tools, and its scope. Many Sessions may share one
// Registry; each sees only its own discoveries. A Session is safe for
// concurrent use; it never holds a lock while calling user code (lazy
// schemas, CountTokens, a Strategy).
//
// A turn of an agent loop uses it like this: send Tools() (and the
// Announce() text) with the request; answer a ToolSearch call with Call,
// rendering the result with Content(Format()) (the tool result's content,
// and the texts that follow the tool results); check any other call with
// CheckCall before running it.
type Session struct {
	reg      *Registry
	opts     SessionOptions
	searcher *Searcher
	in       func(*entry) bool // the scope

	mu         sync.Mutex
	discovered map[string]struct{}
	ann        announcedSet // the deferred names last announced

	auto memo[autoState] // the auto-mode decision
}

// NewSession returns a Session over reg, which must not be nil.
func NewSession(reg *Registry, opts *SessionOptions) *Session {
	s := &Session{reg: reg, discovered: map[string]struct{}{}}
	if opts != nil {
		s.opts = *opts
	}
	s.searcher = NewSearcher(reg, &s.opts.Search)
	s.opts.Search = s.searcher.opts // the Searcher's copy, defaults filled in
	s.in = s.searcher.in
	s.opts.ContextWindow = orDefault(s.opts.ContextWindow, defaultContextWindow)
	s.opts.MaxDiscovered = orDefault(s.opts.MaxDiscovered, defaultMaxDiscovered)
	s.opts.MaxArgumentBytes = orDefault(s.opts.MaxArgumentBytes, defaultMaxArgumentBytes)
	s.opts.MaxValidationWork = orDefault(s.opts.MaxValidationWork, defaultMaxValidationWork)
	return s
}

// Format returns the rendering of ToolSearch results: SessionOptions.Format,
// except that with CallBridge a tool-reference format is rendered inline
// (the model needs the schemas in the result). Answer a ToolSearch call
// with res.Content(s.Format()).
func (s *Session) Format() Format {
	if s.opts.CallBridge && s.opts.Format == FormatToolReference {
		return FormatInline
	}
	return s.opts.Format
}

// ToolSearchOffered reports whether the next request offers ToolSearch:
// the mode defers tools, and the scope has a deferred tool or an MCP
// server is pending that may bring one into the scope (a server of a
// tool the scope names, or any server for a "*" scope with
// IncludeDeferred). When it is false, Tools() is every tool in scope, in
// full.
func (s *Session) ToolSearchOffered() bool { return s.searchOn(s.reg.load()) }

func (s *Session) searchOn(snap *snapshot) bool {
	return s.hasDeferred(snap) && s.modeDefers(snap)
}

// hasDeferred reports whether the scope has a deferred tool, or an MCP
// server is pending that may bring one into it.
func (s *Session) hasDeferred(snap *snapshot) bool {
	return s.searcher.anyDeferred(snap) || len(s.searcher.pendingServers(snap)) > 0
}

// modeDefers reports whether the mode defers the deferred tools of snap.
func (s *Session) modeDefers(snap *snapshot) bool {
	switch m := s.opts.Mode; {
	case m <= ModeAlways:
		return true
	case m >= ModeNever:
		return false
	}
	return s.autoOn(snap)
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
		InputSchema:  slices.Clone(schema),
		DeferLoading: deferLoading,
	}
}

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
// A tool whose lazy schema cannot be loaded is left out of defs, and
// skipped holds one error per such tool, naming it; send defs all the same.
// The slices are the caller's.
//
// While ToolSearch is offered, Tools costs what it returns: the tools that
// are not deferred are kept apart, and the discovered names are looked up
// one by one, so the deferred tools of the registry are never walked (an
// auto Mode measures them once per registry change, or only the changed
// ones when it counts characters; see SessionOptions.CountTokens).
func (s *Session) Tools() (defs []ToolDefinition, skipped []error) {
	snap := s.reg.load()
	on := s.searchOn(snap)
	var disc []*entry // the discovered tools to send
	if on && !s.opts.CallBridge {
		disc = s.discoveredIn(snap)
	}
	cc332 := s.opts.Search.Profile == ClaudeCode2_1_332
	add := func(e *entry, deferLoading, discovered bool) {
		if _, err := e.loadSchema(); err != nil {
			skipped = append(skipped, err)
			return
		}
		d := definition(e, deferLoading)
		if cc332 {
			d.Description = sentDescription332(e, discovered)
		}
		defs = append(defs, d)
	}
	list := snap.pool
	if on {
		list = snap.loaded // the deferred tools are not sent in full
	}
	for e := range list.All() {
		if !s.in(e) || on && (e.tool.Name == ToolSearchName || s.opts.CallBridge && e.tool.Name == CallToolName ||
			cc332 && e.tool.Name == placeholderName) {
			continue
		}
		add(e, false, false)
	}
	if !on {
		return defs, skipped
	}
	defs = append(defs, s.searcher.ToolDefinition())
	if s.opts.CallBridge {
		return append(defs, callToolDefinition()), skipped
	}
	refs := s.opts.Format == FormatToolReference
	for _, e := range disc {
		add(e, refs, true)
	}
	if cc332 && refs {
		defs = withPlaceholder(defs)
	}
	return defs, skipped
}

// discoveredIn returns the discovered tools that are deferred, available
// and in scope in snap, in pool order: each discovered name is looked up,
// so that the cost is the discovered set's, not the registry's (or the
// deferred tools', when they are fewer).
func (s *Session) discoveredIn(snap *snapshot) []*entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*entry
	if len(s.discovered) > snap.deferred.Len() {
		for e := range snap.deferredTools() {
			if _, ok := s.discovered[e.tool.Name]; ok && s.in(e) {
				out = append(out, e)
			}
		}
		return out
	}
	for n := range s.discovered {
		if e := snap.named(n); e != nil && e.deferred && s.in(e) {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, poolCompare)
	return out
}

// Call answers a ToolSearch call (args are the raw arguments the model
// sent) through the Session's Searcher, as Searcher.Call does, and records
// every tool it returned as discovered (a tool that is not deferred is
// recorded too, as a history would show it, and is sent once all the
// same). An agent loop answers a ToolSearch call with
//
//	res, err := s.Call(args)
//	if err != nil {
//		// an error tool result whose text is err.Error()
//	} else {
//		content, after := res.Content(s.Format())
//		// a tool result whose content is content; the after blocks go
//		// after every tool result of the message
//	}
func (s *Session) Call(args json.RawMessage) (*Result, error) {
	return s.CallContext(context.Background(), args)
}

// CallContext is Call with a context, which the strategy's ranking
// receives (see Searcher.SearchContext).
func (s *Session) CallContext(ctx context.Context, args json.RawMessage) (*Result, error) {
	res, err := s.searcher.CallContext(ctx, args)
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

// isDiscovered reports whether tool name was discovered in this
// conversation.
func (s *Session) isDiscovered(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.discovered[name]
	return ok
}

// AddDiscovered records names as discovered, as if ToolSearch had returned
// them. Names need not be registered (a tool may come back later). A name
// that is not a valid tool name is skipped: skipped holds one error per
// such name, wrapping ErrInvalidName; the valid ones are recorded, in the
// order given, until the set holds SessionOptions.MaxDiscovered names: the
// names left then are skipped, with one error that counts them and wraps
// ErrLimit.
func (s *Session) AddDiscovered(names ...string) (skipped []error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	over := 0
	for _, n := range names {
		if err := checkName(n); err != nil {
			skipped = append(skipped, wrapf(err, "discovered %q", text.Echo(n)))
			continue
		}
		if _, ok := s.discovered[n]; !ok && len(s.discovered) >= s.opts.MaxDiscovered {
			over++
			continue
		}
		s.discovered[n] = struct{}{}
	}
	if over > 0 {
		skipped = append(skipped, wrapf(errorf(ErrLimit, "%d names not recorded, the conversation has discovered %d tools, the limit (SessionOptions.MaxDiscovered)", over, s.opts.MaxDiscovered), "discovered"))
	}
	return skipped
}

// Compact tells the Session that the conversation was compacted: the
// discovered set is kept, and the next Announce is a full announcement
// (the earlier ones were summarized away).
func (s *Session) Compact() {
	s.mu.Lock()
	s.ann = announcedSet{}
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
		Announced:  slices.Clone(s.announcedList()), // nil stays nil
	}
}

// Restore replaces the Session's state with st; Restore(SessionState{})
// starts the conversation over (nothing discovered, a full announcement
// next). Every name must be a valid tool name (registered or not);
// Discovered may hold at most SessionOptions.MaxDiscovered names, and
// Announced at most as many, or as many as the Session would announce now
// if that is more; otherwise nothing is changed and the error names each
// bad one, wrapping ErrInvalidName (or says the count, wrapping ErrLimit).
//
// A scoped Session keeps only the names its scope may hold (a state saved
// by a parent conversation names tools a subagent must not see): a
// registered tool by the scope, a name no tool has by Scope.Allow naming
// it (or "*", which for Announced needs IncludeDeferred). The others are
// dropped, so that no announcement names them.
func (s *Session) Restore(st SessionState) error {
	if n := len(st.Discovered); n > s.opts.MaxDiscovered {
		return wrapf(errorf(ErrLimit, "%d discovered names, the limit (SessionOptions.MaxDiscovered) is %d", n, s.opts.MaxDiscovered), "restore")
	}
	snap := s.reg.load()
	// The deferred tools in scope are counted only for a list longer than
	// MaxDiscovered.
	if n := len(st.Announced); n > s.opts.MaxDiscovered {
		if limit := max(s.opts.MaxDiscovered, s.searcher.deferredCount(snap)); n > limit {
			return wrapf(errorf(ErrLimit, "%d announced names, the limit is %d (SessionOptions.MaxDiscovered, or the deferred tools in scope if more)", n, limit), "restore")
		}
	}
	var errs []error
	bad := 0
	for _, list := range [][]string{st.Discovered, st.Announced} {
		for _, n := range list {
			if err := checkName(n); err != nil {
				if bad++; bad <= maxSkippedNames {
					errs = append(errs, wrapf(err, "restore %q", text.Echo(n)))
				}
			}
		}
	}
	if bad > maxSkippedNames {
		errs = append(errs, wrapf(ErrInvalidName, "restore: %d more invalid names", bad-maxSkippedNames))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	disc := make(map[string]struct{}, len(st.Discovered))
	for _, n := range st.Discovered {
		if s.mayHold(snap, n, false) {
			disc[n] = struct{}{}
		}
	}
	var ann []string
	if st.Announced != nil {
		ann = []string{}
		for _, n := range sortedCopy(st.Announced) {
			if s.mayHold(snap, n, true) {
				ann = append(ann, n)
			}
		}
	}
	s.mu.Lock()
	s.discovered = disc
	s.ann = announcedSet{told: ann != nil, base: ann} // not the view of a snapshot: the next delta lists the deferred tools
	s.mu.Unlock()
	return nil
}

// mayHold reports whether the Session's scope may hold tool name: a
// registered tool (available or not) by the scope, another name by
// Scope.Allow naming it, or "*" (for a deferred tool, with
// IncludeDeferred).
func (s *Session) mayHold(snap *snapshot, name string, deferred bool) bool {
	sc := s.opts.Search.Scope
	if sc == nil {
		return true
	}
	if e := snap.all.get(name); e != nil {
		return s.in(e)
	}
	return slices.Contains(sc.Allow, name) || slices.Contains(sc.Allow, "*") && (!deferred || sc.IncludeDeferred)
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
	// System reports that Text is for a system-role message, a paragraph
	// of it (ClaudeCode2_1_332, for a model with
	// ModelTraits.SystemMessages); otherwise Text is a user text.
	System bool
}

// Announce returns what to tell the model about the deferred tools in
// scope before the next request, and records it as told. The first call
// of a conversation (and the first after Compact or a Restore of a
// state whose Announced is nil) gives the full list, an
// <available-deferred-tools> block with one name a line; later calls give
// the delta since the last announcement (the names that became available,
// then those that went away, under a sentence that says why: their MCP
// server disconnected, the tool was removed, or it is no longer deferred
// and is sent in full), or "" when nothing changed. When the last deferred tool goes away, the delta says
// so. While the mode defers nothing (ModeNever, or an auto mode below its
// threshold) it returns the zero Announcement and records nothing: every
// tool is then sent in full.
//
// An unchanged announcement, and a delta, cost what changed since the
// last announcement, not the deferred list: each registry change records
// the tools it touched, and only those are looked at. The deferred list is
// read for a full announcement, for the first delta after a Restore, and
// for a delta across more than 4,096 changed tools (the changes a registry
// keeps a record of).
//
// Announce is for agents that tell the model about deferred tools in the
// conversation (a message before each request); an agent that lists them
// in its system prompt uses SystemPromptSection instead, and needs neither
// Announce nor a cache-breaking change to the system prompt when the list
// is stable.
func (s *Session) Announce() Announcement {
	snap := s.reg.load()
	if !s.modeDefers(snap) {
		return Announcement{}
	}
	on := s.hasDeferred(snap)
	// The listing of the deferred tools is read (and rendered, once per
	// snapshot) without the lock, and only for a full announcement or a
	// delta that the change log cannot give.
	var texts *promptTexts
	var changed []string
	for {
		s.mu.Lock()
		var ok bool
		changed, ok = snap.log.since(s.ann.seq)
		if texts != nil || s.ann.told && s.ann.known && ok || !on && !s.ann.told {
			break
		}
		s.mu.Unlock()
		texts = s.searcher.promptTexts(snap)
	}
	defer s.mu.Unlock()
	if !on && !s.ann.told {
		return Announcement{}
	}
	var a Announcement
	switch {
	case !s.ann.told:
		a = Announcement{Text: s.searcher.block(snap), Full: true, Added: slices.Clone(texts.names)}
		s.ann.reset(texts.names, snap.seqOf()) // immutable (the snapshot's texts): kept without a copy
	case s.ann.known && s.ann.seq == snap.seqOf():
		return Announcement{} // the same snapshot as last time: nothing changed
	default:
		var added, removed []string
		if texts == nil {
			added, removed = s.ann.advance(changed, snap.seqOf(), func(n string) bool {
				e := snap.named(n)
				return e != nil && e.deferred && s.in(e)
			})
		} else {
			added, removed = diffSorted(s.ann.list(), texts.names)
			s.ann.reset(texts.names, snap.seqOf())
		}
		gone, removed := s.whyGone(snap, removed)
		a = Announcement{Text: compactDelta(added, gone, s.opts.Search.MaxListingBytes), Added: added, Removed: removed}
	}
	if s.opts.Search.Profile == ClaudeCode2_1_332 {
		a.Text, a.System = announcement332(a.Added, a.Removed, s.opts.Search.Model, s.opts.Search.MaxListingBytes)
	}
	return a
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
// ToolSearch is not offered. It is for agents that list deferred tools in
// the system prompt; those that announce them in the conversation use
// Announce instead.
func (s *Session) SystemPromptSection() string {
	snap := s.reg.load()
	if !s.searchOn(snap) {
		return ""
	}
	return s.searcher.section(snap)
}
