package tsmcpgo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	tsmcpgo "github.com/toolsearch/toolsearch/mcpgo"
	"github.com/toolsearch/toolsearch/mcphub"
)

func TestConvertTool(t *testing.T) {
	tests := []struct {
		name string
		in   mcp.Tool
		want toolsearch.Tool
	}{
		{
			name: "structured schema",
			in: mcp.NewTool("get.weather", mcp.WithDescription("Get weather"),
				mcp.WithString("city", mcp.Required())),
			want: toolsearch.Tool{Name: "mcp__srv__get_weather_f32dc29d", Description: "Get weather", Server: "srv", MCPName: "get.weather",
				InputSchema: json.RawMessage(`{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"}`)},
		},
		{
			name: "raw schema kept byte for byte",
			in:   mcp.NewToolWithRawSchema("raw", "Raw", json.RawMessage(`{"type":"object","description":"x"}`)),
			want: toolsearch.Tool{Name: "mcp__srv__raw", Description: "Raw", Server: "srv", MCPName: "raw",
				InputSchema: json.RawMessage(`{"type":"object","description":"x"}`)},
		},
		{
			name: "meta alwaysLoad and searchHint",
			in: mcp.Tool{Name: "t", InputSchema: mcp.ToolInputSchema{Type: "object"},
				Meta: &mcp.Meta{AdditionalFields: map[string]any{"anthropic/alwaysLoad": true, "anthropic/searchHint": " a\tb "}}},
			want: toolsearch.Tool{Name: "mcp__srv__t", Server: "srv", MCPName: "t", AlwaysLoad: true, SearchHint: "a b",
				InputSchema: json.RawMessage(`{"properties":{},"type":"object"}`)},
		},
		{
			name: "description cut at 2048 characters",
			in:   mcp.Tool{Name: "long", Description: strings.Repeat("x", 2049), InputSchema: mcp.ToolInputSchema{Type: "object"}},
			want: toolsearch.Tool{Name: "mcp__srv__long", Server: "srv", MCPName: "long", Description: strings.Repeat("x", 2048) + "… [truncated]",
				InputSchema: json.RawMessage(`{"properties":{},"type":"object"}`)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tsmcpgo.Tool("srv", tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, string(tt.want.InputSchema), string(got.InputSchema))
			got.InputSchema, tt.want.InputSchema = nil, nil
			assert.Equal(t, tt.want, got)
		})
	}
	_, err := tsmcpgo.Tool("srv", mcp.Tool{Name: "bad", InputSchema: mcp.ToolInputSchema{Type: "object",
		Properties: map[string]any{"f": func() {}}}})
	require.ErrorContains(t, err, `tool "bad": encoding its input schema`)
}

func names(reg *toolsearch.Registry) []string {
	var out []string
	for t := range reg.Tools() {
		out = append(out, t.Name)
	}
	return out
}

func echo(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	b, _ := json.Marshal(req.Params.Arguments)
	return mcp.NewToolResultText(req.Params.Name + " " + string(b)), nil
}

func newServer(n int) *server.MCPServer {
	s := server.NewMCPServer("mem", "0.0.1", server.WithToolCapabilities(true), server.WithPaginationLimit(2))
	for i := range n {
		s.AddTool(mcp.NewTool(fmt.Sprintf("tool%d", i), mcp.WithDescription(fmt.Sprintf("Tool number %d", i)),
			mcp.WithString("text")), echo)
	}
	return s
}

func TestAttachInProcess(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacy=%v", legacy), func(t *testing.T) {
			ctx := context.Background()
			srv := newServer(5)
			var copts []client.ClientOption
			if legacy {
				copts = append(copts, legacyProtocol())
			}
			c, err := client.NewInProcessClientWithOptions(srv, copts...)
			require.NoError(t, err)
			reg := &toolsearch.Registry{}
			ev := newEvents()
			servers := newServers(reg, ev.options())
			require.NoError(t, servers.Attach(ctx, "mem", c))
			assert.Equal(t, legacy, !mcp.IsModernProtocol(c.ProtocolVersion()), "protocol %s", c.ProtocolVersion())
			assert.Equal(t, toolsearch.ServerConnected, reg.ServerStatus("mem"))
			assert.Equal(t, []string{"mcp__mem__tool0", "mcp__mem__tool1", "mcp__mem__tool2", "mcp__mem__tool3", "mcp__mem__tool4"}, names(reg),
				"every page (limit 2) should be listed")
			assert.Equal(t, []string{"mem:pending", "mem:listed 5", "mem:connected"}, ev.Events())

			srv.AddTool(mcp.NewTool("late", mcp.WithDescription("Added after connect")), echo)
			ev.WaitFor(t, "the late tool", func() bool { return slices.Contains(names(reg), "mcp__mem__late") })
			srv.DeleteTools("tool0")
			ev.WaitFor(t, "tool0 to go", func() bool { return !slices.Contains(names(reg), "mcp__mem__tool0") })

			out, err := servers.CallTool(ctx, "mcp__mem__late", json.RawMessage(`{"text":"hi"}`))
			require.NoError(t, err)
			assert.Equal(t, `late {"text":"hi"}`, out.Content[0].Text)
			_, err = servers.CallTool(ctx, "mcp__other__late", nil)
			require.ErrorIs(t, err, toolsearch.ErrUnknownTool)

			require.NoError(t, servers.Close("mem"))
			<-servers.Done("mem")
			assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("mem"))
			assert.Empty(t, names(reg), "a disconnected server's tools are not available")
			_, kept := reg.Lookup("mcp__mem__late")
			assert.True(t, kept)
			assert.Empty(t, ev.Errors())
		})
	}
}

