package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/gateway/internal/npmtest"
)

// remoteEverything starts server-everything over HTTP (transport
// "streamableHttp" or "sse") on a free loopback port and returns the port.
func remoteEverything(t *testing.T, transport string) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command("node", npmtest.Server(t, "server-everything"), transport)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	require.Eventually(t, func() bool {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
		}
		return err == nil
	}, 20*time.Second, 20*time.Millisecond, "server-everything %s listens", transport)
	return port
}

// writeConfigAt replaces the config at path.
func writeConfigAt(t *testing.T, path string, servers map[string]any) {
	t.Helper()
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path+".tmp", b, 0o600))
	require.NoError(t, os.Rename(path+".tmp", path))
}

// A changed config file is applied without dropping the session: remote
// servers join (Streamable HTTP with a header, and a legacy SSE server
// reached by the fallback); on SIGHUP a removed server leaves.
func TestE2EReloadAndRemoteServers(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	require.NoError(t, err)
	streamable := remoteEverything(t, "streamableHttp")
	sse := remoteEverything(t, "sse")
	fake := fakeEntry(exe, nil)
	cfg := writeGatewayConfig(t, map[string]any{"fake": fake}, nil)
	g := startHTTPGateway(t, "--config", cfg, "--no-pinning", "--watch", "100ms")
	c := connectGo(t, &mcp.StreamableClientTransport{Endpoint: g.url})
	require.Len(t, c.search(t, "select:mcp__fake__greet").Matches, 1)

	writeConfigAt(t, cfg, map[string]any{
		"fake":     fake,
		"remote":   map[string]any{"type": "http", "url": fmt.Sprintf("http://127.0.0.1:%d/mcp", streamable), "headers": map[string]string{"X-Team": "e2e"}},
		"legacy":   map[string]any{"url": fmt.Sprintf("http://127.0.0.1:%d/sse", sse)},
		"disabled": map[string]any{"command": "no-such-command", "disabled": true},
	})
	require.Eventually(t, func() bool {
		return len(c.search(t, "select:mcp__remote__echo,mcp__legacy__echo").Matches) == 2
	}, 30*time.Second, 100*time.Millisecond, "the new remote servers' tools are served to the same session:\n%s", g.log)
	assert.Equal(t, "Echo: over http", text(c.call(t, "mcp__remote__echo", map[string]any{"message": "over http"})))
	assert.Equal(t, "Echo: over sse", text(c.call(t, "mcp__legacy__echo", map[string]any{"message": "over sse"})))
	mustContain(t, g.log.String(), "server disabled in the config", "server=disabled")

	writeConfigAt(t, cfg, map[string]any{"fake": fake})
	require.NoError(t, g.cmd.Process.Signal(syscall.SIGHUP))
	require.Eventually(t, func() bool {
		return len(c.search(t, "select:mcp__remote__echo").Matches) == 0
	}, 20*time.Second, 50*time.Millisecond, "a removed server's tools go")
	assert.Equal(t, "hello same session", text(c.call(t, "mcp__fake__greet", map[string]any{"name": "same session"})))
	mustContain(t, g.log.String(), "reload: server stopped", "server=remote")
}

// A SIGHUP and a config change that come as soon as the gateway says it
// listens are not lost to the reloader's start: the SIGHUP does not end the
// process (the signal's default action, before the gateway takes it), and
// the change is applied (its stamp is not taken for the first version).
func TestE2EReloadRightAfterListening(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	require.NoError(t, err)
	fake := fakeEntry(exe, nil)
	cfg := writeGatewayConfig(t, map[string]any{"fake": fake}, nil)
	g := startHTTPGateway(t, "--config", cfg, "--no-pinning", "--watch", "100ms")
	require.NoError(t, g.cmd.Process.Signal(syscall.SIGHUP))
	writeConfigAt(t, cfg, map[string]any{"fake": fake, "extra": fake})
	c := connectGo(t, &mcp.StreamableClientTransport{Endpoint: g.url})
	require.Eventually(t, func() bool { return len(c.search(t, "select:mcp__extra__greet").Matches) == 1 },
		20*time.Second, 50*time.Millisecond, "the config written right after listening is applied:\n%s", g.log)
	assert.Equal(t, "hello again", text(c.call(t, "mcp__fake__greet", map[string]any{"name": "again"})))
}
