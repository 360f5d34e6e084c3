package main

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// A gateway whose upstream takes longer to start than the clients' probe
// of the 2026-07-28 protocol lasts (mcp-go gives server/discover 5 s): the
// probe is answered at once, the client falls back to initialize, whose
// answer waits for the startup (at most 10 s here), and the slow server's
// tools are found and called once it is up.

// slowArgs are the serve arguments for a fake upstream "slow" that starts
// after 6 s.
func slowArgs(t *testing.T) []string {
	exe, err := os.Executable()
	require.NoError(t, err)
	cfg := writeGatewayConfig(t, map[string]any{"slow": fakeEntry(exe, map[string]string{"FAKE_DELAY": "6s"})}, nil)
	return []string{"serve", "--startup-wait", "10s", "--config", cfg, "--no-pinning", "--log-level", "error"}
}

// within calls try every 100 ms until it reports true, failing the test
// after a minute.
func within(t *testing.T, what string, try func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !try() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a minute", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestE2EMCPGoStdioSlowUpstream(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	require.NoError(t, err)
	c, err := client.NewStdioMCPClientWithOptions(exe, append(os.Environ(), mainEnv+"=1"), slowArgs(t))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() { _ = c.Close() })
	_, err = c.Initialize(ctx, mcpgo.InitializeRequest{Params: mcpgo.InitializeParams{
		ClientInfo: mcpgo.Implementation{Name: "e2e-mcp-go", Version: "0"}}})
	require.NoError(t, err, "the client initializes although the upstream needs more than the probe's 5 s")

	names := func() []string {
		res, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
		require.NoError(t, err)
		var out []string
		for _, tool := range res.Tools {
			out = append(out, tool.Name)
		}
		return out
	}
	require.Contains(t, names(), "ToolSearch")
	within(t, "ToolSearch finds the slow server's greet", func() bool {
		res, err := c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "ToolSearch",
			Arguments: map[string]any{"query": "select:mcp__slow__greet"}}})
		require.NoError(t, err)
		for _, b := range res.Content {
			if tc, ok := b.(mcpgo.TextContent); ok && strings.Contains(tc.Text, `"name":"mcp__slow__greet"`) {
				return true
			}
		}
		return false
	})
	within(t, "greet joins the tool list", func() bool { return slices.Contains(names(), "mcp__slow__greet") })
	res, err := c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "mcp__slow__greet",
		Arguments: map[string]any{"name": "mcp-go"}}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	require.Equal(t, mcpgo.TextContent{Type: "text", Text: "hello mcp-go"}, res.Content[0])
}

func TestE2EGoSDKStdioSlowUpstream(t *testing.T) {
	t.Parallel()
	cmd := gatewayCmd(t, slowArgs(t)...)
	c := connectGo(t, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second})
	require.NoError(t, c.cs.Ping(context.Background(), nil))
	require.Contains(t, c.toolNames(t), "ToolSearch")
	within(t, "ToolSearch finds the slow server's greet", func() bool {
		return strings.Contains(text(c.call(t, "ToolSearch", searchArgs("select:mcp__slow__greet"))), `"name":"mcp__slow__greet"`)
	})
	within(t, "greet joins the tool list", func() bool { return slices.Contains(c.toolNames(t), "mcp__slow__greet") })
	res := c.call(t, "mcp__slow__greet", map[string]any{"name": "go-sdk"})
	require.False(t, res.IsError, text(res))
	require.Equal(t, "hello go-sdk", text(res))
}
