// Package tsmcpgo connects MCP servers reached with
// github.com/mark3labs/mcp-go to a toolsearch.Registry.
//
// ConvertTool turns one mcp.Tool into a toolsearch.Tool. Servers keeps the
// tools of any number of *client.Client values in a Registry, one MCP server
// per client: Attach starts and initializes the client if needed, marks the
// server pending, lists every page of its tools into the registry and marks
// it connected. The tools are listed again on each
// notifications/tools/list_changed.
//
// # Status
//
// A server is disconnected, its tools kept in the registry but no longer
// offered, when Close is called, when its connection is found closed (by a
// listing, a CallTool or a ping: a stdio server that exits during a call is
// disconnected by the time CallTool returns), when it does not answer a ping
// within Options.PingInterval (its client is then closed), and when a listing
// fails for a reason of the server's (an error, no complete list within
// Options.ListTimeout, more pages or tools than Options.MaxListPages or
// Options.MaxListTools). After a failed listing the server comes back,
// connected, with the next listing that succeeds (on tools/list_changed or
// Refresh). Each listing is bounded by Options.ListTimeout as well as by the
// caller's context, and Close ends a listing in progress at once.
//
// # Errors for the model
//
// The toolsearch adapters share one convention: a text for the model (a
// call refused by toolsearch.Session.CheckCall, for example) is sent as the
// error's text exactly as toolsearch wrote it, with the provider's error
// flag set. For MCP that flag is isError: ErrorResult builds that result.
//
// # Limits of mcp-go v1.2
//
// Its client decodes a tool's input schema into a struct that keeps only
// type, properties, required, additionalProperties and $defs, so other
// top-level schema keywords (description, anyOf, ...) never reach the
// registry; use the official SDK (package tsmcpsdk) when they matter. It
// reports a lost connection by itself only for SSE transports, and on
// protocol 2026-07-28 its Ping sends nothing (liveness is left to the
// transport there): for stdio and in-process clients on that protocol a
// server is found gone by a listing, a call or the failure of its
// subscription stream, not by pings.
//
// The package is named tsmcpgo so that it never collides with mcp-go's
// packages; import it as
//
//	tsmcpgo "github.com/toolsearch/toolsearch/mcpgo"
package tsmcpgo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/toolsearch/toolsearch"
)

// ConvertTool converts tool t, listed by MCP server server, into a
// toolsearch.Tool with toolsearch.NewMCPTool: the name is
// mcp__<server>__<tool>, the description is cut at 2,048 characters, and the
// _meta keys anthropic/alwaysLoad and anthropic/searchHint set AlwaysLoad and
// SearchHint. The input schema is t.RawInputSchema when set, otherwise
// t.InputSchema encoded as JSON, less the empty "required":[] that mcp-go
// adds (it costs prompt tokens and means nothing); it is validated when the
// tool is registered, not here.
func ConvertTool(server string, t mcp.Tool) (toolsearch.Tool, error) {
	schema := t.RawInputSchema
	if len(schema) == 0 {
		b, err := json.Marshal(t.InputSchema)
		if err != nil {
			return toolsearch.Tool{}, fmt.Errorf("tsmcpgo: tool %q of server %q: encoding its input schema: %w", t.Name, server, err)
		}
		schema = dropEmptyRequired(b)
	}
	var meta map[string]any
	if t.Meta != nil {
		meta = t.Meta.AdditionalFields
	}
	return toolsearch.NewMCPTool(server, t.Name, t.Description, schema, meta), nil
}

