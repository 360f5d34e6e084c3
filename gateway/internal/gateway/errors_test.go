package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// TestRefusalText: the gateway's refusals reach the model as
// toolsearch.ModelText(err) with isError: the package's own words carry
// no "toolsearch:" prefix, and an upstream's error text is not rewritten.
func TestRefusalText(t *testing.T) {
	lazy := toolsearch.NewMCPTool("fs", "stat", "Stat a file", nil, nil)
	lazy.LoadSchema = func() (json.RawMessage, error) { return nil, errors.New("toolsearch: the upstream's own words") }
	g := newTestGateway(t, `{"mcpServers":{},"toolsearch":{"mode":"dynamic"}}`, append([]toolsearch.Tool{lazy}, catalog...)...)
	s := g.newSession(nil, nil)
	text := func(r *mcp.CallToolResult) string {
		t.Helper()
		require.True(t, r.IsError)
		require.Len(t, r.Content, 1)
		return r.Content[0].(*mcp.TextContent).Text
	}

	got := text(s.toolSearch(context.Background(), json.RawMessage(`{}`)))
	assert.Contains(t, got, "Invalid ToolSearch input: missing properties: 'query'")
	assert.NotContains(t, got, "toolsearch:", "the package's own text has no Go package prefix")

	res, err := s.callTool(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "mcp__fs__nope", Arguments: json.RawMessage(`{}`)}})
	require.NoError(t, err)
	got = text(res)
	assert.Contains(t, got, "No tool named mcp__fs__nope")
	assert.NotContains(t, got, "toolsearch:", "the package's own text has no Go package prefix")

	res, err = s.callTool(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "mcp__fs__stat", Arguments: json.RawMessage(`{}`)}})
	require.NoError(t, err)
	assert.Contains(t, text(res), `: toolsearch: the upstream's own words`, "the upstream's words as they are")
}
