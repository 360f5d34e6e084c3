// Package mcpgo connects MCP servers reached with github.com/mark3labs/mcp-go
// to a toolsearch.Registry.
//
// ConvertTool turns one mcp.Tool into a toolsearch.Tool; Attach keeps the
// tools of one *client.Client in a Registry as one MCP server: pending while
// it connects, connected once its tools are listed (all pages), listed again
// on notifications/tools/list_changed, and disconnected when the connection
// is lost or the Server is closed.
//
// Two limits of mcp-go v1.2 show through. Its client decodes a tool's input
// schema into a struct that keeps only type, properties, required,
// additionalProperties and $defs, so other top-level schema keywords
// (description, anyOf, ...) never reach the registry; use the official SDK
// (package mcpsdk) when they matter. And it reports a lost connection only
// for SSE transports: for stdio and in-process clients the server is marked
// disconnected when Close is called, when a re-listing finds the
// connection gone, or when a 2026-07-28 subscription stream fails.
package mcpgo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

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
// adds (it costs prompt tokens and means nothing); it is validated when the tool is
// registered, not here.
func ConvertTool(server string, t mcp.Tool) (toolsearch.Tool, error) {
	schema := t.RawInputSchema
	if len(schema) == 0 {
		b, err := json.Marshal(t.InputSchema)
		if err != nil {
			return toolsearch.Tool{}, fmt.Errorf("mcpgo: tool %q of server %q: encoding its input schema: %w", t.Name, server, err)
		}
		schema = dropEmptyRequired(b)
	}
	var meta map[string]any
	if t.Meta != nil {
		meta = t.Meta.AdditionalFields
	}
	return toolsearch.NewMCPTool(server, t.Name, t.Description, schema, meta), nil
}

// Options configure Attach. A nil *Options means the defaults.
type Options struct {
	// Initialize is the initialize request Attach sends when the client
	// has not been initialized yet. Zero means client info
	// {"name":"toolsearch","version":"0"} and the client's default
	// capabilities.
	Initialize mcp.InitializeRequest
	// OnError, if set, is told about problems that do not stop the server:
	// a tool that could not be converted or registered (the server's other
	// tools are kept), and a failed re-listing. It may be called from any
	// goroutine.
	OnError func(server string, err error)
	// OnStatus, if set, is called after the server's status is set in the
	// registry.
	OnStatus func(server string, status toolsearch.ServerStatus)
	// OnListed, if set, is called after the server's tools have been
	// (re)listed into the registry, with the number of tools listed.
	OnListed func(server string, tools int)
}

// Server is one mcp-go client attached to a Registry. It is safe for
// concurrent use.
type Server struct {
	name string
	c    *client.Client
	reg  *toolsearch.Registry
	opts Options

	kick     chan struct{} // capacity 1: a re-list is wanted
	ready    chan struct{} // closed once initialized: kicks wait for it
	stop     chan struct{} // closed by close
	done     chan struct{} // closed when the server has been marked disconnected
	stopOnce sync.Once
	mu       sync.Mutex
	unlisten func() // under mu; taken by stopListening
}

