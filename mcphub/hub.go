package mcphub

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch"
)

// The defaults of Options.
const (
	defaultListTimeout  = 30 * time.Second
	defaultMaxListPages = 1000
	defaultMaxListTools = 10000
	defaultPingInterval = 15 * time.Second
)

// Options configure a Hub. A nil *Options means the defaults; a zero or
// negative number or duration means that field's default. Turning
// something off is a field of its own (NoPing).
type Options struct {
	// ListTimeout bounds each listing of a server's tools, all pages
	// together: the first one in Attach, the ones after tools/list_changed
	// and Refresh. Default 30 seconds.
	ListTimeout time.Duration
	// MaxListPages and MaxListTools bound one listing: a server that
	// answers with more pages (following nextCursor) or more tools fails
	// that listing with an error wrapping toolsearch.ErrLimit, and nothing
	// of it is registered. Defaults 1,000 pages and 10,000 tools.
	MaxListPages int
	MaxListTools int
	// PingInterval is how often each server is pinged; a server that does
	// not answer within PingInterval is reported to OnError, marked
	// disconnected and its session closed. Default 15 seconds. A Conn
	// that cannot ping (Conn.Ping returns ErrNoPing) is not pinged.
	PingInterval time.Duration
	// NoPing turns pinging off for every server.
	NoPing bool

	// OnError, if set, is told about problems that do not stop a server
	// (tools that could not be converted or registered: the server's other
	// tools are kept) and about the ones that disconnect it after Attach
	// (a failed re-listing, an unanswered ping, a session lost with a
	// reason). The error's text does not repeat the server's name.
	OnError func(server string, err error)
	// OnStatus, if set, is called after a server's status is set in the
	// registry.
	OnStatus func(server string, status toolsearch.ServerStatus)
	// OnListed, if set, is called after a server's tools have been
	// (re)listed into the registry, with the number of tools the server
	// listed (converted or not).
	//
	// The callbacks may be called from any goroutine. OnStatus and
	// OnListed are called one at a time per server, in order; they must not
	// call Refresh or Close, which wait for them.
	OnListed func(server string, tools int)
}

var (
	// ErrAttached is returned by Attach for a server name that is already
	// attached.
	ErrAttached = errors.New("mcphub: server already attached")
	// ErrNotAttached is returned by Refresh and Close for a server name
	// that is not attached.
	ErrNotAttached = errors.New("mcphub: server not attached")
)

// Hub keeps the tools of MCP servers in a Registry, one Conn per server. It
// is safe for concurrent use. Its zero value is not usable: call New.
type Hub struct {
	reg  *toolsearch.Registry
	opts Options

	mu    sync.Mutex
	names map[string]*Link
}

// New returns a Hub that keeps its servers' tools in reg (nil: a new,
// empty Registry). opts is copied; nil means the defaults.
func New(reg *toolsearch.Registry, opts *Options) *Hub {
	h := &Hub{reg: reg, names: map[string]*Link{}}
	if h.reg == nil {
		h.reg = &toolsearch.Registry{}
	}
	if opts != nil {
		h.opts = *opts
	}
	o := &h.opts
	o.ListTimeout = orDefault(o.ListTimeout, defaultListTimeout)
	o.MaxListPages = orDefault(o.MaxListPages, defaultMaxListPages)
	o.MaxListTools = orDefault(o.MaxListTools, defaultMaxListTools)
	o.PingInterval = orDefault(o.PingInterval, defaultPingInterval)
	return h
}

// orDefault returns v, or def when v is zero or negative.
func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Registry returns the registry the hub keeps its servers' tools in.
func (h *Hub) Registry() *toolsearch.Registry { return h.reg }

