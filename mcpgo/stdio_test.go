package tsmcpgo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// serverEnv makes the test binary an MCP server over stdio (see TestMain)
// with the tools of newServer(2), "pid", which answers the server's process
// id, and "exit", which ends the process while the call is in progress.
const serverEnv = "TSMCPGO_TEST_STDIO_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) != "" {
		srv := newServer(2)
		srv.AddTool(mcp.NewTool("pid"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(strconv.Itoa(os.Getpid())), nil
		})
		srv.AddTool(mcp.NewTool("exit"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			os.Exit(3)
			return nil, nil
		})
		_ = server.ServeStdio(srv)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// attachStdio starts the test binary as a stdio server and attaches it as
// name.
func attachStdio(t *testing.T, servers *testServers, name string, opts ...client.ClientOption) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	c, err := client.NewStdioMCPClientWithOptions(exe, append(os.Environ(), serverEnv+"=1"), nil)
	require.NoError(t, err)
	if len(opts) > 0 {
		c = client.NewClient(c.GetTransport(), opts...)
	}
	require.NoError(t, servers.Attach(context.Background(), name, c))
}

// TestStdioServerThatDiesIsDisconnectedPromptly: a server process that
// exits during a call is disconnected by the time the call returns, so the
// model is not offered its tools and CheckCall refuses the next call
// instead of letting it wait for its deadline.
func TestStdioServerThatDiesIsDisconnectedPromptly(t *testing.T) {
	reg := &toolsearch.Registry{}
	ev := newEvents()
	opts := ev.options()
	opts.NoPing = true // only the call may notice: no pings, and no subscription stream on the legacy protocol
	servers := newServers(reg, opts)
	attachStdio(t, servers, "dies", legacyProtocol())
	sess := toolsearch.NewSession(reg, nil)
	_, err := sess.CheckCall("mcp__dies__tool0", json.RawMessage(`{"text":"x"}`))
	require.NoError(t, err)

	_, err = servers.CallTool(context.Background(), "mcp__dies__exit", nil)
	require.Error(t, err, "the call the server died in fails")
	select {
	case <-servers.Done("dies"):
	default:
		t.Fatal("the server is still attached after a call found its connection closed")
	}
	assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("dies"))
	_, err = sess.CheckCall("mcp__dies__tool0", json.RawMessage(`{"text":"x"}`))
	require.ErrorIs(t, err, toolsearch.ErrToolUnavailable)
	_, err = servers.CallTool(context.Background(), "mcp__dies__tool0", nil)
	require.ErrorIs(t, err, toolsearch.ErrUnknownTool)
	assert.Empty(t, ev.Errors())
}

// TestStdioServerKilledWhileIdleIsDisconnected: nothing is called, the
// process is killed; pings (legacy protocol) or the subscription stream
// (2026-07-28) notice.
func TestStdioServerKilledWhileIdleIsDisconnected(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacy=%v", legacy), func(t *testing.T) {
			reg := &toolsearch.Registry{}
			opts := newEvents().options()
			opts.PingInterval = 500 * time.Millisecond // also how long an answer may take: long enough for a loaded machine
			servers := newServers(reg, opts)
			var copts []client.ClientOption
			if legacy {
				copts = append(copts, legacyProtocol())
			}
			attachStdio(t, servers, "idle", copts...)
			out, err := servers.CallTool(context.Background(), "mcp__idle__pid", nil)
			require.NoError(t, err)
			pid, err := strconv.Atoi(out.Content[0].Text)
			require.NoError(t, err)
			p, err := os.FindProcess(pid)
			require.NoError(t, err)
			require.NoError(t, p.Kill())
			select {
			case <-servers.Done("idle"):
			case <-time.After(10 * time.Second):
				t.Fatal("the killed server was not noticed")
			}
			assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("idle"))
		})
	}
}

func TestAttachStdioServerEverything(t *testing.T) {
	script := npmServer(t, "server-everything")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := client.NewStdioMCPClient("node", nil, script, "stdio")
	require.NoError(t, err)
	reg := &toolsearch.Registry{}
	ev := newEvents()
	servers := newServers(reg, ev.options())
	require.NoError(t, servers.Attach(ctx, "everything", c))
	defer servers.Close("everything")

	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	require.NoError(t, err)
	var want []string
	for _, tool := range res.Tools {
		want = append(want, toolsearch.NewMCPTool("everything", tool.Name, "", nil, nil).Name)
	}
	slices.Sort(want)
	ev.WaitFor(t, "the registry to match tools/list", func() bool { return slices.Equal(want, names(reg)) })
	assert.Subset(t, want, []string{"mcp__everything__echo", "mcp__everything__get-sum"})
	assert.Empty(t, ev.Errors())

	out, err := servers.CallTool(ctx, "mcp__everything__echo", []byte(`{"message":"hello"}`))
	require.NoError(t, err)
	require.NotEmpty(t, out.Content)
	assert.Contains(t, out.Content[0].Text, "hello")
}
