// Package tsmcpsdk connects MCP servers reached with the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk) to a toolsearch.Registry.
//
// ConvertTool turns one *mcp.Tool into a toolsearch.Tool. Servers keeps the
// tools of any number of client sessions in a Registry, one MCP server per
// session: Attach (or Connect, which also connects the client) marks the
// server pending, lists every page of its tools into the registry and marks
// it connected. The tools are listed again on each
// notifications/tools/list_changed, which the SDK delivers to the Client's
// ToolListChangedHandler: build the Client with Servers.ClientOptions.
//
// # Status
//
// A server is disconnected, its tools kept in the registry but no longer
// offered, when its session ends (closed by either side), when Close is
// called, when it does not answer a ping within Options.PingInterval (its
// session is then closed), and when a listing fails for a reason of the
// server's (an error, no complete list within Options.ListTimeout, more pages
// or tools than Options.MaxListPages or Options.MaxListTools). After a failed
// listing the server comes back, connected, with the next listing that
// succeeds (on tools/list_changed or Refresh). Each listing is bounded by
// Options.ListTimeout as well as by the caller's context, and Close ends a
// listing in progress at once.
//
// # Errors for the model
//
// The toolsearch adapters share one convention: a text for the model (a
// call refused by toolsearch.Session.CheckCall, for example) is sent as the
// error's text exactly as toolsearch wrote it, with the provider's error
// flag set. For MCP that flag is isError: ErrorResult builds that result.
//
// The package is named tsmcpsdk so that it never collides with the SDK's
// package mcp; import it as
//
//	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
package tsmcpsdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch"
)

// ConvertTool converts tool t, listed by MCP server server, into a
// toolsearch.Tool with toolsearch.NewMCPTool: the name is
// mcp__<server>__<tool>, the description is cut at 2,048 characters, and the
// _meta keys anthropic/alwaysLoad and anthropic/searchHint set AlwaysLoad and
// SearchHint. The input schema is t.InputSchema encoded as JSON; a nil
// schema is left empty (the Registry reads it as {"type":"object"}). The
// schema is validated when the tool is registered, not here.
func ConvertTool(server string, t *mcp.Tool) (toolsearch.Tool, error) {
	if t == nil {
		return toolsearch.Tool{}, fmt.Errorf("tsmcpsdk: server %q listed a nil tool", server)
	}
	var schema json.RawMessage
	if t.InputSchema != nil {
		b, err := json.Marshal(t.InputSchema)
		if err != nil {
			return toolsearch.Tool{}, fmt.Errorf("tsmcpsdk: tool %q of server %q: encoding its input schema: %w", t.Name, server, err)
		}
		if string(b) != "null" {
			schema = b
		}
	}
	return toolsearch.NewMCPTool(server, t.Name, t.Description, schema, t.Meta), nil
}

// ErrorResult returns err as an MCP tool result for the model: err.Error()
// as the only text content, with isError set. Use it for a call refused by
// toolsearch.Session.CheckCall, whose error text is written for the model.
func ErrorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}, IsError: true}
}

// The defaults of Options.
const (
	defaultListTimeout  = 30 * time.Second
	defaultMaxListPages = 1000
	defaultMaxListTools = 10000
	defaultPingInterval = 15 * time.Second
)

