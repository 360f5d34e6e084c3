package tsmcpsdk_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

// testServers is a hub and the Sessions that attach SDK sessions to it,
// with the one-call helpers the tests use.
type testServers struct {
	*mcphub.Hub
	sessions tsmcpsdk.Sessions
}

func newServers(reg *toolsearch.Registry, opts *mcphub.Options) *testServers {
	h := mcphub.New(reg, opts)
	return &testServers{Hub: h}
}

func (s *testServers) ClientOptions(opts *mcp.ClientOptions) *mcp.ClientOptions {
	return s.sessions.ClientOptions(opts)
}

// Connect attaches server over transport and returns its session.
func (s *testServers) Connect(ctx context.Context, server string, client *mcp.Client, transport mcp.Transport, opts *mcp.ClientSessionOptions) (*mcp.ClientSession, error) {
	err := s.Hub.Attach(ctx, s.sessions.Dial(server, client, transport, opts))
	return s.Session(server), err
}

// AttachSession attaches cs as server.
func (s *testServers) AttachSession(ctx context.Context, server string, cs *mcp.ClientSession) error {
	return s.Hub.Attach(ctx, s.sessions.Session(server, cs))
}

func (s *testServers) Session(server string) *mcp.ClientSession {
	return tsmcpsdk.ClientSession(s.Hub, server)
}

// events records what the hub reports through its Options and lets a test
// wait until a condition holds. (The mcpgo module's tests have the same
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
