package tsmcpsdk_test

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/npmtest"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

func TestServersStdioServerEverything(t *testing.T) {
	script := npmtest.Server(t, "server-everything")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	reg := &toolsearch.Registry{}
	ev := newEvents()
	servers := tsmcpsdk.New(reg, ev.options())
	client := mcp.NewClient(&mcp.Implementation{Name: "toolsearch-test", Version: "0"}, servers.ClientOptions(nil))
	cs, err := servers.Connect(ctx, "everything", client,
		&mcp.CommandTransport{Command: exec.Command("node", script, "stdio"), TerminateDuration: time.Second}, nil)
	require.NoError(t, err)
	assert.Equal(t, toolsearch.ServerConnected, reg.ServerStatus("everything"))

	// server-everything registers get-roots-list only after initialize (the
	// client advertises roots) and announces it with tools/list_changed, so
	// its arrival shows that re-listing works over a real stdio server.
	ev.WaitFor(t, "get-roots-list after tools/list_changed", func() bool {
		return slices.Contains(names(reg), "mcp__everything__get-roots-list")
	})

	// The registry holds exactly what tools/list returns now.
	var want []string
	for tool, err := range cs.Tools(ctx, nil) {
		require.NoError(t, err)
		want = append(want, toolsearch.MCPToolName("everything", tool.Name))
	}
	slices.Sort(want)
	ev.WaitFor(t, "the registry to match tools/list", func() bool { return slices.Equal(want, names(reg)) })
	assert.Subset(t, want, []string{"mcp__everything__echo", "mcp__everything__get-sum"})
	assert.Empty(t, ev.Errors(), "server-everything's tools should all register")

	// Keyword search over the real tools, and a routed call.
	res, err := toolsearch.NewSearcher(reg, nil).Search("echo", 1)
	require.NoError(t, err)
	require.Len(t, res.Matches, 1)
	assert.Equal(t, "mcp__everything__echo", res.Matches[0].Name)
	out, err := servers.CallTool(ctx, "mcp__everything__echo", []byte(`{"message":"hello"}`))
	require.NoError(t, err)
	require.NotEmpty(t, out.Content)
	assert.Contains(t, out.Content[0].(*mcp.TextContent).Text, "hello")

	done := servers.Done("everything")
	// server-everything does not exit when its stdin closes; the transport
	// then stops it with SIGTERM and Close reports that.
	_ = cs.Close()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("the end of the stdio session was not noticed")
	}
	assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("everything"))
	assert.Equal(t, 0, reg.Len())
}