// Options configure Servers. A nil *Options means the defaults; a zero
// field means its default.
type Options struct {
	// ListTimeout bounds each listing of a server's tools, all pages
	// together: the first one in Attach, the ones after tools/list_changed
	// and Refresh. Default 30 seconds.
	ListTimeout time.Duration
	// MaxListPages and MaxListTools bound one listing: a server that
	// answers with more pages (following nextCursor) or more tools fails
	// that listing with an error wrapping toolsearch.ErrLimit, and nothing
	// of it is registered. Defaults 1,000 pages and 10,000 tools.
	MaxListPages int
	MaxListTools int
	// PingInterval is how often each server is pinged; a server that does
	// not answer within PingInterval is reported to OnError, marked
	// disconnected and its session closed. Default 15 seconds; negative
	// means never.
	PingInterval time.Duration

	// OnError, if set, is told about problems that do not stop a server
	// (tools that could not be converted or registered: the server's other
	// tools are kept) and about the ones that disconnect it after Attach
	// (a failed re-listing, an unanswered ping).
	OnError func(server string, err error)
	// OnStatus, if set, is called after a server's status is set in the
	// registry.
	OnStatus func(server string, status toolsearch.ServerStatus)
	// OnListed, if set, is called after a server's tools have been
	// (re)listed into the registry, with the number of tools the server
	// listed.
	//
	// The callbacks may be called from any goroutine. OnStatus and
	// OnListed are called one at a time per server, in order; they must not
	// call Refresh or Close, which wait for them.
	OnListed func(server string, tools int)
}

// Servers keeps the tools of MCP client sessions in a Registry, one MCP
// server per session. It is safe for concurrent use. Its zero value is not
// usable: call New.
type Servers struct {
	reg  *toolsearch.Registry
	opts Options

	mu       sync.Mutex
	sessions map[*mcp.ClientSession]*link
	names    map[string]*link
}

// link is one attached session.
type link struct {
	server string
	cs     *mcp.ClientSession
	ctx    context.Context // ended when the link ends: every listing and ping stops
	end    context.CancelFunc
	turn   chan struct{} // capacity 1: held by whoever lists or changes the status
	status toolsearch.ServerStatus
	kick   chan struct{} // capacity 1: a re-list is wanted
	done   chan struct{} // closed once the link has ended and the server is marked
}

// New returns Servers that keep their tools in reg.
func New(reg *toolsearch.Registry, opts *Options) *Servers {
	s := &Servers{reg: reg, sessions: map[*mcp.ClientSession]*link{}, names: map[string]*link{}}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.ListTimeout <= 0 {
		s.opts.ListTimeout = defaultListTimeout
	}
	if s.opts.MaxListPages <= 0 {
		s.opts.MaxListPages = defaultMaxListPages
	}
	if s.opts.MaxListTools <= 0 {
		s.opts.MaxListTools = defaultMaxListTools
	}
	if s.opts.PingInterval == 0 {
		s.opts.PingInterval = defaultPingInterval
	}
	return s
}

// ClientOptions returns a copy of opts (nil means none) whose
// ToolListChangedHandler tells s about tools/list_changed and then calls the
// handler opts had, if any. Pass the result to mcp.NewClient; one Client
// may serve sessions to many servers.
func (s *Servers) ClientOptions(opts *mcp.ClientOptions) *mcp.ClientOptions {
	var o mcp.ClientOptions
	if opts != nil {
		o = *opts
	}
	next := o.ToolListChangedHandler
	o.ToolListChangedHandler = func(ctx context.Context, req *mcp.ToolListChangedRequest) {
		s.toolListChanged(req)
		if next != nil {
			next(ctx, req)
		}
	}
	return &o
}

// toolListChanged schedules a re-listing of the tools of the session the
// notification came from. Notifications for a session that is not attached
// (yet) are ignored, since attaching lists the tools anyway.
func (s *Servers) toolListChanged(req *mcp.ToolListChangedRequest) {
	if req == nil || req.Session == nil {
		return
	}
	s.mu.Lock()
	l := s.sessions[req.Session]
	s.mu.Unlock()
	if l != nil {
		select {
		case l.kick <- struct{}{}:
		default: // a re-list is already scheduled; it will see this change
		}
	}
}

var (
	// ErrServerAttached is returned when a server name is already attached.
	ErrServerAttached = errors.New("tsmcpsdk: server already attached")
	// ErrNotAttached is returned by Refresh and Close for a server name
	// that is not attached.
	ErrNotAttached = errors.New("tsmcpsdk: server not attached")
)

