package mcphub_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
)

// stalling returns a fake that lists one tool the first time and stalls
// every later listing until its context ends; stalled is closed when a
// later listing starts.
func stalling(server string) (f *fake, stalled chan struct{}) {
	f = newFake(server)
	stalled = make(chan struct{})
	var calls atomic.Int32
	first := tools(server, "first")
	f.list = func(ctx context.Context, cursor string) (mcphub.Page, error) {
		if calls.Add(1) == 1 {
			return first(ctx, cursor)
		}
		select {
		case <-stalled:
		default:
			close(stalled)
		}
		<-ctx.Done()
		return mcphub.Page{}, ctx.Err()
	}
	return f, stalled
}

// stalledServer attaches a server whose re-listings stall and starts one,
// with tools/list_changed or, if refresh is set, with a Refresh whose error
// goes to refreshed; it returns once the re-listing is stalled.
func stalledServer(t *testing.T, h *mcphub.Hub, name string, refresh bool) (refreshed chan error) {
	t.Helper()
	f, stalled := stalling(name)
	require.NoError(t, h.Attach(context.Background(), f.server()))
	refreshed = make(chan error, 1)
	if refresh {
		go func() { refreshed <- h.Refresh(context.Background(), name) }()
	} else {
		f.link.Load().ToolsChanged()
	}
	select {
	case <-stalled:
	case <-time.After(10 * time.Second):
		t.Fatal("the re-listing never started")
	}
	return refreshed
}

func TestCloseWhileAListingStalls(t *testing.T) {
	for _, refresh := range []bool{false, true} {
		t.Run(fmt.Sprintf("refresh=%v", refresh), func(t *testing.T) {
			ev := newEvents()
			h := newHub(t, ev.options()) // ListTimeout: the default 30 s
			refreshed := stalledServer(t, h, "slow", refresh)

			within(t, "Close during a stalled listing", func() { require.NoError(t, h.Close("slow")) })
			select {
			case <-h.Done("slow"):
			default:
				t.Fatal("Done is not closed after Close")
			}
			if refresh {
				within(t, "the stalled Refresh", func() {
					assert.EqualError(t, <-refreshed, `refresh "slow": listing tools: the server was closed`)
				})
			}
			assert.Equal(t, toolsearch.ServerDisconnected, h.Registry().ServerStatus("slow"))
			_, kept := h.Registry().Lookup("mcp__slow__first")
			assert.True(t, kept, "a closed server's tools are kept")
			assert.Empty(t, offered(h.Registry()), "and not offered")
			assert.Empty(t, ev.Errors(), "an abandoned listing is not an error of the server")
			require.ErrorIs(t, h.Close("slow"), mcphub.ErrNotAttached)
		})
	}
}

func TestRefreshHonoursItsContext(t *testing.T) {
	h := newHub(t, nil)
	stalledServer(t, h, "slow", false)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var err error
	within(t, "Refresh with a 50ms context", func() { err = h.Refresh(ctx, "slow") })
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.EqualError(t, err, `refresh "slow": listing tools: context deadline exceeded`)
	assert.Equal(t, toolsearch.ServerConnected, h.Registry().ServerStatus("slow"), "the caller giving up says nothing about the server")
	require.NoError(t, h.Close("slow"))
	require.ErrorIs(t, h.Refresh(context.Background(), "slow"), mcphub.ErrNotAttached)
}

// TestRelistingIsBoundedByListTimeout also pins the error's text: it names
// the server once (as OnError's argument) and says each step once.
func TestRelistingIsBoundedByListTimeout(t *testing.T) {
	ev := newEvents()
	opts := ev.options()
	opts.ListTimeout = time.Second // it bounds the first listing too: long enough for a loaded machine
	h := newHub(t, opts)
	stalledServer(t, h, "slow", false)

	ev.WaitFor(t, "the stalled re-listing to time out", func() bool { return len(ev.Errors()) > 0 })
	assert.Equal(t, []string{`slow: after tools/list_changed: listing tools: no complete tool list within 1s (Options.ListTimeout): context deadline exceeded`}, ev.Errors())
	ev.WaitFor(t, "the server to be marked disconnected", func() bool { return h.Registry().ServerStatus("slow") == toolsearch.ServerDisconnected })
	assert.Empty(t, offered(h.Registry()), "a server whose tool list is unknown offers no stale tools")
	assert.Equal(t, []string{"slow:pending", "slow:listed 1", "slow:connected", "slow:disconnected"}, ev.Events())
	require.NoError(t, h.Close("slow"))
}

