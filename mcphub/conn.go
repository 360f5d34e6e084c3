package mcphub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/toolsearch/toolsearch"
)

// A Conn is one client session with one MCP server, as an SDK adapter
// provides it. The hub calls its methods from several goroutines at once
// (a listing, a ping and tool calls): a Conn must be safe for concurrent
// use. A method that finds the session gone should also call Link.Lost,
// so that the server is marked disconnected at once.
type Conn interface {
	// ListTools returns one page of the server's tools, converted to
	// toolsearch.Tool (see toolsearch.NewMCPTool): the first page for
	// cursor "", else the page after cursor. A tool that cannot be
	// converted goes in Page.Skipped.
	ListTools(ctx context.Context, cursor string) (Page, error)
	// CallTool calls the tool whose raw MCP name is name with args, the
	// raw JSON arguments (empty means none), and returns its result.
	CallTool(ctx context.Context, name string, args json.RawMessage) (*Result, error)
	// Ping pings the server; ErrNoPing means the session has no ping
	// (the server is then never pinged).
	Ping(ctx context.Context) error
	// Close closes the session. The hub calls it at most once.
	Close() error
}

// ErrNoPing is returned by a Conn's Ping when its session cannot be
// pinged (liveness is then left to the transport).
var ErrNoPing = errors.New("mcphub: the session has no ping")

// A Page is one page of a server's tools.
type Page struct {
	// Tools are the page's tools, converted.
	Tools []toolsearch.Tool
	// Skipped holds one error per tool of the page that could not be
	// converted; it is reported to Options.OnError.
	Skipped []error
	// Next is the cursor of the next page; "" after the last page.
	Next string
}

// A Server is an MCP server to attach: its name in the registry (tools are
// named mcp__<Name>__<tool>) and how to open its session.
type Server struct {
	Name string
	// Open opens the session, within ctx, and returns it. l is the
	// server's link to the hub: Open keeps it to report
	// tools/list_changed (Link.ToolsChanged) and the end of the session
	// (Link.Lost). If Open fails, it closes what it opened.
	Open func(ctx context.Context, l *Link) (Conn, error)
}

// A Link is an attached server as its Conn sees it. Its methods are safe
// for concurrent use and may be called at any time, also after the server
// has been detached (they then do nothing).
type Link struct {
	hub    *Hub
	server string
	conn   Conn // set once Open returns; under hub.mu
	ctx    context.Context
	end    context.CancelCauseFunc
	turn   chan struct{} // capacity 1: held by whoever lists or changes the status
	status toolsearch.ServerStatus
	kick   chan struct{} // capacity 1: a re-list is wanted
	done   chan struct{} // closed once the link has ended and the server is marked

	closeOnce sync.Once
	closeErr  error
}

// Server returns the name the server is attached as.
func (l *Link) Server() string { return l.server }

// Context returns a context that ends when the server is detached (closed,
// lost, or its attach failed): work a Conn does for the server, such as a
// subscription stream, should end with it.
func (l *Link) Context() context.Context { return l.ctx }

// ToolsChanged tells the hub that the server sent
// notifications/tools/list_changed: its tools are listed again. Changes
// that arrive while a re-listing is scheduled are seen by it.
func (l *Link) ToolsChanged() {
	select {
	case l.kick <- struct{}{}:
	default: // a re-list is already scheduled; it will see this change
	}
}

// errClosed and errLost are why a server's link ended.
var (
	errClosed = errors.New("the server was closed")
	errLost   = errors.New("the session ended")
	errPing   = errors.New("the server did not answer a ping")
)

// Lost tells the hub that the session has ended (closed by either side,
// the transport gone): the server is marked disconnected and detached.
// err, if not nil, says why and is reported to Options.OnError (once: a
// server already detached is not reported again).
func (l *Link) Lost(err error) {
	if l.ctx.Err() != nil {
		return
	}
	cause := errLost
	if err != nil {
		l.hub.report(l.server, err)
		cause = fmt.Errorf("%w: %w", errLost, err)
	}
	l.end(cause)
}

// closeConn closes l's Conn, once.
func (l *Link) closeConn() error {
	l.hub.mu.Lock()
	c := l.conn
	l.hub.mu.Unlock()
	if c == nil {
		return nil
	}
	l.closeOnce.Do(func() { l.closeErr = c.Close() })
	return l.closeErr
}