// Connect marks server pending in the registry, connects client over
// transport, and attaches the new session (see Attach). If connecting or the
// first listing fails, the server is marked disconnected and the error is
// returned; the session, if any, is closed. client should be built with
// s.ClientOptions so that tools/list_changed reaches s.
func (s *Servers) Connect(ctx context.Context, server string, client *mcp.Client, transport mcp.Transport, opts *mcp.ClientSessionOptions) (*mcp.ClientSession, error) {
	l, err := s.reserve(server, nil)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx) // Close(server) abandons the connection too
	defer cancel()
	defer context.AfterFunc(l.ctx, cancel)()
	cs, err := client.Connect(ctx, transport, opts)
	if err != nil {
		<-l.turn
		s.finish(l)
		return nil, fmt.Errorf("tsmcpsdk: connect %q: %w", server, err)
	}
	if err := s.attach(ctx, l, cs); err != nil {
		_ = cs.Close()
		return nil, err
	}
	return cs, nil
}

// Attach attaches connected session cs to the registry as MCP server
// server: it marks the server pending, lists every tool (following
// nextCursor through all pages) into the registry with SetServerTools, and
// marks the server connected. Afterwards the tools are listed again on each
// tools/list_changed notification, until the session ends or Close is
// called (see the package doc for when the server is disconnected). Tools
// that cannot be converted or registered are skipped and reported to
// Options.OnError. A failed first listing is returned; the server is then
// marked disconnected and detached, and cs is left open.
func (s *Servers) Attach(ctx context.Context, server string, cs *mcp.ClientSession) error {
	l, err := s.reserve(server, cs)
	if err != nil {
		return err
	}
	return s.attach(ctx, l, cs)
}

// reserve takes name server for a new link, which holds its turn, and marks
// the server pending.
func (s *Servers) reserve(server string, cs *mcp.ClientSession) (*link, error) {
	if server == "" {
		return nil, errors.New("tsmcpsdk: attach: empty server name")
	}
	ctx, end := context.WithCancel(context.Background())
	l := &link{server: server, cs: cs, ctx: ctx, end: end,
		turn: make(chan struct{}, 1), kick: make(chan struct{}, 1), done: make(chan struct{})}
	l.turn <- struct{}{}
	s.mu.Lock()
	if _, ok := s.names[server]; ok {
		s.mu.Unlock()
		end()
		return nil, fmt.Errorf("attach %q: %w", server, ErrServerAttached)
	}
	s.names[server] = l
	if cs != nil {
		s.sessions[cs] = l
	}
	s.mu.Unlock()
	s.setStatus(l, toolsearch.ServerPending)
	return l, nil
}

// attach lists l's tools for the first time, with l's turn held, and starts
// following the session.
func (s *Servers) attach(ctx context.Context, l *link, cs *mcp.ClientSession) error {
	s.mu.Lock()
	l.cs = cs
	s.sessions[cs] = l
	s.mu.Unlock()
	err := s.listHeld(ctx, l)
	<-l.turn
	if err != nil {
		s.finish(l)
		return err
	}
	go func() { // the session's end, from either side, ends the link
		_ = cs.Wait()
		l.end()
	}()
	go s.follow(l)
	return nil
}

// follow re-lists l's tools on tools/list_changed and pings the server
// until the link ends, then marks the server disconnected.
func (s *Servers) follow(l *link) {
	var ping <-chan time.Time
	if s.opts.PingInterval > 0 {
		t := time.NewTicker(s.opts.PingInterval)
		defer t.Stop()
		ping = t.C
	}
	for {
		select {
		case <-l.ctx.Done():
			s.finish(l)
			return
		case <-l.kick:
			if err := s.list(l.ctx, l); err != nil && l.ctx.Err() == nil {
				s.report(l.server, fmt.Errorf("tsmcpsdk: re-listing tools of %q after tools/list_changed: %w", l.server, err))
			}
		case <-ping:
			ctx, cancel := context.WithTimeout(l.ctx, s.opts.PingInterval)
			err := l.cs.Ping(ctx, nil)
			unanswered := ctx.Err() != nil && l.ctx.Err() == nil
			cancel()
			if unanswered {
				s.report(l.server, fmt.Errorf("tsmcpsdk: %q did not answer a ping within %s (Options.PingInterval): %w", l.server, s.opts.PingInterval, err))
				l.end()
				go l.cs.Close()
			}
		}
	}
}