func TestAttachBadToolIsSkipped(t *testing.T) {
	srv := newServer(1)
	srv.AddTool(mcp.NewToolWithRawSchema("broken", "", json.RawMessage(`{"type":"object","properties":{"x":{"type":"nope"}}}`)), echo)
	c, err := client.NewInProcessClient(srv)
	require.NoError(t, err)
	reg := &toolsearch.Registry{}
	ev := newEvents()
	servers := newServers(reg, ev.options())
	require.NoError(t, servers.Attach(context.Background(), "s", c))
	defer servers.Close("s")
	assert.Equal(t, []string{"mcp__s__tool0"}, names(reg))
	errs := ev.Errors()
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0], `register "mcp__s__broken"`)
}

func TestAttachFailureMarksDisconnected(t *testing.T) {
	c, err := client.NewInProcessClient(newServer(1))
	require.NoError(t, err)
	require.NoError(t, c.Start(context.Background()))
	require.NoError(t, c.Close())
	reg := &toolsearch.Registry{}
	servers := newServers(reg, nil)
	err = servers.Attach(context.Background(), "gone", c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"gone"`)
	assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("gone"))

	err = servers.Attach(context.Background(), "", c)
	require.ErrorContains(t, err, "empty server name")
}

// eagerTransport announces tools/list_changed while the client is still
// sending notifications/initialized, before the client counts itself
// initialized, as server-everything does on a loaded machine. It then waits
// briefly for a reported error, so a re-list that runs too early is seen.
type eagerTransport struct {
	transport.Interface
	handler func(mcp.JSONRPCNotification)
	errs    chan struct{}
}

func (e *eagerTransport) SetNotificationHandler(h func(mcp.JSONRPCNotification)) {
	e.handler = h
	e.Interface.SetNotificationHandler(h)
}

func (e *eagerTransport) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	err := e.Interface.SendNotification(ctx, n)
	if n.Method == string(mcp.MethodNotificationInitialized) {
		e.handler(mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION,
			Notification: mcp.Notification{Method: mcp.MethodNotificationToolsListChanged}})
		select {
		case <-e.errs:
		case <-time.After(300 * time.Millisecond):
		}
	}
	return err
}

func TestAttachListChangedDuringInitialize(t *testing.T) {
	tr := &eagerTransport{Interface: transport.NewInProcessTransport(newServer(2)), errs: make(chan struct{}, 10)}
	c := client.NewClient(tr, legacyProtocol())
	reg := &toolsearch.Registry{}
	var mu sync.Mutex
	var errs []string
	servers := newServers(reg, &mcphub.Options{OnError: func(_ string, err error) {
		mu.Lock()
		errs = append(errs, err.Error())
		mu.Unlock()
		tr.errs <- struct{}{}
	}})
	require.NoError(t, servers.Attach(context.Background(), "eager", c), "an early tools/list_changed must not cost the connection")
	defer servers.Close("eager")
	assert.Equal(t, toolsearch.ServerConnected, reg.ServerStatus("eager"))
	assert.Equal(t, []string{"mcp__eager__tool0", "mcp__eager__tool1"}, names(reg))
	mu.Lock()
	assert.Empty(t, errs)
	mu.Unlock()
}

// hangingTransport never answers tools/list: a server that accepts the
// connection and then stalls. It closes listing when the request arrives.
type hangingTransport struct {
	transport.Interface
	listing chan struct{}
	release chan struct{}
}

func (h *hangingTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if req.Method == string(mcp.MethodToolsList) {
		close(h.listing)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-h.release:
			return nil, errors.New("released")
		}
	}
	return h.Interface.SendRequest(ctx, req)
}

// TestAttachHangingServerIsAbandoned checks that a server that never
// answers tools/list costs the caller no more than its context: Attach
// returns the context's error and the server is marked disconnected.
func TestAttachHangingServerIsAbandoned(t *testing.T) {
	h := &hangingTransport{Interface: transport.NewInProcessTransport(newServer(2)),
		listing: make(chan struct{}), release: make(chan struct{})}
	defer close(h.release)
	c := client.NewClient(h, legacyProtocol())
	reg := &toolsearch.Registry{}
	ev := newEvents()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-h.listing // the caller gives up once the listing hangs
		cancel()
	}()
	err := newServers(reg, ev.options()).Attach(ctx, "stalls", c)
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), `attach "stalls": listing tools: `)
	assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("stalls"))
	assert.Equal(t, []string{"stalls:pending", "stalls:disconnected"}, ev.Events())
	assert.Empty(t, names(reg))
}
