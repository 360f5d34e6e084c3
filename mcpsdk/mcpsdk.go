// Package mcpsdk connects MCP servers reached with the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk) to a toolsearch.Registry.
//
// ConvertTool turns one *mcp.Tool into a toolsearch.Tool. Servers keeps the
// tools of client sessions in a Registry: each session is one MCP server,
// pending while it connects, connected once its tools are listed (all pages),
// listed again on notifications/tools/list_changed, and disconnected when the
// session ends.
//
// Servers needs to see the tools/list_changed notifications, which the SDK
// delivers to the Client's ToolListChangedHandler: build the Client with
// Servers.ClientOptions.
package mcpsdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

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
		return toolsearch.Tool{}, fmt.Errorf("mcpsdk: server %q listed a nil tool", server)
	}
	var schema json.RawMessage
	if t.InputSchema != nil {
		b, err := json.Marshal(t.InputSchema)
		if err != nil {
			return toolsearch.Tool{}, fmt.Errorf("mcpsdk: tool %q of server %q: encoding its input schema: %w", t.Name, server, err)
		}
		if string(b) != "null" {
			schema = b
		}
	}
	return toolsearch.NewMCPTool(server, t.Name, t.Description, schema, t.Meta), nil
}

// Options configure Servers. A nil *Options means the defaults.
type Options struct {
	// OnError, if set, is told about problems that do not stop a server:
	// a tool that could not be converted or registered (the server's other
	// tools are kept), and a failed re-listing after tools/list_changed.
	// It may be called from any goroutine, never while Servers holds a
	// lock.
	OnError func(server string, err error)
	// OnStatus, if set, is called after a server's status is set in the
	// registry.
	OnStatus func(server string, status toolsearch.ServerStatus)
	// OnListed, if set, is called after a server's tools have been
	// (re)listed into the registry, with the number of tools the server
	// listed.
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
	listMu sync.Mutex    // serializes listings, so a stale one never lands last
	kick   chan struct{} // capacity 1: a re-list is wanted
	done   chan struct{} // closed when the session has ended and been marked
}

// New returns Servers that keep their tools in reg.
func New(reg *toolsearch.Registry, opts *Options) *Servers {
	s := &Servers{
		reg:      reg,
		sessions: map[*mcp.ClientSession]*link{},
		names:    map[string]*link{},
	}
	if opts != nil {
		s.opts = *opts
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
		s.ToolListChanged(ctx, req)
		if next != nil {
			next(ctx, req)
		}
	}
	return &o
}

// ToolListChanged is a handler for mcp.ClientOptions.ToolListChangedHandler:
// it schedules a re-listing of the tools of the session the notification came
// from. It returns at once; notifications for a session that is not attached
// (yet) are ignored, since attaching lists the tools anyway.
func (s *Servers) ToolListChanged(_ context.Context, req *mcp.ToolListChangedRequest) {
	if req == nil || req.Session == nil {
		return
	}
	s.mu.Lock()
	l := s.sessions[req.Session]
	s.mu.Unlock()
	if l == nil {
		return
	}
	select {
	case l.kick <- struct{}{}:
	default: // a re-list is already scheduled; it will see this change
	}
}

// ErrServerAttached is returned when a server name is already attached.
var ErrServerAttached = errors.New("mcpsdk: server already attached")

// Connect marks server pending in the registry, connects client over
// transport, and attaches the new session (see Attach). If connecting or the
// first listing fails, the server is marked disconnected and the error is
// returned; the session, if any, is closed. client should be built with
// s.ClientOptions so that tools/list_changed reaches s.
func (s *Servers) Connect(ctx context.Context, server string, client *mcp.Client, transport mcp.Transport, opts *mcp.ClientSessionOptions) (*mcp.ClientSession, error) {
	if server == "" {
		return nil, fmt.Errorf("mcpsdk: connect: empty server name")
	}
	s.mu.Lock()
	_, taken := s.names[server]
	s.mu.Unlock()
	if taken {
		return nil, fmt.Errorf("connect %q: %w", server, ErrServerAttached)
	}
	s.setStatus(server, toolsearch.ServerPending)
	cs, err := client.Connect(ctx, transport, opts)
	if err != nil {
		s.setStatus(server, toolsearch.ServerDisconnected)
		return nil, fmt.Errorf("mcpsdk: connect %q: %w", server, err)
	}
	if err := s.attach(ctx, server, cs, false); err != nil {
		_ = cs.Close()
		return nil, err
	}
	return cs, nil
}

// Attach attaches connected session cs to the registry as MCP server
// server: it marks the server pending, lists every tool (following
// nextCursor through all pages) into the registry with SetServerTools, and
// marks the server connected. Afterwards the tools are listed again on each
// tools/list_changed notification, and the server is marked disconnected
// when the session ends (closed by either side). Tools that cannot be
// converted or registered are skipped and reported to Options.OnError; a
// failed listing is returned, and the server is then marked disconnected
// and detached (the session is not closed).
func (s *Servers) Attach(ctx context.Context, server string, cs *mcp.ClientSession) error {
	return s.attach(ctx, server, cs, true)
}

