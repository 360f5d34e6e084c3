package tsmcpsdk_test

// The life of an attached server when the server misbehaves (issue 11):
// listings that stall or never end, pings left unanswered, and the calls
// that must stay prompt meanwhile (Refresh, Close, Done).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

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

// stallAfterFirst is a tools/list answer that lists one tool the first
// time and stalls every later listing until its context ends. stalled is
// closed when a later listing starts.
type stallAfterFirst struct {
	calls   atomic.Int32
	stalled chan struct{}
}

func newStall() *stallAfterFirst { return &stallAfterFirst{stalled: make(chan struct{})} }

func (s *stallAfterFirst) list(ctx context.Context) (*mcp.ListToolsResult, error) {
	if s.calls.Add(1) == 1 {
		return &mcp.ListToolsResult{Tools: []*mcp.Tool{objectTool("first", "Listed once.")}}, nil
	}
	select {
	case <-s.stalled:
	default:
		close(s.stalled)
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// stalledServer connects a server whose re-listings stall and starts one,
// with a tools/list_changed notification or, if refresh is set, with a
// Refresh whose error goes to refreshed; it returns once the re-listing is
// stalled.
func stalledServer(t *testing.T, servers *testServers, name string, refresh bool) (refreshed chan error) {
	t.Helper()
	st := newStall()
	srv := listing(st.list)
	_, _, err := connect(t, context.Background(), servers, name, srv)
	require.NoError(t, err)
	refreshed = make(chan error, 1)
	if refresh {
		go func() { refreshed <- servers.Refresh(context.Background(), name) }()
	} else {
		srv.AddTool(objectTool("more", "Announced with tools/list_changed."), echo)
	}
	select {
	case <-st.stalled:
	case <-time.After(10 * time.Second):
		t.Fatal("the re-listing never started")
	}
	return refreshed
}

func TestCloseWhileAListingStalls(t *testing.T) {
	for _, refresh := range []bool{false, true} {
		t.Run(fmt.Sprintf("refresh=%v", refresh), func(t *testing.T) {
			reg := &toolsearch.Registry{}
			ev := newEvents()
			servers := newServers(reg, ev.options()) // ListTimeout: the default 30 s
			refreshed := stalledServer(t, servers, "slow", refresh)

			within(t, "Close during a stalled listing", func() { _ = servers.Close("slow") })
			select {
			case <-servers.Done("slow"):
			default:
				t.Fatal("Done is not closed after Close")
			}
			if refresh {
				within(t, "the stalled Refresh", func() {
					assert.ErrorContains(t, <-refreshed, `refresh "slow": listing tools: the server was closed`)
				})
			}
			assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("slow"))
			_, kept := reg.Lookup("mcp__slow__first")
			assert.True(t, kept, "a closed server's tools are kept")
			assert.Empty(t, names(reg), "and not offered")
			assert.Empty(t, ev.Errors(), "an abandoned listing is not an error of the server")
			require.ErrorIs(t, servers.Close("slow"), mcphub.ErrNotAttached)
		})
	}
}

func TestRefreshHonoursItsContext(t *testing.T) {
	reg := &toolsearch.Registry{}
	servers := newServers(reg, nil)
	stalledServer(t, servers, "slow", false)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var err error
	within(t, "Refresh with a 50ms context", func() { err = servers.Refresh(ctx, "slow") })
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), `refresh "slow": listing tools: `)
	assert.Equal(t, toolsearch.ServerConnected, reg.ServerStatus("slow"), "the caller giving up says nothing about the server")
	require.NoError(t, servers.Close("slow"))
	require.ErrorIs(t, servers.Refresh(context.Background(), "slow"), mcphub.ErrNotAttached)
}

func TestRelistingIsBoundedByListTimeout(t *testing.T) {
	reg := &toolsearch.Registry{}
	ev := newEvents()
	opts := ev.options()
	opts.ListTimeout = time.Second // it bounds the first listing too: long enough for a loaded machine
	servers := newServers(reg, opts)
	stalledServer(t, servers, "slow", false)

	ev.WaitFor(t, "the stalled re-listing to time out", func() bool { return len(ev.Errors()) > 0 })
	assert.Contains(t, ev.Errors()[0], `slow: after tools/list_changed: listing tools: no complete tool list within 1s (Options.ListTimeout)`)
	ev.WaitFor(t, "the server to be marked disconnected", func() bool { return reg.ServerStatus("slow") == toolsearch.ServerDisconnected })
	assert.Empty(t, names(reg), "a server whose tool list is unknown offers no stale tools")
	assert.Equal(t, []string{"slow:pending", "slow:listed 1", "slow:connected", "slow:disconnected"}, ev.Events())
	require.NoError(t, servers.Close("slow"))
}

