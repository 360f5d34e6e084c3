package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/gateway/internal/gateway"
)

// The gateway's benchmarks, run side by side (see BENCHMARKS.md):
//
//	cd gateway && go test -run '^$' -bench . -benchtime 2000x ./cmd/toolsearch-mcp
//
// The upstream is the fake server (the test binary as a go-sdk stdio MCP
// server); the gateway runs in process, its client talking to it over
// in-process pipes (stdio) or over loopback HTTP.

// benchGateway starts an in-process gateway over servers (no pinning,
// logs discarded) and waits until every server is connected.
func benchGateway(b *testing.B, servers map[string]any, set gateway.Settings) *gateway.Gateway {
	b.Helper()
	cfg := writeBenchConfig(b, servers)
	data, err := os.ReadFile(cfg)
	if err != nil {
		b.Fatal(err)
	}
	c, err := gateway.ParseConfig(data)
	if err != nil {
		b.Fatal(err)
	}
	set.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	g, err := gateway.New(c, nil, set)
	if err != nil {
		b.Fatal(err)
	}
	g.Start()
	b.Cleanup(g.Close)
	deadline := time.Now().Add(60 * time.Second)
	for g.Status()["connected"] < len(servers) {
		if time.Now().After(deadline) {
			b.Fatalf("servers not connected: %v", g.Status())
		}
		time.Sleep(5 * time.Millisecond)
	}
	return g
}

func writeBenchConfig(b *testing.B, servers map[string]any) string {
	b.Helper()
	dir := b.TempDir()
	p := dir + "/mcp.json"
	var sb strings.Builder
	sb.WriteString(`{"mcpServers":{`)
	first := true
	for name, entry := range servers {
		if !first {
			sb.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&sb, "%q:%s", name, mustJSON(b, entry))
	}
	sb.WriteString("}}")
	if err := os.WriteFile(p, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	return p
}

func mustJSON(b *testing.B, v any) string {
	b.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return string(out)
}

// pipeClient connects a go-sdk client to g over in-process pipes, as a
// stdio client would be.
func pipeClient(b *testing.B, g *gateway.Gateway) *mcp.ClientSession {
	b.Helper()
	cr, gw := io.Pipe()
	gr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = g.ServeStdio(ctx, gr, gw)
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cs.Close()
		cancel()
		cw.Close()
		<-done
	})
	return cs
}

// fakeStdio is the fake server's config entry for this test binary.
func fakeStdio(b *testing.B, env map[string]string) map[string]any {
	b.Helper()
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	return fakeEntry(exe, env)
}

// timeCalls runs call b.N times and reports the median besides ns/op. The
// benchmark process runs with the garbage collector's target that serve
// sets (gateway.TuneGC), the direct benchmarks too, so that the client's
// side is the same in both and the difference is the gateway's; the
// upstream, a process of its own, keeps Go's default.
func timeCalls(b *testing.B, call func() error) {
	b.Helper()
	gateway.TuneGC()
	b.ReportAllocs()
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		if err := call(); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	if len(took) > 0 {
		b.ReportMetric(float64(took[len(took)/2].Nanoseconds())/1e3, "median-µs")
	}
}

// greet is the call both benchmarks make.
var greetParams = &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "bench"}}

// BenchmarkCallDirect: a go-sdk client calls the stdio upstream itself.
func BenchmarkCallDirect(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), fakeEnv+"=fake")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	timeCalls(b, func() error {
		_, err := cs.CallTool(context.Background(), greetParams)
		return err
	})
}

// BenchmarkCallThroughGateway: the same call through the gateway (call
// guard, forwarding, result passed back); the difference with
// BenchmarkCallDirect is what the gateway adds.
func BenchmarkCallThroughGateway(b *testing.B) {
	g := benchGateway(b, map[string]any{"fake": fakeStdio(b, nil)}, gateway.Settings{RateLimit: 1e9, RateBurst: 1 << 30})
	cs := pipeClient(b, g)
	params := &mcp.CallToolParams{Name: "mcp__fake__greet", Arguments: map[string]any{"name": "bench"}}
	timeCalls(b, func() error {
		res, err := cs.CallTool(context.Background(), params)
		if err == nil && res.IsError {
			err = fmt.Errorf("%v", res.Content)
		}
		return err
	})
}