// ErrorResult returns err as an MCP tool result for the model: err.Error()
// as the only text content, with isError set. Use it for a call refused by
// toolsearch.Session.CheckCall, whose error text is written for the model.
func ErrorResult(err error) *mcp.CallToolResult {
	return mcp.NewToolResultError(err.Error())
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
	// disconnected and its client closed. Default 15 seconds; negative
	// means never.
	PingInterval time.Duration
	// Initialize is the initialize request Attach sends when the client
	// has not been initialized yet. Zero means client info
	// {"name":"toolsearch","version":"0"} and the client's default
	// capabilities.
	Initialize mcp.InitializeRequest

	// OnError, if set, is told about problems that do not stop a server
	// (tools that could not be converted or registered: the server's other
	// tools are kept) and about the ones that disconnect it after Attach
	// (a failed re-listing, an unanswered ping, a failed subscription
	// stream).
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

// Servers keeps the tools of mcp-go clients in a Registry, one MCP server
// per client. It is safe for concurrent use. Its zero value is not usable:
// call New.
type Servers struct {
	reg  *toolsearch.Registry
	opts Options

	mu    sync.Mutex
	names map[string]*link
}

// link is one attached client.
type link struct {
	server   string
	c        *client.Client
	ctx      context.Context // ended when the link ends: every listing and ping stops
	end      context.CancelFunc
	turn     chan struct{} // capacity 1: held by whoever lists or changes the status
	status   toolsearch.ServerStatus
	unlisten func()        // ends the subscription stream, if any; under turn
	kick     chan struct{} // capacity 1: a re-list is wanted
	done     chan struct{} // closed once the link has ended and the server is marked
}

// New returns Servers that keep their tools in reg.
func New(reg *toolsearch.Registry, opts *Options) *Servers {
	s := &Servers{reg: reg, names: map[string]*link{}}
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
	if s.opts.Initialize.Params.ClientInfo.Name == "" {
		s.opts.Initialize.Params.ClientInfo = mcp.Implementation{Name: "toolsearch", Version: "0"}
	}
	return s
}

var (
	// ErrServerAttached is returned when a server name is already attached.
	ErrServerAttached = errors.New("tsmcpgo: server already attached")
	// ErrNotAttached is returned by Refresh and Close for a server name
	// that is not attached.
	ErrNotAttached = errors.New("tsmcpgo: server not attached")
)

// Attach attaches client c to the registry as MCP server server. It marks
// the server pending, starts and initializes c if that has not been done
// (Start is idempotent), subscribes to tools/list_changed (on protocol
// 2026-07-28 through a subscriptions/listen stream; older protocols deliver
// it unasked), lists every tool (all pages) into the registry with
// SetServerTools and marks the server connected. Afterwards the tools are
// listed again on each tools/list_changed, until Close is called or the
// server is found gone (see the package doc). Tools that cannot be
// converted or registered are skipped and reported to Options.OnError. If
// initializing or the first listing fails, the server is marked
// disconnected and detached, the error is returned, and c is left open.
func (s *Servers) Attach(ctx context.Context, server string, c *client.Client) error {
	if server == "" {
		return errors.New("tsmcpgo: attach: empty server name")
	}
	lctx, end := context.WithCancel(context.Background())
	l := &link{server: server, c: c, ctx: lctx, end: end,
		turn: make(chan struct{}, 1), kick: make(chan struct{}, 1), done: make(chan struct{})}
	l.turn <- struct{}{} // held until the first listing is done
	s.mu.Lock()
	if _, ok := s.names[server]; ok {
		s.mu.Unlock()
		end()
		return fmt.Errorf("attach %q: %w", server, ErrServerAttached)
	}
	s.names[server] = l
	s.mu.Unlock()
	s.setStatus(l, toolsearch.ServerPending)

	ctx, cancel := context.WithCancel(ctx) // Close(server) abandons the attach too
	defer cancel()
	defer context.AfterFunc(l.ctx, cancel)()
	err := s.start(ctx, l)
	if err == nil {
		err = s.listHeld(ctx, l)
	}
	<-l.turn
	if err != nil {
		s.finish(l)
		return err
	}
	go s.follow(l)
	return nil
}

// start starts and initializes l's client if needed and subscribes to
// tools/list_changed. The caller holds l's turn.
func (s *Servers) start(ctx context.Context, l *link) error {
	c := l.c
	if err := c.Start(ctx); err != nil {
		return fmt.Errorf("tsmcpgo: starting %q: %w", l.server, err)
	}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == mcp.MethodNotificationToolsListChanged {
			select {
			case l.kick <- struct{}{}:
			default: // a re-list is already scheduled; it will see this change
			}
		}
	})
	c.OnConnectionLost(func(error) { l.end() })
	if !c.IsInitialized() {
		if _, err := c.Initialize(ctx, s.opts.Initialize); err != nil {
			return fmt.Errorf("tsmcpgo: initializing %q: %w", l.server, err)
		}
	}
	if mcp.IsModernProtocol(c.ProtocolVersion()) {
		stop, err := c.ListenAsync(l.ctx, mcp.SubscriptionFilter{ToolsListChanged: true}, func(err error) {
			if l.ctx.Err() == nil {
				s.report(l.server, fmt.Errorf("tsmcpgo: the subscription stream of %q failed: %w", l.server, err))
				l.end()
			}
		})
		if err != nil {
			return fmt.Errorf("tsmcpgo: subscribing to tools/list_changed of %q: %w", l.server, err)
		}
		l.unlisten = stop
	}
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
				s.report(l.server, fmt.Errorf("tsmcpgo: re-listing tools of %q after tools/list_changed: %w", l.server, err))
			}
		case <-ping:
			ctx, cancel := context.WithTimeout(l.ctx, s.opts.PingInterval)
			err := l.c.Ping(ctx)
			unanswered := ctx.Err() != nil && l.ctx.Err() == nil
			cancel()
			switch {
			case unanswered:
				s.report(l.server, fmt.Errorf("tsmcpgo: %q did not answer a ping within %s (Options.PingInterval): %w", l.server, s.opts.PingInterval, err))
				l.end()
				go l.c.Close()
			case gone(err):
				l.end()
			}
		}
	}
}

