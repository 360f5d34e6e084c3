package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawClient talks JSON-RPC lines to ServeStdio over pipes.
type rawClient struct {
	w     *io.PipeWriter
	lines chan string
	done  chan error // ServeStdio's result
}

func serveRaw(t *testing.T, g *Gateway) *rawClient {
	t.Helper()
	cr, gw := io.Pipe()
	gr, cw := io.Pipe()
	c := &rawClient{w: cw, lines: make(chan string, 64), done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		c.done <- g.ServeStdio(ctx, gr, gw)
		_ = gw.Close()
	}()
	go func() {
		sc := bufio.NewScanner(cr)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() { cancel(); _ = cw.Close(); _ = cr.Close() })
	return c
}

func (c *rawClient) send(t *testing.T, msg string) {
	t.Helper()
	_, err := io.WriteString(c.w, msg+"\n")
	require.NoError(t, err)
}

// next is the next message the gateway wrote, decoded.
func (c *rawClient) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case l, ok := <-c.lines:
		require.True(t, ok, "the gateway closed its output")
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		return m
	case <-time.After(30 * time.Second):
		t.Fatal("no message from the gateway within 30s")
		return nil
	}
}

// served waits for ServeStdio to return.
func (c *rawClient) served(t *testing.T) error {
	t.Helper()
	select {
	case err := <-c.done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("ServeStdio did not return within 30s")
		return nil
	}
}

const rawInit = `{"jsonrpc":"2.0","id":%s,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

// modernMeta is the _meta of a request of the 2026-07-28 protocol.
const modernMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"}}`

func initMsg(id string) string { return strings.Replace(rawInit, "%s", id, 1) }

// During the startup (here it lasts until the test calls Start) a stdio
// client's pings are answered and its server/discover is refused with the
// error that sends it to initialize; initialize waits for the startup, then
// its answer names the deferred tools.
func TestServeStdioAnswersDuringStartup(t *testing.T) {
	g := newTestGateway(t, `{"mcpServers":{}}`, catalog...)
	c := serveRaw(t, g)

	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	assert.Equal(t, map[string]any{"jsonrpc": "2.0", "id": 1.0, "result": map[string]any{}}, c.next(t))

	c.send(t, `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{"_meta":`+modernMeta+`}}`)
	m := c.next(t)
	assert.Equal(t, "d", m["id"])
	e, _ := m["error"].(map[string]any)
	require.NotNil(t, e, "server/discover is refused: %v", m)
	assert.Equal(t, float64(mcp.CodeUnsupportedProtocolVersion), e["code"])
	assert.NotContains(t, e["data"].(map[string]any)["supported"], "2026-07-28", "the versions offered are the handshake's")
	assert.Contains(t, e["data"].(map[string]any)["supported"], "2025-11-25")

	c.send(t, initMsg("2"))
	c.send(t, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	assert.Equal(t, 3.0, c.next(t)["id"], "a ping after initialize is answered while initialize waits")

	g.Start() // no servers: the startup is over at once
	m = c.next(t)
	require.Equal(t, 2.0, m["id"], "initialize answered after the startup: %v", m)
	res := m["result"].(map[string]any)
	assert.Equal(t, "2025-11-25", res["protocolVersion"])
	assert.Contains(t, res["instructions"], "mcp__fs__read_file")

	c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(t, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`)
	m = c.next(t)
	require.Equal(t, 4.0, m["id"], "%v", m)
	assert.Contains(t, m["result"].(map[string]any)["tools"].([]any)[0].(map[string]any)["description"], "mcp__fs__read_file")

	// After the startup too, server/discover is refused and the session
	// stays on the handshake.
	c.send(t, `{"jsonrpc":"2.0","id":"d2","method":"server/discover","params":{"_meta":`+modernMeta+`}}`)
	m = c.next(t)
	require.Equal(t, "d2", m["id"], "%v", m)
	e, _ = m["error"].(map[string]any)
	require.NotNil(t, e, "server/discover is refused: %v", m)
	assert.Equal(t, float64(mcp.CodeUnsupportedProtocolVersion), e["code"])
	assert.NotContains(t, e["data"].(map[string]any)["supported"], "2026-07-28")

	// A second initialize is refused, and the session goes on.
	c.send(t, initMsg("5"))
	m = c.next(t)
	require.Equal(t, 5.0, m["id"], "%v", m)
	assert.NotNil(t, m["error"], "a second initialize is refused: %v", m)
	c.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	assert.Equal(t, 6.0, c.next(t)["id"])

	require.NoError(t, c.w.Close())
	assert.NoError(t, c.served(t), "the client closed its end: the session ends cleanly")
}

// A client that goes away during the startup ends the session at once,
// with or without a request waiting: no one would read the answer.
func TestServeStdioClientGoneDuringStartup(t *testing.T) {
	g := newTestGateway(t, `{"mcpServers":{}}`, catalog...)
	c := serveRaw(t, g)
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	assert.Equal(t, 1.0, c.next(t)["id"])
	require.NoError(t, c.w.Close())
	assert.NoError(t, c.served(t), "the session ends although the startup is not over")

	c = serveRaw(t, g)
	c.send(t, initMsg("1"))
	c.send(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	assert.Equal(t, 2.0, c.next(t)["id"], "initialize waits")
	require.NoError(t, c.w.Close())
	assert.NoError(t, c.served(t), "the session ends although initialize waits for the startup")
}

// Over HTTP too, a new session's server/discover probe is answered during
// the startup (with the error that sends the client to initialize).
func TestHTTPDiscoverDuringStartup(t *testing.T) {
	g := newTestGateway(t, `{"mcpServers":{}}`, catalog...)
	srv := httptest.NewServer(g.Handler(HTTPSettings{}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":`+modernMeta+`}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "server/discover")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "answered although the startup is not over")
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Contains(t, string(body), `"code":`+strconv.Itoa(mcp.CodeUnsupportedProtocolVersion), "%d %s", resp.StatusCode, body)
	assert.NotContains(t, string(body), `"instructions"`)
}

// Past heldMax bytes held during the startup the gateway reads no more
// until the startup is over; then every message is served, in order.
func TestServeStdioHoldsBounded(t *testing.T) {
	g := newTestGateway(t, `{"mcpServers":{}}`, catalog...)
	lines := make(chan []byte)
	big := func(id int) []byte {
		return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{"cursor":"%s"}}`+"\n", id, strings.Repeat("x", heldMax/2)))
	}
	taken := make(chan bool, 1)
	sent := make(chan struct{})
	go func() {
		lines <- big(1)
		lines <- big(2) // received: heldMax reached
		close(sent)
		select {
		case lines <- big(3):
			taken <- true
		case <-g.startup:
			taken <- false
		}
	}()
	type result struct {
		held  [][]byte
		serve bool
	}
	done := make(chan result, 1)
	go func() {
		held, serve, err := g.early(context.Background(), lines, io.Discard)
		assert.NoError(t, err)
		done <- result{held, serve}
	}()
	<-sent // the gateway read big(2): it reads no more
	g.Start()
	r := <-done
	assert.True(t, r.serve)
	require.Len(t, r.held, 2, "two messages held, in order")
	assert.Equal(t, big(1), r.held[0])
	assert.False(t, <-taken, "the third message was not read during the startup")
}