func TestAFailedListingIsRecoveredByTheNextOne(t *testing.T) {
	ev := newEvents()
	h := newHub(t, ev.options())
	f := newFake("flaky", "a")
	var fail atomic.Bool
	ok := f.list
	f.list = func(ctx context.Context, cursor string) (mcphub.Page, error) {
		if fail.Load() {
			return mcphub.Page{}, errors.New("internal error")
		}
		return ok(ctx, cursor)
	}
	require.NoError(t, h.Attach(context.Background(), f.server()))
	fail.Store(true)
	assert.EqualError(t, h.Refresh(context.Background(), "flaky"), `refresh "flaky": listing tools: internal error`)
	assert.Equal(t, toolsearch.ServerDisconnected, h.Registry().ServerStatus("flaky"))
	fail.Store(false)
	f.link.Load().ToolsChanged()
	ev.WaitFor(t, "the next listing", func() bool { return h.Registry().ServerStatus("flaky") == toolsearch.ServerConnected })
	assert.Equal(t, []string{"mcp__flaky__a"}, offered(h.Registry()))
	require.NoError(t, h.Close("flaky"))
}

func TestListingsAreBounded(t *testing.T) {
	endless := func(perPage int) func(context.Context, string) (mcphub.Page, error) {
		return func(_ context.Context, cursor string) (mcphub.Page, error) {
			var p mcphub.Page
			for i := range perPage {
				p.Tools = append(p.Tools, toolsearch.NewMCPTool("big", fmt.Sprintf("t%s_%d", cursor, i), "A tool.", nil, nil))
			}
			p.Next = cursor + "n"
			return p, nil
		}
	}
	for _, tt := range []struct {
		name    string
		opts    mcphub.Options
		perPage int
		want    string
	}{
		{"pages", mcphub.Options{MaxListPages: 3}, 1, `attach "big": listing tools: toolsearch: limit exceeded: more than 3 pages (Options.MaxListPages)`},
		{"tools", mcphub.Options{MaxListTools: 5}, 2, `attach "big": listing tools: toolsearch: limit exceeded: more than 5 tools (Options.MaxListTools)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHub(t, &tt.opts)
			f := newFake("big")
			f.list = endless(tt.perPage)
			err := h.Attach(context.Background(), f.server())
			require.ErrorIs(t, err, toolsearch.ErrLimit)
			assert.EqualError(t, err, tt.want)
			assert.Empty(t, offered(h.Registry()))
		})
	}
}

func TestUnansweredPingDisconnects(t *testing.T) {
	ev := newEvents()
	opts := ev.options()
	opts.PingInterval = 20 * time.Millisecond
	h := newHub(t, opts)
	f := newFake("mute", "a")
	f.ping = func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
	require.NoError(t, h.Attach(context.Background(), f.server()))
	within(t, "the unanswered ping", func() { <-h.Done("mute") })
	assert.Equal(t, []string{"mute: no answer to a ping within 20ms (Options.PingInterval): context deadline exceeded"}, ev.Errors())
	assert.Equal(t, toolsearch.ServerDisconnected, h.Registry().ServerStatus("mute"))
	within(t, "closing the session", func() { <-f.closed })
}

// TestPingsAreSkippedWhereThereAreNone: with NoPing the server is never
// pinged; a session that answers ErrNoPing is pinged once. The one ping is
// waited for (however late the ticker fires on a loaded machine); then 50
// ping intervals pass and no other ping may have come. A wait can only
// hide a wrong ping, never fail a right hub.
func TestPingsAreSkippedWhereThereAreNone(t *testing.T) {
	for _, tt := range []struct {
		name  string
		opts  mcphub.Options
		pings int32
	}{
		{"NoPing", mcphub.Options{NoPing: true, PingInterval: time.Millisecond}, 0},
		{"ErrNoPing", mcphub.Options{PingInterval: time.Millisecond}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHub(t, &tt.opts)
			var pings atomic.Int32
			pinged := make(chan struct{}, 100)
			f := newFake("quiet", "a")
			f.ping = func(ctx context.Context) error {
				pings.Add(1)
				pinged <- struct{}{}
				return mcphub.ErrNoPing
			}
			require.NoError(t, h.Attach(context.Background(), f.server()))
			for range tt.pings {
				within(t, "the first ping", func() { <-pinged })
			}
			time.Sleep(50 * tt.opts.PingInterval)
			assert.Equal(t, toolsearch.ServerConnected, h.Registry().ServerStatus("quiet"))
			assert.Equal(t, tt.pings, pings.Load())
			require.NoError(t, h.Close("quiet"))
		})
	}
}

func TestALostSessionDisconnects(t *testing.T) {
	ev := newEvents()
	h := newHub(t, ev.options())
	f := newFake("gone", "a")
	require.NoError(t, h.Attach(context.Background(), f.server()))
	f.link.Load().Lost(errors.New("the subscription stream failed: EOF"))
	within(t, "the lost session", func() { <-h.Done("gone") })
	f.link.Load().Lost(errors.New("again")) // a detached server is not reported again
	assert.Equal(t, []string{"gone: the subscription stream failed: EOF"}, ev.Errors())
	assert.Equal(t, toolsearch.ServerDisconnected, h.Registry().ServerStatus("gone"))
	assert.Equal(t, int32(0), f.closes.Load(), "a session that ended by itself is not closed again")
	assert.Equal(t, "the session ended: the subscription stream failed: EOF", context.Cause(f.link.Load().Context()).Error())
}

func TestDoneIsNeverNil(t *testing.T) {
	h := newHub(t, nil)
	select {
	case <-h.Done("never attached"):
	default:
		t.Fatal("Done of an unknown server is not closed")
	}
	require.NoError(t, h.Attach(context.Background(), newFake("a", "x").server()))
	select {
	case <-h.Done("a"):
		t.Fatal("Done of an attached server is closed")
	default:
	}
	require.NoError(t, h.Close("a"))
	<-h.Done("a")
}

func TestCloseDuringOpenAbandonsTheAttach(t *testing.T) {
	h := newHub(t, nil)
	f := newFake("slow", "a")
	opening := make(chan struct{})
	f.open = func(ctx context.Context) error {
		close(opening)
		<-ctx.Done()
		return fmt.Errorf("connecting: %w", ctx.Err())
	}
	attached := make(chan error, 1)
	go func() { attached <- h.Attach(context.Background(), f.server()) }()
	<-opening
	within(t, "Close during Open", func() { require.NoError(t, h.Close("slow")) })
	err := <-attached
	require.ErrorIs(t, err, context.Canceled)
	assert.True(t, strings.HasPrefix(err.Error(), `attach "slow": connecting:`), err.Error())
	assert.Equal(t, toolsearch.ServerDisconnected, h.Registry().ServerStatus("slow"))
}

// TestDoneMeansDisconnected ends many sessions while another goroutine asks
// Done again and again: whenever the channel it gets is closed, the server
// is already marked disconnected (the hub once forgot the name before it
// marked the server, so a Done asked in between was closed too early).
func TestDoneMeansDisconnected(t *testing.T) {
	h := newHub(t, nil)
	for i := range 200 {
		name := fmt.Sprintf("s%d", i)
		f := newFake(name, "a")
		require.NoError(t, h.Attach(context.Background(), f.server()))
		seen := make(chan toolsearch.ServerStatus)
		go func() {
			for {
				select {
				case <-h.Done(name):
					seen <- h.Registry().ServerStatus(name)
					return
				default:
					runtime.Gosched()
				}
			}
		}()
		f.link.Load().Lost(errors.New("gone"))
		require.Equal(t, toolsearch.ServerDisconnected, <-seen, "session %d", i)
	}
}