// Attach attaches servers to the hub, all at once: each is marked pending,
// its session opened with Server.Open, every page of its tools listed into
// the registry with SetServerTools, and the server marked connected.
// Afterwards its tools are listed again on each tools/list_changed, until
// its session ends or Close is called (see the package doc). Tools that
// cannot be converted or registered are skipped and reported to
// Options.OnError.
//
// The servers are started in parallel, and Attach returns once each has
// been attached or has failed: the error joins one error per server that
// failed, each naming it (an empty or taken name, one wrapping
// ErrAttached, a session that could not be opened, a failed first
// listing), and the other servers stay attached. A server that fails is
// marked disconnected and detached, and a session Open had opened is
// closed.
func (h *Hub) Attach(ctx context.Context, servers ...Server) error {
	if len(servers) == 1 {
		return h.attach(ctx, servers[0])
	}
	errs := make([]error, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Go(func() { errs[i] = h.attach(ctx, s) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// attach attaches one server.
func (h *Hub) attach(ctx context.Context, s Server) error {
	if s.Open == nil {
		return fmt.Errorf("mcphub: attach %q: Server.Open is nil", s.Name)
	}
	l, err := h.reserve(s.Name)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx) // Close(server) abandons the attach too
	defer cancel()
	defer context.AfterFunc(l.ctx, cancel)()
	conn, err := s.Open(ctx, l)
	if err == nil && conn == nil {
		err = errors.New("Server.Open returned no connection")
	}
	if err == nil {
		h.mu.Lock()
		l.conn = conn
		h.mu.Unlock()
		err = h.listHeld(ctx, l)
	}
	<-l.turn
	if err != nil {
		h.finish(l)
		_ = l.closeConn()
		return fmt.Errorf("attach %q: %w", s.Name, err)
	}
	go h.follow(l)
	return nil
}

// reserve takes name server for a new link, which holds its turn, and marks
// the server pending.
func (h *Hub) reserve(server string) (*Link, error) {
	if server == "" {
		return nil, errors.New("mcphub: attach: empty server name")
	}
	ctx, end := context.WithCancelCause(context.Background())
	l := &Link{hub: h, server: server, ctx: ctx, end: end,
		turn: make(chan struct{}, 1), kick: make(chan struct{}, 1), done: make(chan struct{})}
	l.turn <- struct{}{}
	h.mu.Lock()
	if _, ok := h.names[server]; ok {
		h.mu.Unlock()
		end(nil)
		return nil, fmt.Errorf("attach %q: %w", server, ErrAttached)
	}
	h.names[server] = l
	h.mu.Unlock()
	h.setStatus(l, toolsearch.ServerPending)
	return l, nil
}

// lookup returns the link attached as server and its Conn (nil while the
// session is opened), or nil.
func (h *Hub) lookup(server string) (*Link, Conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if l := h.names[server]; l != nil {
		return l, l.conn
	}
	return nil, nil
}

// Conn returns the Conn of the server attached as server, or nil (also
// while its session is being opened). An SDK adapter uses it to hand out
// its own session type.
func (h *Hub) Conn(server string) Conn {
	_, c := h.lookup(server)
	return c
}

// closed is the channel Done returns for a server that is not attached.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Done returns a channel that is closed once the server attached as server
// has ended (its session ended, or Close was called) and been marked
// disconnected. For a name that is not attached, now, the channel is
// already closed: call Done after Attach has returned.
func (h *Hub) Done(server string) <-chan struct{} {
	if l, _ := h.lookup(server); l != nil {
		return l.done
	}
	return closed
}

// Refresh lists the tools of the server attached as server again, now,
// and replaces them in the registry. The hub does this by itself on
// tools/list_changed; Refresh is for callers that want a listing as of this
// moment, for example before a report. It returns when ctx ends, even if
// another listing of the server is in progress; a listing that fails for
// the server's reason marks it disconnected, as a failed re-listing does.
func (h *Hub) Refresh(ctx context.Context, server string) error {
	l, _ := h.lookup(server)
	if l == nil {
		return fmt.Errorf("refresh %q: %w", server, ErrNotAttached)
	}
	if err := h.list(ctx, l); err != nil {
		return fmt.Errorf("refresh %q: %w", server, err)
	}
	return nil
}

// Close ends the server attached as server: a listing in progress is
// abandoned, the server is marked disconnected (its tools are kept but no
// longer offered), and its session is closed with Conn.Close, whose error
// Close returns once Done(server) is closed. The name can then be attached
// again.
func (h *Hub) Close(server string) error {
	l, _ := h.lookup(server)
	if l == nil {
		return fmt.Errorf("close %q: %w", server, ErrNotAttached)
	}
	l.end(errClosed)
	<-l.done
	if err := l.closeConn(); err != nil {
		return fmt.Errorf("close %q: %w", server, err)
	}
	return nil
}

func (h *Hub) report(server string, err error) {
	if h.opts.OnError != nil {
		h.opts.OnError(server, err)
	}
}
