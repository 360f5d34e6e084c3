package tsmcpsdk_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

func TestCallToolText(t *testing.T) {
	results := map[string]*mcp.CallToolResult{
		"text": {Content: []mcp.Content{&mcp.TextContent{Text: "Sunny"}, &mcp.TextContent{Text: "21°C"}}},
		"mixed": {Content: []mcp.Content{&mcp.TextContent{Text: "A chart:"},
			&mcp.ImageContent{Data: []byte("png"), MIMEType: "image/png"}}},
		"structured": {StructuredContent: map[string]any{"temp": 21}},
		"empty":      {},
		"error":      {Content: []mcp.Content{&mcp.TextContent{Text: "city not found"}}, IsError: true},
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1"}, nil)
	for name, res := range results {
		server.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return res, nil })
	}
	ctx := context.Background()
	serverSide, clientSide := mcp.NewInMemoryTransports()
	_, err := server.Connect(ctx, serverSide, nil)
	require.NoError(t, err)
	reg := &toolsearch.Registry{}
	servers := tsmcpsdk.New(reg, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, servers.ClientOptions(nil))
	session, err := servers.Connect(ctx, "weather", client, clientSide, nil)
	require.NoError(t, err)
	defer session.Close()

	for _, tc := range []struct{ tool, want, why string }{
		{"text", "Sunny\n21°C", "text blocks, one per line"},
		{"mixed", `A chart:` + "\n" + `{"type":"image","mimeType":"image/png","data":"cG5n"}`, "another block as its MCP JSON"},
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
