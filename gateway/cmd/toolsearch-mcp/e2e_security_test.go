package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bearer adds a bearer token to every request.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// withToken is a Streamable HTTP transport sending token.
func withToken(url, token string) *mcp.StreamableClientTransport {
	return &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer(token)}, MaxRetries: -1}
}

const (
	tokenA = "team-a-secret-0123456789"
	tokenB = "team-b-secret-9876543210"
)

// tokensGateway serves server-everything with two tokens: a, allowed echo
// only; b (from the environment), allowed everything.
func tokensGateway(t *testing.T) *httpGateway {
	t.Helper()
	t.Setenv("E2E_TOKEN_B", tokenB)
	toks := filepath.Join(t.TempDir(), "tokens.json")
	require.NoError(t, os.WriteFile(toks, []byte(`{"tokens": [
		{"name": "team-a", "token": "`+tokenA+`", "allow": ["mcp__everything__echo"]},
		{"name": "team-b", "tokenEnv": "E2E_TOKEN_B", "allow": ["*"]}]}`), 0o600))
	cfg := writeGatewayConfig(t, map[string]any{"everything": everythingServer(t)}, nil)
	return startHTTPGateway(t, "--config", cfg, "--no-pinning", "--tokens", toks)
}

// A token's scope bounds what its sessions see: an out-of-scope tool is
// neither named, found nor callable; another token sees it.
func TestE2ETokenScopes(t *testing.T) {
	g := tokensGateway(t)
	a := connectGo(t, withToken(g.url, tokenA))
	instr := a.cs.InitializeResult().Instructions
	mustContain(t, instr, "mcp__everything__echo")
	assert.NotContains(t, instr, "get-sum", "the instructions name only the token's tools")
	r := a.search(t, "select:mcp__everything__get-sum")
	assert.Empty(t, r.Matches)
	assert.Equal(t, []string{"mcp__everything__get-sum"}, r.NotFound)
	assert.Empty(t, a.search(t, "sum numbers").Matches, "keywords do not find it either")
	res := a.call(t, "mcp__everything__get-sum", map[string]any{"a": 1, "b": 2})
	assert.True(t, res.IsError, "an out-of-scope tool is not callable")
	mustContain(t, text(res), "mcp__everything__get-sum")
	assert.NotContains(t, text(res), "3", "it did not run")
	assert.Equal(t, "Echo: in scope", text(a.call(t, "mcp__everything__echo", map[string]any{"message": "in scope"})))

	b := connectGo(t, withToken(g.url, tokenB))
	assert.Len(t, b.search(t, "select:mcp__everything__get-sum").Matches, 1)
	assert.Equal(t, "The sum of 1 and 2 is 3.", text(b.call(t, "mcp__everything__get-sum", map[string]any{"a": 1, "b": 2})))

	// A session answers only the token that opened it.
	req, err := http.NewRequest(http.MethodPost, g.url, strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", a.cs.ID())
	req.Header.Set("Authorization", "Bearer "+tokenB)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "team-b cannot use team-a's session")

	code, body := post(t, g.url, initialize, nil)
	assert.Equal(t, http.StatusUnauthorized, code, body)
	code, _ = post(t, g.url, initialize, map[string]string{"Authorization": "Bearer not-a-known-token-at-all"})
	assert.Equal(t, http.StatusUnauthorized, code)
	resp, err = http.Get(g.base + "/metrics")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "the metrics name the servers: they need a token too")
}

