package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/gateway/internal/npmtest"
)

// mainEnv makes the test binary run the command itself (see TestMain), so
// that clients can launch the gateway as a desktop client does.
const mainEnv = "TOOLSEARCH_MCP_RUN_MAIN"

// gatewayCmd is the command that starts the gateway with args.
func gatewayCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	return cmd
}

// logBuffer collects a process's stderr, line by line, safe for
// concurrent use.
type logBuffer struct {
	mu    sync.Mutex
	lines []string
}

func (b *logBuffer) add(l string) {
	b.mu.Lock()
	b.lines = append(b.lines, l)
	b.mu.Unlock()
}

// String returns every line so far.
func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.lines, "\n")
}

// httpGateway is a gateway process serving Streamable HTTP.
type httpGateway struct {
	url  string // of the MCP endpoint
	base string // scheme://host:port
	log  *logBuffer
	cmd  *exec.Cmd
}

// serveArgs is the serve command with args as the tests run it: the first
// client request waits up to a minute for the upstream servers' first
// attempts (a node server can take longer than the default 10 s to start
// on a loaded machine, and a test would then find its tools missing). The
// wait ends as soon as every first attempt has.
func serveArgs(args ...string) []string {
	return append([]string{"serve", "--startup-wait", "60s"}, args...)
}

var listening = regexp.MustCompile(`msg=listening url=(http://[^ ]+)/mcp`)

// startHTTPGateway starts `toolsearch-mcp serve --listen 127.0.0.1:0 args`
// and waits until it listens. It is stopped (SIGTERM) when the test ends.
func startHTTPGateway(t *testing.T, args ...string) *httpGateway {
	t.Helper()
	cmd := gatewayCmd(t, serveArgs(append([]string{"--listen", "127.0.0.1:0"}, args...)...)...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	g := &httpGateway{log: &logBuffer{}, cmd: cmd}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			g.log.add(sc.Text())
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		close(found)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	select {
	case base, ok := <-found:
		require.True(t, ok, "the gateway exited before listening:\n%s", g.log)
		g.base, g.url = base, base+"/mcp"
	case <-time.After(30 * time.Second):
		t.Fatalf("the gateway did not listen within 30s:\n%s", g.log)
	}
	return g
}

// writeGatewayConfig writes a config with servers and the toolsearch
// options opts (nil: none).
func writeGatewayConfig(t *testing.T, servers map[string]any, opts map[string]any) string {
	t.Helper()
	doc := map[string]any{"mcpServers": servers}
	if opts != nil {
		doc["toolsearch"] = opts
	}
	b, err := json.Marshal(doc)
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "mcp.json")
	require.NoError(t, os.WriteFile(p, b, 0o600))
	return p
}

// everythingServer is the config entry of the npm reference server
// server-everything over stdio.
func everythingServer(t *testing.T) map[string]any {
	return map[string]any{"command": "node", "args": []string{npmtest.Server(t, "server-everything"), "stdio"}}
}

// goClient is a go-sdk client session with the list_changed
// notifications it received.
type goClient struct {
	cs      *mcp.ClientSession
	changed chan struct{}
}

// connectGo connects a go-sdk client over transport.
func connectGo(t *testing.T, transport mcp.Transport) *goClient {
	t.Helper()
	c := &goClient{changed: make(chan struct{}, 64)}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-go-sdk", Version: "0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { c.changed <- struct{}{} },
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, transport, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	c.cs = cs
	return c
}

// toolNames lists the session's tools by name.
func (c *goClient) toolNames(t *testing.T) []string {
	t.Helper()
	var names []string
	for tool, err := range c.cs.Tools(context.Background(), nil) {
		require.NoError(t, err)
		names = append(names, tool.Name)
	}
	return names
}

// call calls a tool and returns its result.
func (c *goClient) call(t *testing.T, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err, "calling %s", name)
	return res
}

// waitChanged waits for a notifications/tools/list_changed.
func (c *goClient) waitChanged(t *testing.T) {
	t.Helper()
	select {
	case <-c.changed:
	case <-time.After(20 * time.Second):
		t.Fatal("no notifications/tools/list_changed within 20s")
	}
}

// text is a result's content as text blocks joined (other blocks as JSON).
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
			continue
		}
		js, _ := json.Marshal(c)
		b.Write(js)
	}
	return b.String()
}

// asJSON encodes v for comparisons. A result loses the serverInfo the
// go-sdk adds to every result of the 2026-07-28 protocol: that names the
// server that answered, gateway or upstream, and is not part of the tool's
// result.
func asJSON(t *testing.T, v any) string {
	t.Helper()
	if r, ok := v.(*mcp.CallToolResult); ok && r.Meta != nil {
		c := *r
		c.Meta = maps.Clone(r.Meta)
		delete(c.Meta, "io.modelcontextprotocol/serverInfo")
		if len(c.Meta) == 0 {
			c.Meta = nil
		}
		v = &c
	}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// direct connects a plain go-sdk client to server-everything over stdio,
// with no gateway, for the results to compare with.
func direct(t *testing.T) *goClient {
	t.Helper()
	cmd := exec.Command("node", npmtest.Server(t, "server-everything"), "stdio")
	return connectGo(t, &mcp.CommandTransport{Command: cmd, TerminateDuration: 500 * time.Millisecond})
}

// stdioGateway launches the gateway over stdio with args, for a go-sdk
// client.
func stdioGateway(t *testing.T, args ...string) *mcp.CommandTransport {
	cmd := gatewayCmd(t, serveArgs(args...)...)
	cmd.Stderr = io.Discard
	return &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
}

// searchArgs are a ToolSearch call's arguments.
func searchArgs(q string) map[string]any { return map[string]any{"query": q} }

// mustContain fails unless s contains every want.
func mustContain(t *testing.T, s string, want ...string) {
	t.Helper()
	for _, w := range want {
		require.Contains(t, s, w, fmt.Sprintf("in %.2000s", s))
	}
}