// list takes l's turn, giving up when ctx ends, and lists l's tools.
func (s *Servers) list(ctx context.Context, l *link) error {
	select {
	case l.turn <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("tsmcpsdk: listing tools of %q: %w", l.server, context.Cause(ctx))
	}
	defer func() { <-l.turn }()
	return s.listHeld(ctx, l)
}

// errClosed is why a listing of a server that was closed stopped.
var errClosed = errors.New("the server was closed")

// listHeld lists every tool of l's session and replaces the server's tools
// in the registry, marking the server connected. The caller holds l's turn.
func (s *Servers) listHeld(ctx context.Context, l *link) error {
	tools, err := s.fetchWithin(ctx, l)
	if err == nil && l.ctx.Err() != nil { // closed while the last page arrived: leave the registry alone
		err = errClosed
	}
	if err != nil {
		return fmt.Errorf("tsmcpsdk: listing tools of %q: %w", l.server, err)
	}
	s.register(l, tools)
	s.setStatus(l, toolsearch.ServerConnected)
	return nil
}

// fetchWithin fetches l's tools within Options.ListTimeout, ctx and l's
// life. A failure that is not ctx's ending or l's marks the server
// disconnected. The caller holds l's turn.
func (s *Servers) fetchWithin(ctx context.Context, l *link) ([]*mcp.Tool, error) {
	if l.ctx.Err() != nil {
		return nil, errClosed
	}
	lctx, cancel := context.WithTimeoutCause(ctx, s.opts.ListTimeout,
		fmt.Errorf("no complete tool list within %s (Options.ListTimeout): %w", s.opts.ListTimeout, context.DeadlineExceeded))
	defer cancel()
	defer context.AfterFunc(l.ctx, cancel)()
	tools, err := s.fetch(lctx, l)
	switch {
	case err == nil:
		return tools, nil
	case l.ctx.Err() != nil:
		return nil, errClosed
	case lctx.Err() != nil:
		err = context.Cause(lctx) // ListTimeout, or the caller's context
	}
	if ctx.Err() == nil {
		s.setStatus(l, toolsearch.ServerDisconnected)
	}
	return nil, err
}

// fetch returns every tool of l's session, page by page, within the
// listing bounds.
func (s *Servers) fetch(ctx context.Context, l *link) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	params := &mcp.ListToolsParams{}
	for page := 1; ; page++ {
		if page > s.opts.MaxListPages {
			return nil, fmt.Errorf("%w: more than %d pages (Options.MaxListPages)", toolsearch.ErrLimit, s.opts.MaxListPages)
		}
		res, err := l.cs.ListTools(ctx, params)
		if err != nil {
			return nil, err
		}
		if len(tools)+len(res.Tools) > s.opts.MaxListTools {
			return nil, fmt.Errorf("%w: more than %d tools (Options.MaxListTools)", toolsearch.ErrLimit, s.opts.MaxListTools)
		}
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" {
			return tools, nil
		}
		params.Cursor = res.NextCursor
	}
}

// register replaces l's server's tools in the registry with tools; tools
// that cannot be converted or registered are reported.
func (s *Servers) register(l *link, listed []*mcp.Tool) {
	tools := make([]toolsearch.Tool, 0, len(listed))
	var bad []error
	for _, t := range listed {
		c, err := ConvertTool(l.server, t)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		tools = append(tools, c)
	}
	skipped, err := s.reg.SetServerTools(l.server, tools)
	bad = append(bad, skipped...)
	if err != nil {
		bad = append(bad, err)
	}
	if err := errors.Join(bad...); err != nil {
		s.report(l.server, err)
	}
	if s.opts.OnListed != nil {
		s.opts.OnListed(l.server, len(listed))
	}
}

