package mcpgo_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcpgo"
)

// npmServer returns the entry script of npm MCP server pkg installed by
// `npm ci --prefix mcpsdk/testdata/npm` (or under $TOOLSEARCH_MCP_NPM). It
// skips, saying why, when node or the package is missing, except under
// CI=true, where that fails the test.
func npmServer(t *testing.T, pkg string) string {
	t.Helper()
	skip := func(why string) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but the real MCP server test cannot run: %s", why)
		}
		t.Skipf("skipping the real MCP server test: %s", why)
	}
	if _, err := exec.LookPath("node"); err != nil {
		skip("node is not on PATH (install Node.js 18+)")
	}
	dir := os.Getenv("TOOLSEARCH_MCP_NPM")
	if dir == "" {
		dir = filepath.Join("..", "mcpsdk", "testdata", "npm")
	}
	script := filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		skip("@modelcontextprotocol/" + pkg + " is not installed at " + script + ": run `npm ci --prefix mcpsdk/testdata/npm`")
	}
	abs, err := filepath.Abs(script)
	require.NoError(t, err)
	return abs
}

func TestAttachStdioServerEverything(t *testing.T) {
	script := npmServer(t, "server-everything")
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
	ev.waitFor(t, "the registry to match tools/list", func() bool { return slices.Equal(want, names(reg)) })
	assert.Subset(t, want, []string{"mcp__everything__echo", "mcp__everything__get-sum"})
	assert.Empty(t, ev.get(&ev.errs))

	out, err := s.CallTool(ctx, "mcp__everything__echo", []byte(`{"message":"hello"}`))
	require.NoError(t, err)
	require.NotEmpty(t, out.Content)
	assert.Contains(t, out.Content[0].(mcp.TextContent).Text, "hello")
}
