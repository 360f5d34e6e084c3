package tsmcpsdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

func TestConvertTool(t *testing.T) {
	long := strings.Repeat("é", 3000)
	tests := []struct {
		name string
		in   *mcp.Tool
		want toolsearch.Tool
	}{
		{
			name: "schema map and plain description",
			in: &mcp.Tool{Name: "get.weather", Description: "Get weather",
				InputSchema: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}},
			want: toolsearch.Tool{Name: "mcp__srv__get_weather_f32dc29d", Description: "Get weather", Server: "srv", MCPName: "get.weather",
				InputSchema: json.RawMessage(`{"properties":{"city":{"type":"string"}},"type":"object"}`)},
		},
		{
			name: "nil schema stays empty",
			in:   &mcp.Tool{Name: "ping"},
			want: toolsearch.Tool{Name: "mcp__srv__ping", Server: "srv", MCPName: "ping"},
		},
		{
			name: "raw schema kept byte for byte",
			in:   &mcp.Tool{Name: "raw", InputSchema: json.RawMessage(`{"type":"object","description":"x"}`)},
			want: toolsearch.Tool{Name: "mcp__srv__raw", Server: "srv", MCPName: "raw", InputSchema: json.RawMessage(`{"type":"object","description":"x"}`)},
		},
		{
			name: "meta alwaysLoad and searchHint",
			in: &mcp.Tool{Name: "t", Meta: mcp.Meta{"anthropic/alwaysLoad": true, "anthropic/searchHint": "  forecast \n rain  "},
				InputSchema: map[string]any{"type": "object"}},
			want: toolsearch.Tool{Name: "mcp__srv__t", Server: "srv", MCPName: "t", AlwaysLoad: true, SearchHint: "forecast rain",
				InputSchema: json.RawMessage(`{"type":"object"}`)},
		},
		{
			name: "description cut at 2048 characters",
			in:   &mcp.Tool{Name: "long", Description: long},
			want: toolsearch.Tool{Name: "mcp__srv__long", Server: "srv", MCPName: "long", Description: strings.Repeat("é", 2048) + "… [truncated]"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tsmcpsdk.Tool("srv", tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestConvertToolMetaOfTheWrongType(t *testing.T) {
	got, err := tsmcpsdk.Tool("srv", &mcp.Tool{Name: "t", Meta: mcp.Meta{"anthropic/alwaysLoad": "true", "anthropic/searchHint": 3}})
	require.NoError(t, err, "converting keeps the tool; registering it reports the _meta values")
	assert.Equal(t, "mcp__srv__t", got.Name)
	assert.False(t, got.AlwaysLoad)
	assert.Empty(t, got.SearchHint)
	err = (&toolsearch.Registry{}).Register(got)
	require.ErrorIs(t, err, toolsearch.ErrInvalidMeta)
	assert.ErrorContains(t, err, "anthropic/alwaysLoad")
}

func TestConvertToolErrors(t *testing.T) {
	_, err := tsmcpsdk.Tool("srv", nil)
	require.EqualError(t, err, "a nil tool was listed")
	_, err = tsmcpsdk.Tool("srv", &mcp.Tool{Name: "bad", InputSchema: map[string]any{"f": func() {}}})
	require.ErrorContains(t, err, `tool "bad": encoding its input schema`)
}

func names(reg *toolsearch.Registry) []string {
	var out []string
	for t := range reg.Tools() {
		out = append(out, t.Name)
	}
	return out
}

func objectTool(name, desc string) *mcp.Tool {
	return &mcp.Tool{Name: name, Description: desc, InputSchema: map[string]any{"type": "object",
		"properties": map[string]any{"text": map[string]any{"type": "string"}}}}
}

func echo(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: req.Params.Name + " " + string(req.Params.Arguments)}}}, nil
}

// newServer returns an in-memory go-sdk server with n tools, listed two per
// page so that listing has to follow nextCursor.
func newServer(n int) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "mem", Version: "0.0.1"}, &mcp.ServerOptions{PageSize: 2})
	for i := range n {
		srv.AddTool(objectTool(fmt.Sprintf("tool%d", i), fmt.Sprintf("Tool number %d", i)), echo)
	}
	return srv
}