// post sends one raw request to the gateway and returns the status and body.
func post(t *testing.T, url, body string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

// Bad input from clients gets a clear error and leaves other sessions
// working: no token or a wrong one, a browser origin that is not allowed,
// malformed JSON-RPC, a body over the limit, an unknown method, more
// sessions than allowed, requests over the rate limit.
func TestE2EHostileClients(t *testing.T) {
	t.Parallel()
	cfg := writeGatewayConfig(t, map[string]any{"everything": everythingServer(t)}, nil)
	g := startHTTPGateway(t, "--config", cfg, "--no-pinning", "--max-sessions", "3", "--rate", "5", "--burst", "20")
	good := connectGo(t, &mcp.StreamableClientTransport{Endpoint: g.url})
	works := func() {
		t.Helper()
		assert.Equal(t, "Echo: still here", text(good.call(t, "mcp__everything__echo", map[string]any{"message": "still here"})), "the other session still works")
	}

	code, body := post(t, g.url, initialize, map[string]string{"Origin": "http://evil.example"})
	assert.Equal(t, http.StatusForbidden, code)
	mustContain(t, body, `Origin "http://evil.example" is not allowed`)
	code, _ = post(t, g.url, initialize, map[string]string{"Origin": "http://localhost:6274"})
	assert.Equal(t, http.StatusOK, code, "a loopback origin (a local inspector) is accepted")

	code, body = post(t, g.url, `{"jsonrpc":"2.0","id":1,"method":`, nil)
	assert.Equal(t, http.StatusBadRequest, code, body)
	assert.NotEmpty(t, body)

	huge := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"` + strings.Repeat("a", 2<<20) + `"}}`
	code, body = post(t, g.url, huge, nil)
	assert.Equal(t, http.StatusRequestEntityTooLarge, code)
	mustContain(t, body, "over this gateway's limit of 1048576 bytes")
	works()

	// An unknown method, in a session of its own.
	s := connectGo(t, &mcp.StreamableClientTransport{Endpoint: g.url})
	code, body = post(t, g.url, `{"jsonrpc":"2.0","id":7,"method":"tools/explode"}`, map[string]string{
		"Mcp-Session-Id": s.cs.ID(), "Mcp-Protocol-Version": s.cs.InitializeResult().ProtocolVersion})
	assert.Equal(t, http.StatusBadRequest, code, body)
	mustContain(t, body, `"tools/explode" unsupported`)

	// Three sessions are open (good, s, and the localhost one): a fourth is
	// refused with a clear error.
	_, err := mcp.NewClient(&mcp.Implementation{Name: "one-too-many", Version: "0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: g.url, MaxRetries: -1}, nil)
	require.Error(t, err)
	mustContain(t, err.Error(), "too many sessions: this gateway serves at most 3 at once")
	works()

	// A session over its rate is refused; the others are not. Requests
	// sent one after another exceed a burst of 20 at 5 a second unless each
	// takes 200 ms, as one may on a loaded machine: they are sent until one
	// is refused (40 suffice on a quiet one), at most 200.
	refused := false
	for range 200 {
		if _, err := s.cs.ListTools(context.Background(), nil); err != nil {
			mustContain(t, err.Error(), "rate limit: this session may send at most 5 requests per second")
			refused = true
			break
		}
	}
	assert.True(t, refused, "200 requests in a row exceed a burst of 20 at 5 a second")
	works()
}

// Bad behaviour from an upstream (a call that hangs, a flood of progress
// notifications, a huge result) gets a clear error for that call and
// leaves the session and the others working. The hang is met by a gateway
// with a call timeout of 5 s, the flood and the huge result by one with
// the default (60 s): on a loaded machine (and with -race) they took over
// 5 s, which a test must not count as a hang.
func TestE2EHostileUpstream(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	require.NoError(t, err)
	cancelFile := filepath.Join(t.TempDir(), "cancelled")
	cfg := writeGatewayConfig(t, map[string]any{"fake": fakeEntry(exe, map[string]string{"FAKE_HUGE": "1500000", "FAKE_CANCEL_FILE": cancelFile})}, nil)
	var progress atomic.Int32
	// start starts a gateway with args and connects two clients to it, the
	// first counting progress notifications.
	start := func(args ...string) (g *httpGateway, cs *mcp.ClientSession, c, other *goClient) {
		g = startHTTPGateway(t, append([]string{"--config", cfg, "--no-pinning", "--max-result-bytes", "1048576"}, args...)...)
		client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0"}, &mcp.ClientOptions{
			ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { progress.Add(1) },
		})
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: g.url}, nil)
		require.NoError(t, err)
		t.Cleanup(func() { cs.Close() })
		return g, cs, &goClient{cs: cs}, connectGo(t, &mcp.StreamableClientTransport{Endpoint: g.url})
	}
	greet := func(who *goClient) {
		t.Helper()
		assert.Equal(t, "hello you", text(who.call(t, "mcp__fake__greet", map[string]any{"name": "you"})))
	}
	// healthy checks that g's upstream is still connected and that its
	// metrics say want, among others.
	healthy := func(g *httpGateway, want ...string) {
		t.Helper()
		var h struct{ Servers map[string]int }
		resp, err := http.Get(g.base + "/healthz")
		require.NoError(t, err)
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&h))
		resp.Body.Close()
		assert.Equal(t, 1, h.Servers["connected"], "the upstream is still connected")
		resp, err = http.Get(g.base + "/metrics")
		require.NoError(t, err)
		metrics, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		mustContain(t, string(metrics), append(want,
			`toolsearch_gateway_calls_total{outcome="ok",server="fake"} `,
			`toolsearch_gateway_sessions 2`,
			`toolsearch_gateway_upstream_status{server="fake",status="connected"} 1`,
			`toolsearch_gateway_call_seconds_count{server="fake"}`)...)
	}

	g, cs, c, other := start("--call-timeout", "5s")
	began := time.Now()
	res := c.call(t, "mcp__fake__hang", map[string]any{})
	assert.True(t, res.IsError)
	assert.Equal(t, "mcp__fake__hang did not answer within 5s (this gateway's call timeout); the call was cancelled.", text(res))
	assert.Less(t, time.Since(began), 30*time.Second)
	greet(c)
	greet(other)
	require.Eventually(t, func() bool { b, _ := os.ReadFile(cancelFile); return string(b) == "cancelled" },
		10*time.Second, 20*time.Millisecond, "the timed-out call was cancelled upstream")

	// A client that gives up cancels the upstream call too.
	require.NoError(t, os.Remove(cancelFile))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "mcp__fake__hang", Arguments: map[string]any{}})
	cancel()
	require.Error(t, err)
	require.Eventually(t, func() bool { b, _ := os.ReadFile(cancelFile); return string(b) == "cancelled" },
		10*time.Second, 20*time.Millisecond, "the client's cancellation reached the upstream")
	greet(c)
	healthy(g, `toolsearch_gateway_calls_total{outcome="timeout",server="fake"} 1`)

	g, cs, c, other = start() // the default call timeout
	params := &mcp.CallToolParams{Name: "mcp__fake__flood", Arguments: map[string]any{}}
	params.SetProgressToken("p1")
	flood, err := cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	assert.Equal(t, "flooded", text(flood))
	// The client handles notifications on a goroutine of its own: the
	// result can be read before the progress that came ahead of it.
	require.Eventually(t, func() bool { return progress.Load() > 0 }, 10*time.Second, 10*time.Millisecond,
		"progress notifications are passed back")
	assert.Less(t, progress.Load(), int32(5000), "a flood of 5,000 progress notifications is thinned")
	greet(other)

	res = c.call(t, "mcp__fake__huge", map[string]any{})
	assert.True(t, res.IsError)
	mustContain(t, text(res), "The result of mcp__fake__huge was about 1500000 bytes, over this gateway's limit of 1048576 bytes; it was not passed on.")
	greet(c)
	greet(other)
	healthy(g, `toolsearch_gateway_calls_total{outcome="too_large",server="fake"} 1`)
}
