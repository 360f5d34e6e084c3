package mcpgo_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/npmtest"
	"github.com/toolsearch/toolsearch/mcpgo"
)

func TestAttachStdioServerEverything(t *testing.T) {
	script := npmtest.Server(t, "server-everything")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := client.NewStdioMCPClient("node", nil, script, "stdio")
	require.NoError(t, err)
	reg := &toolsearch.Registry{}
	ev := newEvents()
	s, err := mcpgo.Attach(ctx, reg, "everything", c, ev.options())
	require.NoError(t, err)
	defer s.Close()

	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	require.NoError(t, err)
	var want []string
	for _, tool := range res.Tools {
		want = append(want, toolsearch.MCPToolName("everything", tool.Name))
	}
	slices.Sort(want)
	ev.WaitFor(t, "the registry to match tools/list", func() bool { return slices.Equal(want, names(reg)) })
	assert.Subset(t, want, []string{"mcp__everything__echo", "mcp__everything__get-sum"})
	assert.Empty(t, ev.Errors())

	out, err := s.CallTool(ctx, "mcp__everything__echo", []byte(`{"message":"hello"}`))
	require.NoError(t, err)
	require.NotEmpty(t, out.Content)
	assert.Contains(t, out.Content[0].(mcp.TextContent).Text, "hello")
}