func TestServersInMemory(t *testing.T) {
	for _, proto := range []string{"", "2025-11-25"} {
		t.Run("protocol="+cmpOr(proto, "latest"), func(t *testing.T) {
			ctx := context.Background()
			reg := &toolsearch.Registry{}
			ev := newEvents()
			servers := newServers(reg, ev.options())
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, servers.ClientOptions(nil))

			srv := newServer(5)
			st, ct := mcp.NewInMemoryTransports()
			ss, err := srv.Connect(ctx, st, nil)
			require.NoError(t, err)

			cs, err := servers.Connect(ctx, "mem", client, ct, &mcp.ClientSessionOptions{ProtocolVersion: proto})
			require.NoError(t, err)
			if proto != "" {
				require.Equal(t, proto, cs.InitializeResult().ProtocolVersion)
			}
			assert.Equal(t, toolsearch.ServerConnected, reg.ServerStatus("mem"))
			assert.Equal(t, []string{"mcp__mem__tool0", "mcp__mem__tool1", "mcp__mem__tool2", "mcp__mem__tool3", "mcp__mem__tool4"}, names(reg),
				"all pages (page size 2) should be listed")
			assert.Equal(t, []string{"mem:pending", "mem:listed 5", "mem:connected"}, ev.Events(),
				"pending while connecting, listed, then connected")

			// A search finds the listed tools.
			res, err := toolsearch.NewSearcher(reg, nil).Search("select:mcp__mem__tool3", 0)
			require.NoError(t, err)
			require.Len(t, res.Matches, 1)
			assert.JSONEq(t, `{"type":"object","properties":{"text":{"type":"string"}}}`, string(res.Matches[0].Schema))

			// tools/list_changed: a tool added and one removed after connect.
			srv.AddTool(objectTool("late", "Added after connect"), echo)
			ev.WaitFor(t, "the late tool", func() bool { return slices.Contains(names(reg), "mcp__mem__late") })
			srv.RemoveTools("tool0")
			ev.WaitFor(t, "tool0 to go", func() bool { return !slices.Contains(names(reg), "mcp__mem__tool0") })
			assert.Equal(t, []string{"mcp__mem__late", "mcp__mem__tool1", "mcp__mem__tool2", "mcp__mem__tool3", "mcp__mem__tool4"}, names(reg))

			// Calls are routed to the right session under the raw MCP name.
			out, err := servers.CallTool(ctx, "mcp__mem__late", json.RawMessage(`{"text":"hi"}`))
			require.NoError(t, err)
			assert.Equal(t, `late {"text":"hi"}`, out.Content[0].Text)
			_, err = servers.CallTool(ctx, "mcp__mem__nope", nil)
			require.ErrorIs(t, err, toolsearch.ErrUnknownTool)

			// The server ends the session: disconnected, tools kept but unavailable.
			done := servers.Done("mem")
			require.NotNil(t, done)
			require.NoError(t, ss.Close())
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the session end was not noticed")
			}
			assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("mem"))
			assert.Empty(t, names(reg), "a disconnected server's tools are not available")
			_, kept := reg.Lookup("mcp__mem__late")
			assert.True(t, kept, "a disconnected server's tools are kept")
			assert.Nil(t, servers.Session("mem"))
			assert.Empty(t, ev.Errors())
		})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func TestServersClientCloses(t *testing.T) {
	ctx := context.Background()
	reg := &toolsearch.Registry{}
	servers := newServers(reg, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, servers.ClientOptions(nil))
	st, ct := mcp.NewInMemoryTransports()
	_, err := newServer(1).Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := servers.Connect(ctx, "a", client, ct, nil)
	require.NoError(t, err)
	done := servers.Done("a")
	require.NoError(t, cs.Close())
	<-done
	assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("a"))

	// The name is free again: a new session reconnects the server.
	st, ct = mcp.NewInMemoryTransports()
	_, err = newServer(2).Connect(ctx, st, nil)
	require.NoError(t, err)
	_, err = servers.Connect(ctx, "a", client, ct, nil)
	require.NoError(t, err)
	assert.Equal(t, toolsearch.ServerConnected, reg.ServerStatus("a"))
	assert.Equal(t, []string{"mcp__a__tool0", "mcp__a__tool1"}, names(reg))
}

func TestServersBadToolsDoNotStopTheServer(t *testing.T) {
	ctx := context.Background()
	reg := &toolsearch.Registry{}
	ev := newEvents()
	servers := newServers(reg, ev.options())
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, servers.ClientOptions(nil))
	srv := newServer(1)
	srv.AddTool(&mcp.Tool{Name: "broken", InputSchema: map[string]any{"type": "object",
		"properties": map[string]any{"x": map[string]any{"type": "no-such-type"}}}}, echo)
	st, ct := mcp.NewInMemoryTransports()
	_, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	_, err = servers.Connect(ctx, "s", client, ct, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"mcp__s__tool0"}, names(reg))
	assert.Contains(t, ev.Events(), "s:listed 2", "OnListed counts what tools/list returned, bad tools included")
	errs := ev.Errors()
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0], `s: register "mcp__s__broken"`)
	assert.Contains(t, errs[0], toolsearch.ErrInvalidSchema.Error())
}

func TestServersErrors(t *testing.T) {
	ctx := context.Background()
	reg := &toolsearch.Registry{}
	servers := newServers(reg, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, servers.ClientOptions(nil))

	st, ct := mcp.NewInMemoryTransports()
	_, err := newServer(1).Connect(ctx, st, nil)
	require.NoError(t, err)
	_, err = servers.Connect(ctx, "dup", client, ct, nil)
	require.NoError(t, err)
	_, err = servers.Connect(ctx, "dup", client, ct, nil)
	require.ErrorIs(t, err, mcphub.ErrAttached)

	_, err = servers.Connect(ctx, "", client, ct, nil)
	require.ErrorContains(t, err, "empty server name")

	// A transport whose other end is gone: connecting fails, the server is
	// marked disconnected rather than left pending.
	st, ct = mcp.NewInMemoryTransports()
	conn, err := st.Connect(ctx)
	require.NoError(t, err)
	require.NoError(t, conn.Close())
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err = servers.Connect(cctx, "gone", client, ct, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `attach "gone": connecting: `)
	assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("gone"))
}

func TestClientOptionsChainsTheCallersHandler(t *testing.T) {
	ctx := context.Background()
	reg := &toolsearch.Registry{}
	ev := newEvents()
	servers := newServers(reg, ev.options())
	theirs := make(chan struct{}, 10)
	opts := servers.ClientOptions(&mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
		theirs <- struct{}{}
	}})
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, opts)
	srv := newServer(1)
	st, ct := mcp.NewInMemoryTransports()
	_, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	_, err = servers.Connect(ctx, "c", client, ct, nil)
	require.NoError(t, err)
	srv.AddTool(objectTool("more", "More"), echo)
	select {
	case <-theirs:
	case <-time.After(10 * time.Second):
		t.Fatal("the caller's ToolListChangedHandler was not called")
	}
	ev.WaitFor(t, "the new tool", func() bool { return slices.Contains(names(reg), "mcp__c__more") })
}
