// Package tsmcpsdk connects MCP servers reached with the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk) to a toolsearch.Registry, through
// an mcphub.Hub: the hub keeps every server's tools in the registry (the
// first listing, every page, a new listing on each tools/list_changed,
// pings, status, close) and routes tool calls; this package supplies the
// SDK's side, a Conn over one *mcp.ClientSession.
//
//	hub := mcphub.New(reg, nil)
//	var sessions tsmcpsdk.Sessions
//	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, sessions.ClientOptions(nil))
//	err := hub.Attach(ctx, sessions.Dial("everything", client, transport, nil))
//	res, err := hub.CallTool(ctx, "mcp__everything__echo", args)
//
// The SDK delivers notifications/tools/list_changed to the Client's
// ToolListChangedHandler: build the Client with Sessions.ClientOptions so
// that they reach the hub.
//
// Tool turns one *mcp.Tool into a toolsearch.Tool; CallToolResult turns a
// hub's Result back into the SDK's type.
//
// # Errors for the model
//
// The toolsearch adapters share one convention: an error for the model (a
// call refused by toolsearch.Session.CheckCall, for example) is sent as
// toolsearch.ModelText(err), its text written for the model, with the
// provider's error flag set. For MCP that flag is isError: ErrorResult builds that result.
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

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
)

// Tool converts tool t, listed by MCP server server, into a
// toolsearch.Tool with toolsearch.NewMCPTool: the name is
// mcp__<server>__<tool>, the description is cut at 2,048 characters, and the
// _meta keys anthropic/alwaysLoad and anthropic/searchHint set AlwaysLoad and
// SearchHint. The input schema is t.InputSchema encoded as JSON; a nil
// schema is left empty (the Registry reads it as {"type":"object"}). The
// schema is validated when the tool is registered, not here.
func Tool(server string, t *mcp.Tool) (toolsearch.Tool, error) {
	if t == nil {
		return toolsearch.Tool{}, errors.New("a nil tool was listed")
	}
	var schema json.RawMessage
	if t.InputSchema != nil {
		b, err := json.Marshal(t.InputSchema)
		if err != nil {
			return toolsearch.Tool{}, fmt.Errorf("tool %q: encoding its input schema: %w", t.Name, err)
		}
		if string(b) != "null" {
			schema = b
		}
	}
	return toolsearch.NewMCPTool(server, t.Name, t.Description, schema, t.Meta), nil
}

// ErrorResult returns err as an MCP tool result for the model:
// toolsearch.ModelText(err) as the only text content, with isError set.
// Use it for a call refused by toolsearch.Session.CheckCall, whose error
// text is written for the model, and for an error of mcphub.Hub.CallTool;
// any other error's text is sent as it is.
func ErrorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: toolsearch.ModelText(err)}}, IsError: true}
}

// CallToolResult converts r, a result of mcphub.Hub.CallTool, into the
// SDK's type: every content block, the structured content and isError,
// for a program that passes the result on to an MCP client of its own.
func CallToolResult(r *mcphub.Result) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var out mcp.CallToolResult
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("decoding the result: %w", err)
	}
	return &out, nil
}

// Sessions are the SDK sessions attached to hubs through this package: they
// route each session's tools/list_changed to its server in the hub. The
// zero value is ready to use, and one Sessions may serve any number of
// Clients, sessions and hubs. It is safe for concurrent use.
type Sessions struct {
	mu    sync.Mutex
	links map[*mcp.ClientSession]*mcphub.Link
}

