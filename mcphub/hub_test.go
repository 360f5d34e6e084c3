package mcphub_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/eventlog"
	"github.com/toolsearch/toolsearch/mcphub"
)

// fake is a Conn whose answers the test sets.
type fake struct {
	name   string
	link   atomic.Pointer[mcphub.Link]
	list   func(ctx context.Context, cursor string) (mcphub.Page, error)
	call   func(ctx context.Context, name string, args json.RawMessage) (*mcphub.Result, error)
	ping   func(ctx context.Context) error
	open   func(ctx context.Context) error // before Open returns
	closes atomic.Int32
	closed chan struct{} // closed by the first Close
}

// tools lists one page of tools named names, for server server.
func tools(server string, names ...string) func(context.Context, string) (mcphub.Page, error) {
	return func(context.Context, string) (mcphub.Page, error) {
		var p mcphub.Page
		for _, n := range names {
			p.Tools = append(p.Tools, toolsearch.NewMCPTool(server, n, "Tool "+n+".", nil, nil))
		}
		return p, nil
	}
}

func newFake(server string, names ...string) *fake {
	return &fake{name: server, list: tools(server, names...), closed: make(chan struct{})}
}

func (f *fake) ListTools(ctx context.Context, cursor string) (mcphub.Page, error) {
	return f.list(ctx, cursor)
}

func (f *fake) CallTool(ctx context.Context, name string, args json.RawMessage) (*mcphub.Result, error) {
	if f.call == nil {
		return &mcphub.Result{Content: []mcphub.Content{mcphub.TextContent(f.name + ":" + name + " " + string(args))}}, nil
	}
	return f.call(ctx, name, args)
}

func (f *fake) Ping(ctx context.Context) error {
	if f.ping == nil {
		return nil
	}
	return f.ping(ctx)
}

func (f *fake) Close() error {
	if f.closes.Add(1) == 1 {
		close(f.closed)
	}
	return nil
}

func (f *fake) server() mcphub.Server {
	return mcphub.Server{Name: f.name, Open: func(ctx context.Context, l *mcphub.Link) (mcphub.Conn, error) {
		f.link.Store(l)
		if f.open != nil {
			if err := f.open(ctx); err != nil {
				return nil, err
			}
		}
		return f, nil
	}}
}

type events struct{ *eventlog.Log }

func newEvents() *events { return &events{eventlog.New()} }

func (e *events) options() *mcphub.Options {
	return &mcphub.Options{
		OnError:  func(server string, err error) { e.Error(server + ": " + err.Error()) },
		OnStatus: func(server string, st toolsearch.ServerStatus) { e.Event(server + ":" + st.String()) },
		OnListed: func(server string, n int) { e.Event(fmt.Sprintf("%s:listed %d", server, n)) },
	}
}

func newHub(t *testing.T, opts *mcphub.Options) *mcphub.Hub {
	t.Helper()
	return mcphub.New(nil, opts)
}

// offered returns the names of the tools the registry offers (those of
// connected servers), sorted.
func offered(reg *toolsearch.Registry) []string {
	var out []string
	for t := range reg.Tools() {
		out = append(out, t.Name)
	}
	return out
}

// within runs f and fails t if it has not returned after 10 seconds: a
// guard against a call that blocks, not a measurement.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not return", what)
	}
}

func TestNewNilMeansDefaults(t *testing.T) {
	h := mcphub.New(nil, nil)
	assert.NotNil(t, h.Registry(), "a nil registry is a new one")
}

func TestNegativeOptionsWork(t *testing.T) {
	// Negative limits are the defaults (internal test: which ones), so a
	// hub with every one negative lists and pings a server as usual.
	ev := newEvents()
	opts := ev.options()
	opts.ListTimeout, opts.MaxListPages, opts.MaxListTools, opts.PingInterval = -time.Second, -1, -1, -time.Second
	h := mcphub.New(nil, opts)
	require.NoError(t, h.Attach(context.Background(), newFake("a", "x", "y").server()))
	defer h.Close("a")
	assert.Equal(t, []string{"a:pending", "a:listed 2", "a:connected"}, ev.Events())
	assert.Equal(t, []string{"mcp__a__x", "mcp__a__y"}, offered(h.Registry()))
}