func (s *Servers) attach(ctx context.Context, server string, cs *mcp.ClientSession, markPending bool) error {
	if server == "" {
		return fmt.Errorf("mcpsdk: attach: empty server name")
	}
	l := &link{server: server, cs: cs, kick: make(chan struct{}, 1), done: make(chan struct{})}
	s.mu.Lock()
	if _, ok := s.names[server]; ok {
		s.mu.Unlock()
		return fmt.Errorf("attach %q: %w", server, ErrServerAttached)
	}
	s.names[server] = l
	s.sessions[cs] = l
	s.mu.Unlock()

	if markPending {
		s.setStatus(server, toolsearch.ServerPending)
	}
	if err := s.list(ctx, l); err != nil {
		s.detach(l)
		s.setStatus(server, toolsearch.ServerDisconnected)
		close(l.done)
		return err
	}
	s.setStatus(server, toolsearch.ServerConnected)

	ended := make(chan struct{})
	go func() { // the session's end
		_ = cs.Wait()
		close(ended)
	}()
	go func() { // re-list on tools/list_changed until the session ends
		defer close(l.done)
		for {
			select {
			case <-ended:
				s.detach(l)
				s.setStatus(server, toolsearch.ServerDisconnected)
				return
			case <-l.kick:
				if err := s.list(context.Background(), l); err != nil {
					select {
					case <-ended: // the listing failed because the session ended
					default:
						s.report(server, fmt.Errorf("mcpsdk: re-listing tools of %q after tools/list_changed: %w", server, err))
					}
				}
			}
		}
	}()
	return nil
}

// list fetches every tool of l's session and replaces the server's tools in
// the registry.
func (s *Servers) list(ctx context.Context, l *link) error {
	l.listMu.Lock()
	defer l.listMu.Unlock()
	var tools []toolsearch.Tool
	var bad []error
	listed := 0
	for t, err := range l.cs.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("mcpsdk: listing tools of %q: %w", l.server, err)
		}
		listed++
		c, err := ConvertTool(l.server, t)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		tools = append(tools, c)
	}
	if err := s.reg.SetServerTools(l.server, tools); err != nil {
		bad = append(bad, err)
	}
	if err := errors.Join(bad...); err != nil {
		s.report(l.server, err)
	}
	if s.opts.OnListed != nil {
		s.opts.OnListed(l.server, listed)
	}
	return nil
}

func (s *Servers) detach(l *link) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.names[l.server] == l {
		delete(s.names, l.server)
	}
	if s.sessions[l.cs] == l {
		delete(s.sessions, l.cs)
	}
}

func (s *Servers) setStatus(server string, st toolsearch.ServerStatus) {
	s.reg.SetServerStatus(server, st)
	if s.opts.OnStatus != nil {
		s.opts.OnStatus(server, st)
	}
}

func (s *Servers) report(server string, err error) {
	if s.opts.OnError != nil {
		s.opts.OnError(server, err)
	}
}

// Done returns a channel that is closed once the session attached as server
// has ended and the server has been marked disconnected; nil if no such
// server is attached.
func (s *Servers) Done(server string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.names[server]; l != nil {
		return l.done
	}
	return nil
}

// Session returns the session attached as server, or nil.
func (s *Servers) Session(server string) *mcp.ClientSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.names[server]; l != nil {
		return l.cs
	}
	return nil
}

// ErrUnknownTool is returned by CallTool for a name that is not a tool of an
// attached server.
var ErrUnknownTool = errors.New("mcpsdk: not a tool of an attached MCP server")

// CallTool calls the registry tool named name (mcp__<server>__<tool>) on
// the session of its server, with args, the raw JSON arguments the model
// sent (empty means none).
func (s *Servers) CallTool(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	t, ok := s.reg.Lookup(name)
	if !ok || t.Server == "" {
		return nil, fmt.Errorf("call %q: %w", name, ErrUnknownTool)
	}
	cs := s.Session(t.Server)
	if cs == nil {
		return nil, fmt.Errorf("call %q: %w: server %q is not attached", name, ErrUnknownTool, t.Server)
	}
	var a any
	if len(args) > 0 {
		a = args
	}
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: t.MCPName, Arguments: a})
}

// Refresh lists the tools of the session attached as server again, now,
// and replaces them in the registry. Servers does this by itself on
// tools/list_changed; Refresh is for callers that want a listing as of this
// moment, for example before a report.
func (s *Servers) Refresh(ctx context.Context, server string) error {
	s.mu.Lock()
	l := s.names[server]
	s.mu.Unlock()
	if l == nil {
		return fmt.Errorf("mcpsdk: refresh %q: no such server attached", server)
	}
	return s.list(ctx, l)
}