func TestAFailedListingIsRecoveredByTheNextOne(t *testing.T) {
	reg := &toolsearch.Registry{}
	ev := newEvents()
	var fail atomic.Bool
	srv := listing(func(context.Context) (*mcp.ListToolsResult, error) {
		if fail.Load() {
			return nil, fmt.Errorf("tools/list is broken")
		}
		return &mcp.ListToolsResult{Tools: []*mcp.Tool{objectTool("t", "A tool.")}}, nil
	})
	servers := newServers(reg, ev.options())
	_, _, err := connect(t, context.Background(), servers, "flaky", srv)
	require.NoError(t, err)

	fail.Store(true)
	err = servers.Refresh(context.Background(), "flaky")
	require.ErrorContains(t, err, "tools/list is broken")
	assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("flaky"))
	fail.Store(false)
	require.NoError(t, servers.Refresh(context.Background(), "flaky"))
	assert.Equal(t, toolsearch.ServerConnected, reg.ServerStatus("flaky"))
	assert.Equal(t, []string{"mcp__flaky__t"}, names(reg))
	assert.Equal(t, []string{"flaky:pending", "flaky:listed 1", "flaky:connected", "flaky:disconnected", "flaky:listed 1", "flaky:connected"}, ev.Events())
}

// endless answers every tools/list with perPage new tools and a next
// cursor, forever.
func endless(perPage int) func(context.Context) (*mcp.ListToolsResult, error) {
	var n atomic.Int32
	return func(context.Context) (*mcp.ListToolsResult, error) {
		page := n.Add(1)
		res := &mcp.ListToolsResult{NextCursor: fmt.Sprint("page", page)}
		for i := range perPage {
			res.Tools = append(res.Tools, objectTool(fmt.Sprintf("t%d_%d", page, i), "More."))
		}
		return res, nil
	}
}

func TestListingsAreBounded(t *testing.T) {
	tests := []struct {
		name string
		opts mcphub.Options
		list func(context.Context) (*mcp.ListToolsResult, error)
		want string
	}{
		{"endless empty pages, default bound", mcphub.Options{}, endless(0), "more than 1000 pages (Options.MaxListPages)"},
		{"endless pages", mcphub.Options{MaxListPages: 5}, endless(1), "more than 5 pages (Options.MaxListPages)"},
		{"too many tools in pages", mcphub.Options{MaxListTools: 7}, endless(3), "more than 7 tools (Options.MaxListTools)"},
		{"too many tools in one page", mcphub.Options{MaxListTools: 2}, func(context.Context) (*mcp.ListToolsResult, error) {
			return &mcp.ListToolsResult{Tools: []*mcp.Tool{objectTool("a", ""), objectTool("b", ""), objectTool("c", "")}}, nil
		}, "more than 2 tools (Options.MaxListTools)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := &toolsearch.Registry{}
			servers := newServers(reg, &tt.opts)
			_, _, err := connect(t, context.Background(), servers, "big", listing(tt.list))
			require.ErrorIs(t, err, toolsearch.ErrLimit)
			assert.Contains(t, err.Error(), `attach "big": listing tools: `+toolsearch.ErrLimit.Error()+": "+tt.want)
			assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("big"))
			for _, tool := range []string{"mcp__big__t1_0", "mcp__big__a"} {
				_, found := reg.Lookup(tool)
				assert.False(t, found, "nothing of a listing over a bound is registered")
			}
		})
	}
}

func TestARelistingOverABoundIsReported(t *testing.T) {
	reg := &toolsearch.Registry{}
	ev := newEvents()
	opts := ev.options()
	opts.MaxListPages = 3
	var next atomic.Pointer[func(context.Context) (*mcp.ListToolsResult, error)]
	first := func(context.Context) (*mcp.ListToolsResult, error) {
		return &mcp.ListToolsResult{Tools: []*mcp.Tool{objectTool("t", "A tool.")}}, nil
	}
	next.Store(&first)
	srv := listing(func(ctx context.Context) (*mcp.ListToolsResult, error) { return (*next.Load())(ctx) })
	servers := newServers(reg, opts)
	_, _, err := connect(t, context.Background(), servers, "grows", srv)
	require.NoError(t, err)

	more := endless(1)
	next.Store(&more)
	srv.AddTool(objectTool("more", ""), echo) // tools/list_changed
	ev.WaitFor(t, "the report", func() bool { return len(ev.Errors()) > 0 })
	assert.Contains(t, ev.Errors()[0], "more than 3 pages (Options.MaxListPages)")
	ev.WaitFor(t, "disconnected", func() bool { return reg.ServerStatus("grows") == toolsearch.ServerDisconnected })
	_, kept := reg.Lookup("mcp__grows__t")
	assert.True(t, kept, "the last complete listing is kept")
}