// ClientOptions returns a copy of opts (nil means none) whose
// ToolListChangedHandler tells the hub about tools/list_changed and then
// calls the handler opts had, if any. Pass the result to mcp.NewClient; one
// Client may serve sessions to many servers.
func (s *Sessions) ClientOptions(opts *mcp.ClientOptions) *mcp.ClientOptions {
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

// toolListChanged tells the hub about a re-listing of the tools of the
// session the notification came from. Notifications for a session that is
// not attached (yet) are ignored, since attaching lists the tools anyway.
func (s *Sessions) toolListChanged(req *mcp.ToolListChangedRequest) {
	if req == nil || req.Session == nil {
		return
	}
	s.mu.Lock()
	l := s.links[req.Session]
	s.mu.Unlock()
	if l != nil {
		l.ToolsChanged()
	}
}

// Dial returns the MCP server to give mcphub.Hub.Attach that connects
// client over transport (with opts, nil for none) when it is attached, as
// server. A session that connects but whose first listing fails is
// closed. client should be built with s.ClientOptions so that
// tools/list_changed reaches the hub.
//
// The context given to Attach bounds the connecting only: the transport's
// connection lives as long as the server stays attached, also for
// transports that keep reading under the context they were connected with
// (the SDK's SSEClientTransport reads its event stream so).
func (s *Sessions) Dial(server string, client *mcp.Client, transport mcp.Transport, opts *mcp.ClientSessionOptions) mcphub.Server {
	return mcphub.Server{Name: server, Open: func(ctx context.Context, l *mcphub.Link) (mcphub.Conn, error) {
		if client == nil || transport == nil {
			return nil, errors.New("tsmcpsdk: Dial needs a client and a transport")
		}
		cs, err := client.Connect(ctx, linkTransport{inner: transport, life: l.Context()}, opts)
		if err != nil {
			return nil, fmt.Errorf("connecting: %w", err)
		}
		return s.open(l, cs), nil
	}}
}

// Session returns the MCP server to give mcphub.Hub.Attach for cs, a
// session already connected, as server. If the first listing fails, cs is
// closed. The Client that made cs should be built with s.ClientOptions so
// that tools/list_changed reaches the hub.
func (s *Sessions) Session(server string, cs *mcp.ClientSession) mcphub.Server {
	return mcphub.Server{Name: server, Open: func(_ context.Context, l *mcphub.Link) (mcphub.Conn, error) {
		if cs == nil {
			return nil, errors.New("tsmcpsdk: the session is nil")
		}
		return s.open(l, cs), nil
	}}
}

// open follows cs as the session of l's server: its notifications, and its
// end, from either side.
func (s *Sessions) open(l *mcphub.Link, cs *mcp.ClientSession) mcphub.Conn {
	s.mu.Lock()
	if s.links == nil {
		s.links = map[*mcp.ClientSession]*mcphub.Link{}
	}
	s.links[cs] = l
	s.mu.Unlock()
	context.AfterFunc(l.Context(), func() {
		s.mu.Lock()
		if s.links[cs] == l {
			delete(s.links, cs)
		}
		s.mu.Unlock()
	})
	go func() {
		_ = cs.Wait()
		l.Lost(nil)
	}()
	return conn{server: l.Server(), cs: cs}
}

// linkTransport connects inner under a context that keeps the values of
// the connecting one but ends with life, the server's link (which ends on
// Close, a lost session and a failed attach), or with the connecting
// context while the connecting lasts. The connection is returned as inner
// made it, so that the SDK still finds the methods it looks for on its own
// connection types.
type linkTransport struct {
	inner mcp.Transport
	life  context.Context
}

func (t linkTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	context.AfterFunc(t.life, cancel)
	stop := context.AfterFunc(ctx, cancel)
	c, err := t.inner.Connect(lctx)
	if !stop() && err == nil { // ctx ended as the connecting succeeded
		err = context.Cause(ctx)
	}
	if err != nil {
		cancel()
		if c != nil {
			_ = c.Close()
		}
		return nil, err
	}
	return c, nil
}

// ClientSession returns the SDK session of the server attached to hub as
// server through this package, or nil.
func ClientSession(hub *mcphub.Hub, server string) *mcp.ClientSession {
	if c, ok := hub.Conn(server).(conn); ok {
		return c.cs
	}
	return nil
}

// conn is an mcphub.Conn over one SDK session.
type conn struct {
	server string
	cs     *mcp.ClientSession
}

func (c conn) ListTools(ctx context.Context, cursor string) (mcphub.Page, error) {
	res, err := c.cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
	if err != nil {
		return mcphub.Page{}, err
	}
	p := mcphub.Page{Next: res.NextCursor, Tools: make([]toolsearch.Tool, 0, len(res.Tools))}
	for _, t := range res.Tools {
		ts, err := Tool(c.server, t)
		if err != nil {
			p.Skipped = append(p.Skipped, err)
			continue
		}
		p.Tools = append(p.Tools, ts)
	}
	return p, nil
}

func (c conn) CallTool(ctx context.Context, name string, args json.RawMessage) (*mcphub.Result, error) {
	var a any
	if len(args) > 0 {
		a = args
	}
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: a})
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	var out mcphub.Result
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("decoding the result: %w", err)
	}
	return &out, nil
}

func (c conn) Ping(ctx context.Context) error { return c.cs.Ping(ctx, nil) }

func (c conn) Close() error { return c.cs.Close() }