func TestNewCopiesTheOptions(t *testing.T) {
	ev := newEvents()
	opts := ev.options()
	h := newHub(t, opts)
	opts.OnStatus = nil // changing the caller's copy changes nothing
	require.NoError(t, h.Attach(context.Background(), newFake("a", "x").server()))
	assert.Equal(t, []string{"a:pending", "a:listed 1", "a:connected"}, ev.Events())
}

func TestAttachListsEveryPage(t *testing.T) {
	f := newFake("pages")
	f.list = func(_ context.Context, cursor string) (mcphub.Page, error) {
		switch cursor {
		case "":
			return mcphub.Page{Tools: []toolsearch.Tool{toolsearch.NewMCPTool("pages", "one", "First.", nil, nil)}, Next: "2"}, nil
		case "2":
			return mcphub.Page{Tools: []toolsearch.Tool{toolsearch.NewMCPTool("pages", "two", "Second.", nil, nil)},
				Skipped: []error{errors.New(`tool "bad": cannot be converted`)}}, nil
		}
		return mcphub.Page{}, fmt.Errorf("unknown cursor %q", cursor)
	}
	ev := newEvents()
	h := newHub(t, ev.options())
	require.NoError(t, h.Attach(context.Background(), f.server()))
	assert.Equal(t, []string{"mcp__pages__one", "mcp__pages__two"}, offered(h.Registry()))
	assert.Equal(t, []string{"pages:pending", "pages:listed 3", "pages:connected"}, ev.Events(), "the skipped tool counts as listed")
	assert.Equal(t, []string{`pages: tool "bad": cannot be converted`}, ev.Errors())
	assert.Equal(t, toolsearch.ServerConnected, h.Registry().ServerStatus("pages"))
}

// TestAttachStartsServersTogether: each server's Open waits until every
// server has started opening, which can only happen if they are opened at
// the same time.
func TestAttachStartsServersTogether(t *testing.T) {
	const n = 4
	var started sync.WaitGroup
	started.Add(n)
	all := make(chan struct{})
	go func() { started.Wait(); close(all) }()
	var servers []mcphub.Server
	for i := range n {
		f := newFake(fmt.Sprintf("s%d", i), "tool")
		f.open = func(ctx context.Context) error {
			started.Done()
			select {
			case <-all:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		servers = append(servers, f.server())
	}
	h := newHub(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, h.Attach(ctx, servers...))
	assert.Equal(t, []string{"mcp__s0__tool", "mcp__s1__tool", "mcp__s2__tool", "mcp__s3__tool"}, offered(h.Registry()))
}

func TestAttachReportsEachFailureOnceAndKeepsTheOthers(t *testing.T) {
	h := newHub(t, nil)
	ctx := context.Background()
	require.NoError(t, h.Attach(ctx, newFake("taken", "x").server()))
	broken := newFake("broken")
	broken.list = func(context.Context, string) (mcphub.Page, error) { return mcphub.Page{}, errors.New("server said no") }
	noOpen := newFake("noopen")
	noOpen.open = func(context.Context) error { return errors.New("connecting: refused") }
	err := h.Attach(ctx, newFake("fine", "y").server(), newFake("taken", "z").server(), broken.server(),
		mcphub.Server{Name: ""}, noOpen.server())
	require.Error(t, err)
	assert.Equal(t, `attach "taken": mcphub: server already attached
attach "broken": listing tools: server said no
mcphub: attach "": Server.Open is nil
attach "noopen": connecting: refused`, err.Error())
	require.ErrorIs(t, err, mcphub.ErrAttached)
	assert.Equal(t, []string{"mcp__fine__y", "mcp__taken__x"}, offered(h.Registry()))
	assert.Equal(t, toolsearch.ServerDisconnected, h.Registry().ServerStatus("broken"))
	assert.Equal(t, int32(1), broken.closes.Load(), "a session opened for a failed attach is closed")
	assert.Equal(t, int32(0), noOpen.closes.Load(), "an Open that failed closes what it opened itself")
	require.ErrorIs(t, h.Close("broken"), mcphub.ErrNotAttached, "a failed server is detached")
	require.NoError(t, h.Attach(ctx, newFake("broken", "fixed").server()), "the name of a failed server is free again")
}
