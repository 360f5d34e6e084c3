package main

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Results through the gateway equal the upstream's own, for the kinds of
// content server-everything returns: text, an image, structured content.
var sameResultCalls = []struct {
	gateway, raw string
	args         map[string]any
}{
	{"mcp__everything__echo", "echo", map[string]any{"message": "hi there"}},
	{"mcp__everything__get-sum", "get-sum", map[string]any{"a": 2, "b": 40}},
	{"mcp__everything__get-tiny-image", "get-tiny-image", map[string]any{}},
	{"mcp__everything__get-structured-content", "get-structured-content", map[string]any{"location": "New York"}},
}

// dynamicFlow runs list → ToolSearch → list_changed → list → call against
// a dynamic-mode gateway in front of server-everything, and compares the
// results with calling the upstream directly.
func dynamicFlow(t *testing.T, c *goClient) {
	t.Helper()
	require.Equal(t, []string{"ToolSearch"}, c.toolNames(t), "an idle session lists ToolSearch alone")
	instr := c.cs.InitializeResult().Instructions
	mustContain(t, instr, "The following deferred tools are available via ToolSearch:", "mcp__everything__echo")

	res := c.call(t, "ToolSearch", searchArgs("select:mcp__everything__echo,mcp__everything__get-sum,mcp__everything__get-tiny-image,mcp__everything__get-structured-content"))
	require.False(t, res.IsError, text(res))
	mustContain(t, text(res), `"name":"mcp__everything__echo"`, `"schema"`)
	c.waitChanged(t)
	assert.ElementsMatch(t, []string{"ToolSearch", "mcp__everything__echo", "mcp__everything__get-sum",
		"mcp__everything__get-tiny-image", "mcp__everything__get-structured-content"}, c.toolNames(t),
		"the found tools joined the session's list")

	up := direct(t)
	for _, call := range sameResultCalls {
		got := c.call(t, call.gateway, call.args)
		want := up.call(t, call.raw, call.args)
		assert.Equal(t, asJSON(t, want), asJSON(t, got), "%s through the gateway equals %s called directly", call.gateway, call.raw)
	}
}

func TestE2EGoSDKStdioDynamic(t *testing.T) {
	t.Parallel()
	cfg := writeGatewayConfig(t, map[string]any{"everything": everythingServer(t)}, nil)
	c := connectGo(t, stdioGateway(t, "--config", cfg, "--no-pinning"))
	dynamicFlow(t, c)
}

func TestE2EGoSDKHTTPDynamic(t *testing.T) {
	t.Parallel()
	cfg := writeGatewayConfig(t, map[string]any{"everything": everythingServer(t)}, nil)
	g := startHTTPGateway(t, "--config", cfg, "--no-pinning")
	c := connectGo(t, &mcp.StreamableClientTransport{Endpoint: g.url})
	dynamicFlow(t, c)
	// Another session is not affected by the first one's discoveries.
	other := connectGo(t, &mcp.StreamableClientTransport{Endpoint: g.url})
	assert.Equal(t, []string{"ToolSearch"}, other.toolNames(t))
}

// bridgeFlow: a fixed list, ToolSearch and CallTool, and the found tools
// called through CallTool.
func bridgeFlow(t *testing.T, c *goClient) {
	t.Helper()
	require.ElementsMatch(t, []string{"ToolSearch", "CallTool"}, c.toolNames(t))
	mustContain(t, c.cs.InitializeResult().Instructions, "CallTool", "mcp__everything__echo")
	res := c.call(t, "ToolSearch", searchArgs("echo message"))
	require.False(t, res.IsError, text(res))
	mustContain(t, text(res), `"name":"mcp__everything__echo"`)
	require.ElementsMatch(t, []string{"ToolSearch", "CallTool"}, c.toolNames(t), "the list stays fixed")
	up := direct(t)
	for _, call := range sameResultCalls {
		got := c.call(t, "CallTool", map[string]any{"name": call.gateway, "arguments": call.args})
		want := up.call(t, call.raw, call.args)
		assert.Equal(t, asJSON(t, want), asJSON(t, got), "CallTool %s equals %s called directly", call.gateway, call.raw)
	}
	// The guard's refusal is an isError result with the model-facing text.
	bad := c.call(t, "CallTool", map[string]any{"name": "mcp__everything__get-sum", "arguments": map[string]any{"a": "two"}})
	assert.True(t, bad.IsError)
	mustContain(t, text(bad), "mcp__everything__get-sum")
}

func TestE2EGoSDKStdioBridge(t *testing.T) {
	t.Parallel()
	cfg := writeGatewayConfig(t, map[string]any{"everything": everythingServer(t)}, map[string]any{"mode": "bridge"})
	bridgeFlow(t, connectGo(t, stdioGateway(t, "--config", cfg, "--no-pinning")))
}

func TestE2EGoSDKHTTPBridge(t *testing.T) {
	t.Parallel()
	cfg := writeGatewayConfig(t, map[string]any{"everything": everythingServer(t)}, nil)
	g := startHTTPGateway(t, "--config", cfg, "--no-pinning", "--mode", "bridge")
	bridgeFlow(t, connectGo(t, &mcp.StreamableClientTransport{Endpoint: g.url}))
}
