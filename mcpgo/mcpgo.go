// Package tsmcpgo connects MCP servers reached with
// github.com/mark3labs/mcp-go to a toolsearch.Registry, through an
// mcphub.Hub: the hub keeps every server's tools in the registry (the first
// listing, every page, a new listing on each tools/list_changed, pings,
// status, close) and routes tool calls; this package supplies mcp-go's
// side, a Conn over one *client.Client.
//
//	hub := mcphub.New(reg, nil)
//	c, err := client.NewStdioMCPClient("npx", nil, "-y", "@modelcontextprotocol/server-memory")
//	err = hub.Attach(ctx, tsmcpgo.Client("memory", c, nil))
//	res, err := hub.CallTool(ctx, "mcp__memory__read_graph", nil)
//
// Client starts and initializes the client when it is attached, and
// subscribes to tools/list_changed. Tool turns one mcp.Tool into a
// toolsearch.Tool; CallToolResult turns a hub's Result back into mcp-go's
// type.
//
// # Gone servers
//
// mcp-go reports a lost connection by itself only for SSE transports, so
// the Conn also ends the server when a listing, a call or a ping finds its
// connection closed (a stdio server that exits during a call is
// disconnected by the time the hub's CallTool returns), or when its
// subscription stream fails.
//
// # Errors for the model
//
// The toolsearch adapters share one convention: an error for the model (a
// call refused by toolsearch.Session.CheckCall, for example) is sent as
// toolsearch.ModelText(err), its text written for the model, with the
// provider's error flag set. For MCP that flag is isError: ErrorResult builds that result.
//
// # Limits of mcp-go v1.2
//
// Its client decodes a tool's input schema into a struct that keeps only
// type, properties, required, additionalProperties and $defs, so other
// top-level schema keywords (description, anyOf, ...) never reach the
// registry; use the official SDK (package tsmcpsdk) when they matter. The
// ping RPC was removed in protocol 2026-07-28, where liveness is left to
// the transport: sessions on that protocol are not pinged, and a server
// there is found gone by a listing, a call or the failure of its
// subscription stream.
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

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
)

// Tool converts tool t, listed by MCP server server, into a
// toolsearch.Tool with toolsearch.NewMCPTool: the name is
// mcp__<server>__<tool>, the description is cut at 2,048 characters, and the
// _meta keys anthropic/alwaysLoad and anthropic/searchHint set AlwaysLoad and
// SearchHint. The input schema is t.RawInputSchema when set, otherwise
// t.InputSchema encoded as JSON, less the empty "required":[] that mcp-go
// adds (it costs prompt tokens and means nothing); it is validated when the
// tool is registered, not here.
func Tool(server string, t mcp.Tool) (toolsearch.Tool, error) {
	schema := t.RawInputSchema
	if len(schema) == 0 {
		b, err := json.Marshal(t.InputSchema)
		if err != nil {
			return toolsearch.Tool{}, fmt.Errorf("tool %q: encoding its input schema: %w", t.Name, err)
		}
		schema = dropEmptyRequired(b)
	}
	var meta map[string]any
	if t.Meta != nil {
		meta = t.Meta.AdditionalFields
	}
	return toolsearch.NewMCPTool(server, t.Name, t.Description, schema, meta), nil
}

// ErrorResult returns err as an MCP tool result for the model:
// toolsearch.ModelText(err) as the only text content, with isError set.
// Use it for a call refused by toolsearch.Session.CheckCall, whose error
// text is written for the model, and for an error of mcphub.Hub.CallTool;
// any other error's text is sent as it is.
func ErrorResult(err error) *mcp.CallToolResult {
	return mcp.NewToolResultError(toolsearch.ModelText(err))
}

// CallToolResult converts r, a result of mcphub.Hub.CallTool, into
// mcp-go's type: every content block, the structured content and isError,
// for a program that passes the result on to an MCP client of its own.
func CallToolResult(r *mcphub.Result) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	raw := json.RawMessage(b)
	out, err := mcp.ParseCallToolResult(&raw)
	if err != nil {
		return nil, fmt.Errorf("decoding the result: %w", err)
	}
	return out, nil
}

// Options configure how Client attaches a client. A nil *Options means the
// defaults; a zero field means its default.
type Options struct {
	// Initialize is the initialize request sent when the client has not
	// been initialized yet. Zero means client info
	// {"name":"toolsearch","version":"0"} and the client's default
	// capabilities.
	Initialize mcp.InitializeRequest
}

