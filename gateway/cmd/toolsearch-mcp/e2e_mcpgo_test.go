package main

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mcpgoFlow drives a dynamic-mode gateway with the mcp-go client: list,
// ToolSearch, list_changed, list, call; the call's result equals calling
// server-everything directly (with the go-sdk client: the comparison is of
// the JSON the two clients decode).
func mcpgoFlow(t *testing.T, c *client.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	changed := make(chan struct{}, 64)
	acked := make(chan struct{}, 64)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		switch n.Method {
		case "notifications/tools/list_changed":
			changed <- struct{}{}
		case "notifications/subscriptions/acknowledged":
			acked <- struct{}{}
		}
	})
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() { _ = c.Close() })
	init, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "e2e-mcp-go", Version: "0"}}})
	require.NoError(t, err)
	mustContain(t, init.Instructions, "mcp__everything__echo")
	// On the 2026-07-28 protocol notifications need a subscription; on
	// the legacy one they come unasked.
	// ListenAsync subscribes on a goroutine of its own: a change before the
	// server has the subscription would be told to no one, so the test
	// waits for the server's acknowledgement, which it sends once it has.
	if stop, err := c.ListenAsync(ctx, mcp.SubscriptionFilter{ToolsListChanged: true}, nil); err == nil {
		t.Cleanup(stop)
		select {
		case <-acked:
		case <-time.After(20 * time.Second):
			t.Fatal("no notifications/subscriptions/acknowledged within 20s")
		}
	}

	names := func() []string {
		res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
		require.NoError(t, err)
		var out []string
		for _, tool := range res.Tools {
			out = append(out, tool.Name)
		}
		return out
	}
	require.Equal(t, []string{"ToolSearch"}, names())
	found, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "ToolSearch",
		Arguments: map[string]any{"query": "echo"}}})
	require.NoError(t, err)
	require.False(t, found.IsError)
	select {
	case <-changed:
	case <-time.After(20 * time.Second):
		t.Fatal("no notifications/tools/list_changed within 20s")
	}
	assert.Contains(t, names(), "mcp__everything__echo", "the found tool joined the list")

	args := map[string]any{"message": "through mcp-go"}
	got, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "mcp__everything__echo", Arguments: args}})
	require.NoError(t, err)
	want := direct(t).call(t, "echo", args)
	gotContent, err := json.Marshal(got.Content)
	require.NoError(t, err)
	assert.JSONEq(t, asJSON(t, want.Content), string(gotContent), "echo through the gateway, read by mcp-go, equals echo called directly")
	assert.Equal(t, want.IsError, got.IsError)
}

func TestE2EMCPGoStdio(t *testing.T) {
	t.Parallel()
	cfg := writeGatewayConfig(t, map[string]any{"everything": everythingServer(t)}, nil)
	exe, err := os.Executable()
	require.NoError(t, err)
	c, err := client.NewStdioMCPClientWithOptions(exe, append(os.Environ(), mainEnv+"=1"),
		serveArgs("--config", cfg, "--no-pinning", "--log-level", "error"))
	require.NoError(t, err)
	mcpgoFlow(t, c)
}

func TestE2EMCPGoHTTP(t *testing.T) {
	t.Parallel()
	cfg := writeGatewayConfig(t, map[string]any{"everything": everythingServer(t)}, nil)
	g := startHTTPGateway(t, "--config", cfg, "--no-pinning")
	// Over Streamable HTTP with sessions, notifications outside a
	// request's answer come on the GET stream, which mcp-go opens on request.
	//lint:ignore SA1019 the gateway's HTTP sessions are on the legacy protocol, whose notifications come on that stream
	c, err := client.NewStreamableHttpClient(g.url, transport.WithContinuousListening())
	require.NoError(t, err)
	mcpgoFlow(t, c)
}