func TestUnansweredPingDisconnects(t *testing.T) {
	reg := &toolsearch.Registry{}
	ev := newEvents()
	opts := ev.options()
	opts.PingInterval = 500 * time.Millisecond // also how long an answer may take: long enough for a loaded machine
	servers := newServers(reg, opts)
	srv := newServer(1)
	var mute atomic.Bool
	pings := make(chan struct{}, 100)
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "ping" {
				if mute.Load() {
					<-ctx.Done() // hung: never answers
					return nil, ctx.Err()
				}
				pings <- struct{}{}
			}
			return next(ctx, method, req)
		}
	})
	_, _, err := connect(t, context.Background(), servers, "mute", srv)
	require.NoError(t, err)
	for range 3 {
		select {
		case <-pings:
		case <-time.After(10 * time.Second):
			t.Fatal("the server was not pinged")
		}
	}
	assert.Equal(t, toolsearch.ServerConnected, reg.ServerStatus("mute"), "a server that answers pings stays connected")

	mute.Store(true)
	select {
	case <-servers.Done("mute"):
	case <-time.After(10 * time.Second):
		t.Fatal("a server that stopped answering pings was not ended")
	}
	assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("mute"))
	require.NotEmpty(t, ev.Errors())
	assert.Contains(t, ev.Errors()[0], `mute: no answer to a ping within 500ms (Options.PingInterval)`)
}

func TestDoneIsNeverNil(t *testing.T) {
	reg := &toolsearch.Registry{}
	servers := newServers(reg, nil)
	within(t, "Done of a name never attached", func() { <-servers.Done("never") })

	_, cs, err := connect(t, context.Background(), servers, "a", newServer(1))
	require.NoError(t, err)
	select {
	case <-servers.Done("a"):
		t.Fatal("Done is closed while the server is attached")
	default:
	}
	require.NoError(t, cs.Close())
	within(t, "<-Done after the session was closed", func() { <-servers.Done("a") })
	within(t, "<-Done once the server has gone", func() { <-servers.Done("a") })
	assert.Equal(t, toolsearch.ServerDisconnected, reg.ServerStatus("a"))
}

func TestAttachAnOpenSession(t *testing.T) {
	ctx := context.Background()
	reg := &toolsearch.Registry{}
	ev := newEvents()
	servers := newServers(reg, ev.options())
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, servers.ClientOptions(nil))
	st, ct := mcp.NewInMemoryTransports()
	_, err := newServer(2).Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := client.Connect(ctx, ct, nil)
	require.NoError(t, err)

	require.NoError(t, servers.AttachSession(ctx, "open", cs))
	assert.Same(t, cs, servers.Session("open"))
	assert.Equal(t, []string{"mcp__open__tool0", "mcp__open__tool1"}, names(reg))
	require.ErrorIs(t, servers.AttachSession(ctx, "open", cs), mcphub.ErrAttached)
	require.ErrorContains(t, servers.AttachSession(ctx, "", cs), "empty server name")

	require.NoError(t, servers.Close("open"))
	assert.Nil(t, servers.Session("open"))
	assert.Equal(t, []string{"open:pending", "open:listed 2", "open:connected", "open:disconnected"}, ev.Events())
	require.Error(t, cs.Ping(ctx, nil), "Close closes the session")
}

// TestErrorResultIsTheModelsText pins the error convention shared by the
// adapters: the text toolsearch wrote for the model, unchanged, with MCP's
// isError flag.
func TestErrorResultIsTheModelsText(t *testing.T) {
	reg := &toolsearch.Registry{}
	servers := newServers(reg, nil)
	_, _, err := connect(t, context.Background(), servers, "mem", newServer(2))
	require.NoError(t, err)
	sess := toolsearch.NewSession(reg, nil)
	for _, call := range []struct{ name, args string }{
		{"mcp__mem__nope", `{}`},
		{"mcp__mem__tool0", `{"text":7}`},
	} {
		_, err := sess.CheckCall(call.name, json.RawMessage(call.args))
		require.Error(t, err)
		b, jerr := json.Marshal(tsmcpsdk.ErrorResult(err))
		require.NoError(t, jerr)
		want, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": toolsearch.ModelText(err)}}, "isError": true})
		assert.JSONEq(t, string(want), string(b), "call %s", call.name)
		assert.False(t, strings.HasPrefix(err.Error(), "Error"), "no prefix is added to the text")
	}
	_, err = servers.CallTool(context.Background(), "mcp__mem__nope", nil)
	require.ErrorIs(t, err, toolsearch.ErrUnknownTool)
	unknown := err
	_, err = servers.CallTool(context.Background(), "mcp__gone__tool0", nil)
	require.ErrorIs(t, err, toolsearch.ErrUnknownTool)

	// The text is toolsearch.ModelText's: the package's own errors without
	// their Go prefix, a server's or a user's words as they are.
	for _, tt := range []struct {
		err  error
		want string
	}{
		{unknown, `call "mcp__mem__nope": unknown tool: not a tool of an MCP server`},
		{toolsearch.ErrLimit, "limit exceeded"},
		{errors.New("toolsearch: the server's own words"), "toolsearch: the server's own words"},
	} {
		b, jerr := json.Marshal(tsmcpsdk.ErrorResult(tt.err))
		require.NoError(t, jerr)
		want, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": tt.want}}, "isError": true})
		assert.JSONEq(t, string(want), string(b), "ErrorResult(%q)", tt.err)
	}
	assert.True(t, slices.Contains(names(reg), "mcp__mem__tool0"))
}