// Client returns the MCP server to give mcphub.Hub.Attach for c, as
// server. When attached, it starts and initializes c if that has not been
// done (Start is idempotent) and subscribes to tools/list_changed (on
// protocol 2026-07-28 through a subscriptions/listen stream; older
// protocols deliver it unasked). If that fails, or the first listing
// does, c is closed. opts is copied.
func Client(server string, c *client.Client, opts *Options) mcphub.Server {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Initialize.Params.ClientInfo.Name == "" {
		o.Initialize.Params.ClientInfo = mcp.Implementation{Name: "toolsearch", Version: "0"}
	}
	return mcphub.Server{Name: server, Open: func(ctx context.Context, l *mcphub.Link) (mcphub.Conn, error) {
		if c == nil {
			return nil, errors.New("tsmcpgo: the client is nil")
		}
		cn := &conn{server: server, c: c, link: l}
		if err := cn.start(ctx, o); err != nil {
			_ = c.Close()
			return nil, err
		}
		return cn, nil
	}}
}

// ClientOf returns the client of the server attached to hub as server
// through this package, or nil.
func ClientOf(hub *mcphub.Hub, server string) *client.Client {
	if c, ok := hub.Conn(server).(*conn); ok {
		return c.c
	}
	return nil
}

// conn is an mcphub.Conn over one mcp-go client.
type conn struct {
	server string
	c      *client.Client
	link   *mcphub.Link
}

// start starts and initializes the client if needed and subscribes to
// tools/list_changed.
func (cn *conn) start(ctx context.Context, o Options) error {
	c, l := cn.c, cn.link
	if err := c.Start(ctx); err != nil {
		return fmt.Errorf("starting the client: %w", err)
	}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == mcp.MethodNotificationToolsListChanged {
			l.ToolsChanged()
		}
	})
	c.OnConnectionLost(func(error) { l.Lost(nil) })
	if !c.IsInitialized() {
		if _, err := c.Initialize(ctx, o.Initialize); err != nil {
			return fmt.Errorf("initializing: %w", err)
		}
	}
	if cn.modern() {
		stop, err := c.ListenAsync(l.Context(), mcp.SubscriptionFilter{ToolsListChanged: true}, func(err error) {
			l.Lost(fmt.Errorf("the subscription stream failed: %w", err))
		})
		if err != nil {
			return fmt.Errorf("subscribing to tools/list_changed: %w", err)
		}
		context.AfterFunc(l.Context(), stop)
	}
	return nil
}

// modern reports whether the session speaks protocol 2026-07-28 or later.
func (cn *conn) modern() bool { return mcp.IsModernProtocol(cn.c.ProtocolVersion()) }

// gone reports whether err shows that the connection to the server is
// closed.
func gone(err error) bool { return errors.Is(err, transport.ErrTransportClosed) }

func (cn *conn) ListTools(ctx context.Context, cursor string) (mcphub.Page, error) {
	req := mcp.ListToolsRequest{}
	req.Params.Cursor = mcp.Cursor(cursor)
	res, err := cn.c.ListToolsByPage(ctx, req)
	if err != nil {
		if ctx.Err() == nil && (gone(err) || !cn.c.IsInitialized()) {
			cn.link.Lost(nil)
		}
		return mcphub.Page{}, err
	}
	p := mcphub.Page{Next: string(res.NextCursor), Tools: make([]toolsearch.Tool, 0, len(res.Tools))}
	for _, t := range res.Tools {
		ts, err := Tool(cn.server, t)
		if err != nil {
			p.Skipped = append(p.Skipped, err)
			continue
		}
		p.Tools = append(p.Tools, ts)
	}
	return p, nil
}

func (cn *conn) CallTool(ctx context.Context, name string, args json.RawMessage) (*mcphub.Result, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	if len(args) > 0 {
		req.Params.Arguments = args
	}
	res, err := cn.c.CallTool(ctx, req)
	if err != nil {
		if gone(err) {
			cn.link.Lost(nil)
		}
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

// Ping pings the server on the protocols that have a ping; on 2026-07-28
// and later, where mcp-go's Ping sends nothing, it returns
// mcphub.ErrNoPing.
func (cn *conn) Ping(ctx context.Context) error {
	if cn.modern() {
		return mcphub.ErrNoPing
	}
	//lint:ignore SA1019 the ping RPC is deprecated from protocol 2026-07-28 on; this session speaks an older one, where it is the only liveness check
	err := cn.c.Ping(ctx)
	if gone(err) {
		cn.link.Lost(nil)
	}
	return err
}

func (cn *conn) Close() error { return cn.c.Close() }

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