// finish ends l: it waits for l's turn (a listing in progress ends with
// l's context), detaches l, marks the server disconnected and closes done.
func (s *Servers) finish(l *link) {
	l.end()
	l.turn <- struct{}{}
	s.mu.Lock()
	if s.names[l.server] == l {
		delete(s.names, l.server)
	}
	if l.cs != nil && s.sessions[l.cs] == l {
		delete(s.sessions, l.cs)
	}
	s.mu.Unlock()
	s.setStatus(l, toolsearch.ServerDisconnected)
	<-l.turn
	close(l.done)
}

// setStatus records l's status in the registry and tells OnStatus, when it
// changes. The caller holds l's turn.
func (s *Servers) setStatus(l *link, st toolsearch.ServerStatus) {
	if l.status == st {
		return
	}
	l.status = st
	s.reg.SetServerStatus(l.server, st)
	if s.opts.OnStatus != nil {
		s.opts.OnStatus(l.server, st)
	}
}

func (s *Servers) report(server string, err error) {
	if s.opts.OnError != nil {
		s.opts.OnError(server, err)
	}
}

// lookup returns the link attached as server and its session (nil while
// Connect connects), or nil.
func (s *Servers) lookup(server string) (*link, *mcp.ClientSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.names[server]; l != nil {
		return l, l.cs
	}
	return nil, nil
}

// closed is the channel Done returns for a server that is not attached.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Done returns a channel that is closed once the server attached as server
// has ended (its session ended, or Close was called) and been marked
// disconnected. For a name that is not attached, now, the channel is
// already closed: call Done after Attach or Connect has returned.
func (s *Servers) Done(server string) <-chan struct{} {
	if l, _ := s.lookup(server); l != nil {
		return l.done
	}
	return closed
}

// Session returns the session attached as server, or nil.
func (s *Servers) Session(server string) *mcp.ClientSession {
	_, cs := s.lookup(server)
	return cs
}

// CallTool calls the registry tool named name (mcp__<server>__<tool>) on
// the session of its server, under the tool's raw MCP name, with args, the
// raw JSON arguments the model sent (empty means none). A name that is not
// a tool of an attached server is an error wrapping
// toolsearch.ErrUnknownTool. Check the call with
// toolsearch.Session.CheckCall first: CallTool does not validate args.
func (s *Servers) CallTool(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	t, ok := s.reg.Lookup(name)
	if !ok || t.Server == "" {
		return nil, fmt.Errorf("call %q: %w: not a tool of an MCP server", name, toolsearch.ErrUnknownTool)
	}
	cs := s.Session(t.Server)
	if cs == nil {
		return nil, fmt.Errorf("call %q: %w: server %q is not attached", name, toolsearch.ErrUnknownTool, t.Server)
	}
	var a any
	if len(args) > 0 {
		a = args
	}
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: t.MCPName, Arguments: a})
}

// Refresh lists the tools of the server attached as server again, now,
// and replaces them in the registry. Servers does this by itself on
// tools/list_changed; Refresh is for callers that want a listing as of this
// moment, for example before a report. It returns when ctx ends, even if
// another listing of the server is in progress; a listing that fails for
// the server's reason marks it disconnected, as a failed re-listing does.
func (s *Servers) Refresh(ctx context.Context, server string) error {
	l, _ := s.lookup(server)
	if l == nil {
		return fmt.Errorf("refresh %q: %w", server, ErrNotAttached)
	}
	return s.list(ctx, l)
}

// Close ends the server attached as server: a listing in progress is
// abandoned, the server is marked disconnected (its tools are kept but no
// longer offered), and its session is closed; Close returns the session's
// Close error once Done(server) is closed. The name can then be attached
// again.
func (s *Servers) Close(server string) error {
	l, cs := s.lookup(server)
	if l == nil {
		return fmt.Errorf("close %q: %w", server, ErrNotAttached)
	}
	l.end()
	var err error
	if cs != nil {
		err = cs.Close()
	}
	<-l.done
	return err
}
