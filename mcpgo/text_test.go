package tsmcpgo_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	tsmcpgo "github.com/toolsearch/toolsearch/mcpgo"
)

func TestCallToolText(t *testing.T) {
	results := map[string]*mcp.CallToolResult{
		"text":       {Content: []mcp.Content{mcp.NewTextContent("Sunny"), mcp.NewTextContent("21°C")}},
		"mixed":      {Content: []mcp.Content{mcp.NewTextContent("A chart:"), mcp.NewImageContent("cG5n", "image/png")}},
		"structured": {StructuredContent: map[string]any{"temp": 21}},
		"empty":      {},
		"error":      {Content: []mcp.Content{mcp.NewTextContent("city not found")}, IsError: true},
	}
	srv := server.NewMCPServer("weather", "1", server.WithToolCapabilities(true))
	for name, res := range results {
		srv.AddTool(mcp.NewTool(name), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return res, nil })
	}
	ctx := context.Background()
	c, err := client.NewInProcessClient(srv)
	require.NoError(t, err)
	servers := tsmcpgo.New(&toolsearch.Registry{}, nil)
	require.NoError(t, servers.Attach(ctx, "weather", c))
	defer servers.Close("weather")

	for _, tc := range []struct{ tool, want, why string }{
		{"text", "Sunny\n21°C", "text blocks, one per line"},
		{"mixed", `A chart:` + "\n" + `{"type":"image","data":"cG5n","mimeType":"image/png"}`, "another block as its MCP JSON"},
		{"structured", `{"temp":21}`, "no content: the structured content as JSON"},
		{"empty", "", "nothing at all"},
		{"error", "city not found", "an isError result is its text"},
	} {
		got, err := servers.CallToolText(ctx, "mcp__weather__"+tc.tool, json.RawMessage(`{}`))
		require.NoError(t, err, "CallToolText(%s)", tc.tool)
		assert.Equal(t, tc.want, got, "CallToolText(%s): %s", tc.tool, tc.why)
	}
	_, err = servers.CallToolText(ctx, "mcp__weather__nope", nil)
	assert.ErrorIs(t, err, toolsearch.ErrUnknownTool, "CallTool's errors are returned")
}