// gone reports whether err shows that the connection to the server is
// closed.
func gone(err error) bool { return errors.Is(err, transport.ErrTransportClosed) }

// list takes l's turn, giving up when ctx ends, and lists l's tools.
func (s *Servers) list(ctx context.Context, l *link) error {
	select {
	case l.turn <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("tsmcpgo: listing tools of %q: %w", l.server, context.Cause(ctx))
	}
	defer func() { <-l.turn }()
	return s.listHeld(ctx, l)
}

// errClosed is why a listing of a server that was closed stopped.
var errClosed = errors.New("the server was closed")

// listHeld lists every tool of l's client and replaces the server's tools
// in the registry, marking the server connected. The caller holds l's turn.
func (s *Servers) listHeld(ctx context.Context, l *link) error {
	tools, err := s.fetchWithin(ctx, l)
	if err == nil && l.ctx.Err() != nil { // closed while the last page arrived: leave the registry alone
		err = errClosed
	}
	if err != nil {
		return fmt.Errorf("tsmcpgo: listing tools of %q: %w", l.server, err)
	}
	s.register(l, tools)
	s.setStatus(l, toolsearch.ServerConnected)
	return nil
}

// fetchWithin fetches l's tools within Options.ListTimeout, ctx and l's
// life. A failure that is not ctx's ending or l's marks the server
// disconnected (a closed connection ends l). The caller holds l's turn.
func (s *Servers) fetchWithin(ctx context.Context, l *link) ([]mcp.Tool, error) {
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
		if gone(err) || !l.c.IsInitialized() {
			l.end()
		}
	}
	return nil, err
}

// fetch returns every tool of l's client, page by page, within the listing
// bounds.
func (s *Servers) fetch(ctx context.Context, l *link) ([]mcp.Tool, error) {
	var tools []mcp.Tool
	req := mcp.ListToolsRequest{}
	for page := 1; ; page++ {
		if page > s.opts.MaxListPages {
			return nil, fmt.Errorf("%w: more than %d pages (Options.MaxListPages)", toolsearch.ErrLimit, s.opts.MaxListPages)
		}
		res, err := l.c.ListToolsByPage(ctx, req)
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
		req.Params.Cursor = res.NextCursor
	}
}