// BenchmarkToolSearchThroughGateway: a keyword ToolSearch call, answered by
// the gateway (nothing goes upstream).
func BenchmarkToolSearchThroughGateway(b *testing.B) {
	g := benchGateway(b, map[string]any{"fake": fakeStdio(b, nil)}, gateway.Settings{RateLimit: 1e9, RateBurst: 1 << 30})
	cs := pipeClient(b, g)
	params := &mcp.CallToolParams{Name: "ToolSearch", Arguments: map[string]any{"query": "greet someone"}}
	timeCalls(b, func() error {
		res, err := cs.CallTool(context.Background(), params)
		if err == nil && res.IsError {
			err = fmt.Errorf("%v", res.Content)
		}
		return err
	})
}

// BenchmarkIdleSessionMemory opens idle HTTP sessions (initialize and
// initialized, by plain POSTs, so that no client state is in the heap) and
// reports the heap they hold, per session.
func BenchmarkIdleSessionMemory(b *testing.B) {
	g := benchGateway(b, map[string]any{"fake": fakeStdio(b, nil)}, gateway.Settings{RateLimit: 1e9, RateBurst: 1 << 30, MaxSessions: 1 << 20})
	srv := httptest.NewServer(g.Handler(gateway.HTTPSettings{}))
	defer srv.Close()
	open := func() {
		id := rawPost(b, srv.URL+"/mcp", "", initialize)
		rawPost(b, srv.URL+"/mcp", id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	open() // warm up: first-use allocations are not a session's
	const sessions = 500
	var before, after runtime.MemStats
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range sessions {
			open()
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
	}
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/sessions, "heap-bytes/session")
}

// rawPost sends one JSON-RPC message and returns the session id.
func rawPost(b *testing.B, url, session, body string) string {
	b.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		b.Fatalf("POST %s: %s", body, resp.Status)
	}
	return resp.Header.Get("Mcp-Session-Id")
}

// BenchmarkThousandHTTPSessions: 1,000 clients at once, each opening a
// Streamable HTTP session, searching, calling the found tool on the stdio
// upstream and closing; any error fails the benchmark.
func BenchmarkThousandHTTPSessions(b *testing.B) {
	g := benchGateway(b, map[string]any{"fake": fakeStdio(b, nil)}, gateway.Settings{})
	srv := httptest.NewServer(g.Handler(gateway.HTTPSettings{}))
	defer srv.Close()
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1000, MaxConnsPerHost: 0}}
	const clients = 1000
	for b.Loop() {
		var wg sync.WaitGroup
		errs := make(chan error, clients)
		for i := range clients {
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
				defer cancel()
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "0"}, nil).
					Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true}, nil)
				if err != nil {
					errs <- fmt.Errorf("client %d: connect: %w", i, err)
					return
				}
				defer cs.Close()
				found, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ToolSearch", Arguments: map[string]any{"query": "select:mcp__fake__greet"}})
				if err != nil || found.IsError {
					errs <- fmt.Errorf("client %d: ToolSearch: %v %v", i, err, found)
					return
				}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mcp__fake__greet", Arguments: map[string]any{"name": fmt.Sprint(i)}})
				if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != fmt.Sprint("hello ", i) {
					errs <- fmt.Errorf("client %d: call: %v %v", i, err, res)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
	}
	b.ReportMetric(clients, "sessions/op")
}

// BenchmarkStartupTenServers: ten stdio servers, one of which takes 500ms
// to start and the others 50ms; the gateway starts them at once, so the
// start-up takes about the slowest one, not the sum (950ms).
func BenchmarkStartupTenServers(b *testing.B) {
	servers := map[string]any{}
	for i := range 10 {
		delay := "50ms"
		if i == 0 {
			delay = "500ms"
		}
		servers[fmt.Sprintf("s%d", i)] = fakeStdio(b, map[string]string{"FAKE_DELAY": delay})
	}
	for b.Loop() {
		g := benchGateway(b, servers, gateway.Settings{})
		g.Close()
	}
}
