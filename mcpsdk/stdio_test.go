package tsmcpsdk_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcpsdk/internal/npmtest"
)

// serverEnv makes the test binary an MCP server over stdio (see TestMain)
// with the tools of newServer(2) and "exit", which ends the process while
// the call is in progress.
const serverEnv = "TSMCPSDK_TEST_STDIO_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) != "" {
		srv := newServer(2)
		srv.AddTool(objectTool("exit", "Exit the server mid-call."), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			os.Exit(3)
			return nil, nil
		})
		_ = srv.Run(context.Background(), &mcp.StdioTransport{})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestStdioServerThatDiesIsDisconnectedPromptly: a server process that
// exits during a call is disconnected by the time the call returns, so the
// model is not offered its tools and CheckCall refuses the next call.
func TestStdioServerThatDiesIsDisconnectedPromptly(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), serverEnv+"=1")
	reg := &toolsearch.Registry{}
	ev := newEvents()
	servers := newServers(reg, ev.options())
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, servers.ClientOptions(nil))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = servers.Connect(ctx, "dies", client, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	sess := toolsearch.NewSession(reg, nil)
	_, err = sess.CheckCall("mcp__dies__tool0", json.RawMessage(`{"text":"x"}`))
	require.NoError(t, err)

	_, err = servers.CallTool(ctx, "mcp__dies__exit", nil)
	require.Error(t, err, "the call the server died in fails")
	select {
	case <-servers.Done("dies"):
	case <-ctx.Done():
		t.Fatal("the death of the server was not noticed")
	}
	assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("dies"))
	_, err = sess.CheckCall("mcp__dies__tool0", json.RawMessage(`{"text":"x"}`))
	require.ErrorIs(t, err, toolsearch.ErrToolUnavailable)
	_, err = servers.CallTool(ctx, "mcp__dies__tool0", nil)
	require.ErrorIs(t, err, toolsearch.ErrUnknownTool)
	assert.Empty(t, ev.Errors())
}

func TestServersStdioServerEverything(t *testing.T) {
	script := npmtest.Server(t, "server-everything")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	reg := &toolsearch.Registry{}
	ev := newEvents()
	servers := newServers(reg, ev.options())
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
		want = append(want, toolsearch.NewMCPTool("everything", tool.Name, "", nil, nil).Name)
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
	assert.Contains(t, out.Content[0].Text, "hello")

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
	assert.Empty(t, names(reg), "a disconnected server's tools are not available")
}