// register replaces l's server's tools in the registry with tools; tools
// that cannot be converted or registered are reported.
func (s *Servers) register(l *link, listed []mcp.Tool) {
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
// l's context), stops the subscription stream, detaches l, marks the server
// disconnected and closes done.
func (s *Servers) finish(l *link) {
	l.end()
	l.turn <- struct{}{}
	if l.unlisten != nil {
		l.unlisten()
		l.unlisten = nil
	}
	s.mu.Lock()
	if s.names[l.server] == l {
		delete(s.names, l.server)
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

// lookup returns the link attached as server, or nil.
func (s *Servers) lookup(server string) *link {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.names[server]
}

// closed is the channel Done returns for a server that is not attached.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Done returns a channel that is closed once the server attached as server
// has ended (see the package doc) and been marked disconnected. For a name
// that is not attached, now, the channel is already closed: call Done after
// Attach has returned.
func (s *Servers) Done(server string) <-chan struct{} {
	if l := s.lookup(server); l != nil {
		return l.done
	}
	return closed
}

// Client returns the client attached as server, or nil.
func (s *Servers) Client(server string) *client.Client {
	if l := s.lookup(server); l != nil {
		return l.c
	}
	return nil
}

// CallTool calls the registry tool named name (mcp__<server>__<tool>) on
// the client of its server, under the tool's raw MCP name, with args, the
// raw JSON arguments the model sent (empty means none). A name that is not
// a tool of an attached server is an error wrapping
// toolsearch.ErrUnknownTool. A call that finds the connection closed ends
// the server before CallTool returns. Check the call with
// toolsearch.Session.CheckCall first: CallTool does not validate args.
func (s *Servers) CallTool(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	t, ok := s.reg.Lookup(name)
	if !ok || t.Server == "" {
		return nil, fmt.Errorf("call %q: %w: not a tool of an MCP server", name, toolsearch.ErrUnknownTool)
	}
	l := s.lookup(t.Server)
	if l == nil {
		return nil, fmt.Errorf("call %q: %w: server %q is not attached", name, toolsearch.ErrUnknownTool, t.Server)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = t.MCPName
	if len(args) > 0 {
		req.Params.Arguments = args
	}
	res, err := l.c.CallTool(ctx, req)
	if gone(err) {
		l.end()
		<-l.done
	}
	return res, err
}

// Refresh lists the tools of the server attached as server again, now,
// and replaces them in the registry. Servers does this by itself on
// tools/list_changed; Refresh is for callers that want a listing as of this
// moment, for example before a report. It returns when ctx ends, even if
// another listing of the server is in progress; a listing that fails for
// the server's reason marks it disconnected, as a failed re-listing does.
func (s *Servers) Refresh(ctx context.Context, server string) error {
	l := s.lookup(server)
	if l == nil {
		return fmt.Errorf("refresh %q: %w", server, ErrNotAttached)
	}
	return s.list(ctx, l)
}

// Close ends the server attached as server: a listing in progress is
// abandoned, the server is marked disconnected (its tools are kept but no
// longer offered), the subscription stream is ended and the client closed;
// Close returns the client's Close error once Done(server) is closed. The
// name can then be attached again.
func (s *Servers) Close(server string) error {
	l := s.lookup(server)
	if l == nil {
		return fmt.Errorf("close %q: %w", server, ErrNotAttached)
	}
	l.end()
	<-l.done
	return l.c.Close()
}

// dropEmptyRequired removes a top-level "required":[] from schema b.
func dropEmptyRequired(b []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return b
	}
	if r, ok := m["required"]; !ok || string(r) != "[]" {
		return b
	}
	delete(m, "required")
	out, err := json.Marshal(m)
	if err != nil {
		return b
	}
	return out
}
