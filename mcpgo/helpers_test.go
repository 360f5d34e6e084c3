package tsmcpgo_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/toolsearch/toolsearch"
	tsmcpgo "github.com/toolsearch/toolsearch/mcpgo"
	"github.com/toolsearch/toolsearch/mcphub"
)

// testServers is a hub with the one-call helpers the tests use.
type testServers struct{ *mcphub.Hub }

func newServers(reg *toolsearch.Registry, opts *mcphub.Options) *testServers {
	h := mcphub.New(reg, opts)
	return &testServers{h}
}

// Attach attaches c as server.
func (s *testServers) Attach(ctx context.Context, server string, c *client.Client) error {
	return s.Hub.Attach(ctx, tsmcpgo.Client(server, c, nil))
}

func (s *testServers) Client(server string) *client.Client { return tsmcpgo.ClientOf(s.Hub, server) }

// events records what the hub reports through its Options and lets a test
// wait until a condition holds. (The mcpsdk module's tests have the same
// helper: test code is not shared between separately versioned modules.)
type events struct {
	mu     sync.Mutex
	events []string
	errs   []string
	signal chan struct{} // capacity 1: something was recorded
}

func newEvents() *events { return &events{signal: make(chan struct{}, 1)} }

func (e *events) options() *mcphub.Options {
	return &mcphub.Options{
		OnListed: func(server string, n int) { e.add(&e.events, fmt.Sprintf("%s:listed %d", server, n)) },
		OnStatus: func(server string, st toolsearch.ServerStatus) { e.add(&e.events, server+":"+st.String()) },
		OnError:  func(server string, err error) { e.add(&e.errs, server+": "+err.Error()) },
	}
}

func (e *events) add(to *[]string, s string) {
	e.mu.Lock()
	*to = append(*to, s)
	e.mu.Unlock()
	select {
	case e.signal <- struct{}{}:
	default: // a waiter has not looked yet; it will see this too
	}
}

// Events returns the events recorded so far, in order.
func (e *events) Events() []string { e.mu.Lock(); defer e.mu.Unlock(); return slices.Clone(e.events) }

// Errors returns the errors recorded so far, in order.
func (e *events) Errors() []string { e.mu.Lock(); defer e.mu.Unlock(); return slices.Clone(e.errs) }

// WaitFor waits until cond holds, checking it after every record, and
// fails t after 10 seconds.
func (e *events) WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for !cond() {
		select {
		case <-e.signal:
		case <-timeout:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// npmServer returns the absolute path of the entry script of npm MCP
// server pkg (for example "server-everything"), installed by
// `npm ci --prefix mcpsdk/testdata/npm` (or in the directory named by
// $TOOLSEARCH_MCP_NPM). It skips the test, saying why, when node or the
// package is missing, except under CI=true, where that is a failure: CI must
// run these tests. (A copy of the mcpsdk module's internal/npmtest, on
// purpose: a test helper is no API to share between separately versioned
// modules.)
func npmServer(t testing.TB, pkg string) string {
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
		dir = filepath.Join("..", "mcpsdk", "testdata", "npm") // tests run in the module's directory
	}
	script := filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		skip("@modelcontextprotocol/" + pkg + " is not installed at " + script + ": run `npm ci --prefix mcpsdk/testdata/npm`")
	}
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatalf("npmServer: %v", err)
	}
	return abs
}

// legacyProtocol is the client option for the protocols before
// 2026-07-28, which the tests speak on purpose: they have the initialize
// handshake and the ping RPC that the adapter also supports.
func legacyProtocol() client.ClientOption {
	//lint:ignore SA1019 the legacy protocol is what these tests exercise
	return client.WithLegacyProtocolOnly()
}