// Attach attaches client c to reg as MCP server name. It marks the server
// pending, starts and initializes c if that has not been done (Start is
// idempotent), subscribes to tools/list_changed (on protocol 2026-07-28
// through a subscriptions/listen stream; older protocols deliver it
// unasked), lists every tool into the registry with SetServerTools and marks
// the server connected. Tools that cannot be converted or registered are
// skipped and reported to Options.OnError. If initializing or the first
// listing fails, the server is marked disconnected and the error returned.
func Attach(ctx context.Context, reg *toolsearch.Registry, name string, c *client.Client, opts *Options) (*Server, error) {
	if name == "" {
		return nil, errors.New("mcpgo: attach: empty server name")
	}
	s := &Server{name: name, c: c, reg: reg,
		kick: make(chan struct{}, 1), ready: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	if opts != nil {
		s.opts = *opts
	}
	s.setStatus(toolsearch.ServerPending)
	fail := func(err error) (*Server, error) {
		s.close()
		<-s.done
		s.stopListening()
		return nil, err
	}
	go s.loop()
	if err := c.Start(ctx); err != nil {
		return fail(fmt.Errorf("mcpgo: starting %q: %w", name, err))
	}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == mcp.MethodNotificationToolsListChanged {
			select {
			case s.kick <- struct{}{}:
			default: // a re-list is already scheduled
			}
		}
	})
	c.OnConnectionLost(func(error) { s.close() })
	if !c.IsInitialized() {
		req := s.opts.Initialize
		if req.Params.ClientInfo.Name == "" {
			req.Params.ClientInfo = mcp.Implementation{Name: "toolsearch", Version: "0"}
		}
		if _, err := c.Initialize(ctx, req); err != nil {
			return fail(fmt.Errorf("mcpgo: initializing %q: %w", name, err))
		}
	}
	if mcp.IsModernProtocol(c.ProtocolVersion()) {
		stop, err := c.ListenAsync(context.Background(), mcp.SubscriptionFilter{ToolsListChanged: true}, func(err error) {
			s.report(fmt.Errorf("mcpgo: the subscription stream of %q failed: %w", name, err))
			s.close()
		})
		if err != nil {
			return fail(fmt.Errorf("mcpgo: subscribing to tools/list_changed of %q: %w", name, err))
		}
		s.mu.Lock()
		s.unlisten = stop
		s.mu.Unlock()
	}
	// A server may announce tools/list_changed as soon as it sees
	// notifications/initialized, before the client counts itself
	// initialized (server-everything does). Kicks wait until now, so that
	// re-list never runs on a client that would refuse it.
	close(s.ready)
	if err := s.list(ctx); err != nil {
		return fail(err)
	}
	select {
	case <-s.stop:
		return fail(fmt.Errorf("mcpgo: %q disconnected while its tools were listed", name))
	default:
	}
	s.setStatus(toolsearch.ServerConnected)
	return s, nil
}

// loop re-lists on kicks until the server is closed, then marks it
// disconnected.
func (s *Server) loop() {
	defer close(s.done)
	select {
	case <-s.ready:
	case <-s.stop:
		s.setStatus(toolsearch.ServerDisconnected)
		return
	}
	for {
		select {
		case <-s.stop:
			s.stopListening()
			s.setStatus(toolsearch.ServerDisconnected)
			return
		case <-s.kick:
			if err := s.list(context.Background()); err != nil {
				s.report(err)
				if errors.Is(err, transport.ErrTransportClosed) || !s.c.IsInitialized() {
					s.close()
				}
			}
		}
	}
}

func (s *Server) list(ctx context.Context) error {
	res, err := s.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return fmt.Errorf("mcpgo: listing tools of %q: %w", s.name, err)
	}
	var tools []toolsearch.Tool
	var bad []error
	for _, t := range res.Tools {
		c, err := ConvertTool(s.name, t)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		tools = append(tools, c)
	}
	if err := s.reg.SetServerTools(s.name, tools); err != nil {
		bad = append(bad, err)
	}
	if err := errors.Join(bad...); err != nil {
		s.report(err)
	}
	if s.opts.OnListed != nil {
		s.opts.OnListed(s.name, len(res.Tools))
	}
	return nil
}

// stopListening ends the subscription stream, if any, once.
func (s *Server) stopListening() {
	s.mu.Lock()
	stop := s.unlisten
	s.unlisten = nil
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
}

func (s *Server) close() { s.stopOnce.Do(func() { close(s.stop) }) }

// Close marks the server disconnected in the registry (its tools are kept
// but no longer available), stops following tools/list_changed, and closes
// the client.
func (s *Server) Close() error {
	s.close()
	<-s.done
	return s.c.Close()
}

// Done returns a channel closed once the server has been marked
// disconnected.
func (s *Server) Done() <-chan struct{} { return s.done }

// Client returns the attached client.
func (s *Server) Client() *client.Client { return s.c }

// ErrUnknownTool is returned by CallTool for a name that is not one of this
// server's tools.
var ErrUnknownTool = errors.New("mcpgo: not a tool of this MCP server")

// CallTool calls the registry tool named name (mcp__<server>__<tool>) on the
// server under its raw MCP name, with args, the raw JSON arguments the
// model sent (empty means none).
func (s *Server) CallTool(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	t, ok := s.reg.Lookup(name)
	if !ok || t.Server != s.name {
		return nil, fmt.Errorf("call %q: %w", name, ErrUnknownTool)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = t.MCPName
	if len(args) > 0 {
		req.Params.Arguments = args
	}
	return s.c.CallTool(ctx, req)
}

func (s *Server) setStatus(st toolsearch.ServerStatus) {
	s.reg.SetServerStatus(s.name, st)
	if s.opts.OnStatus != nil {
		s.opts.OnStatus(s.name, st)
	}
}

func (s *Server) report(err error) {
	if s.opts.OnError != nil {
		s.opts.OnError(s.name, err)
	}
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
