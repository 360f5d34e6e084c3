package mcphub

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolsearch/toolsearch"
)

// follow re-lists l's tools on tools/list_changed and pings the server
// until the link ends, then marks the server disconnected.
func (h *Hub) follow(l *Link) {
	var ping <-chan time.Time
	if !h.opts.NoPing {
		t := time.NewTicker(h.opts.PingInterval)
		defer t.Stop()
		ping = t.C
	}
	for {
		select {
		case <-l.ctx.Done():
			h.finish(l)
			return
		case <-l.kick:
			if err := h.list(l.ctx, l); err != nil && l.ctx.Err() == nil {
				h.report(l.server, fmt.Errorf("after tools/list_changed: %w", err))
			}
		case <-ping:
			ctx, cancel := context.WithTimeout(l.ctx, h.opts.PingInterval)
			err := l.conn.Ping(ctx)
			unanswered := ctx.Err() != nil && l.ctx.Err() == nil
			cancel()
			switch {
			case errors.Is(err, ErrNoPing):
				ping = nil
			case unanswered:
				h.report(l.server, fmt.Errorf("no answer to a ping within %s (Options.PingInterval): %w", h.opts.PingInterval, err))
				l.end(errPing)
				go l.closeConn()
			}
		}
	}
}

// list takes l's turn, giving up when ctx ends, and lists l's tools.
func (h *Hub) list(ctx context.Context, l *Link) error {
	select {
	case l.turn <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("listing tools: %w", context.Cause(ctx))
	}
	defer func() { <-l.turn }()
	return h.listHeld(ctx, l)
}

// listHeld lists every tool of l's session and replaces the server's tools
// in the registry, marking the server connected. The caller holds l's turn.
func (h *Hub) listHeld(ctx context.Context, l *Link) error {
	tools, bad, listed, err := h.fetchWithin(ctx, l)
	if err == nil && l.ctx.Err() != nil { // ended while the last page arrived: leave the registry alone
		err = context.Cause(l.ctx)
	}
	if err != nil {
		return fmt.Errorf("listing tools: %w", err)
	}
	h.register(l, tools, bad, listed)
	h.setStatus(l, toolsearch.ServerConnected)
	return nil
}

// fetchWithin fetches l's tools within Options.ListTimeout, ctx and l's
// life. A failure that is not ctx's ending or l's marks the server
// disconnected. The caller holds l's turn.
func (h *Hub) fetchWithin(ctx context.Context, l *Link) (tools []toolsearch.Tool, bad []error, listed int, err error) {
	if l.ctx.Err() != nil {
		return nil, nil, 0, context.Cause(l.ctx)
	}
	lctx, cancel := context.WithTimeoutCause(ctx, h.opts.ListTimeout,
		fmt.Errorf("no complete tool list within %s (Options.ListTimeout): %w", h.opts.ListTimeout, context.DeadlineExceeded))
	defer cancel()
	defer context.AfterFunc(l.ctx, cancel)()
	tools, bad, listed, err = h.fetch(lctx, l)
	switch {
	case err == nil:
		return tools, bad, listed, nil
	case l.ctx.Err() != nil:
		return nil, nil, 0, context.Cause(l.ctx)
	case lctx.Err() != nil:
		err = context.Cause(lctx) // ListTimeout, or the caller's context
	}
	if ctx.Err() == nil {
		h.setStatus(l, toolsearch.ServerDisconnected)
	}
	return nil, nil, 0, err
}

// fetch returns every tool of l's session, page by page, within the
// listing bounds, with the tools that could not be converted and the
// number of tools listed.
func (h *Hub) fetch(ctx context.Context, l *Link) (tools []toolsearch.Tool, bad []error, listed int, err error) {
	cursor := ""
	for page := 1; ; page++ {
		if page > h.opts.MaxListPages {
			return nil, nil, 0, fmt.Errorf("%w: more than %d pages (Options.MaxListPages)", toolsearch.ErrLimit, h.opts.MaxListPages)
		}
		p, err := l.conn.ListTools(ctx, cursor)
		if err != nil {
			return nil, nil, 0, err
		}
		listed += len(p.Tools) + len(p.Skipped)
		if listed > h.opts.MaxListTools {
			return nil, nil, 0, fmt.Errorf("%w: more than %d tools (Options.MaxListTools)", toolsearch.ErrLimit, h.opts.MaxListTools)
		}
		tools = append(tools, p.Tools...)
		bad = append(bad, p.Skipped...)
		if p.Next == "" {
			return tools, bad, listed, nil
		}
		cursor = p.Next
	}
}

// register replaces l's server's tools in the registry with tools; the
// tools that could not be converted (bad) or registered are reported.
func (h *Hub) register(l *Link, tools []toolsearch.Tool, bad []error, listed int) {
	skipped, err := h.reg.SetServerTools(l.server, tools)
	bad = append(bad, skipped...)
	if err != nil {
		bad = append(bad, err)
	}
	if err := errors.Join(bad...); err != nil {
		h.report(l.server, err)
	}
	if h.opts.OnListed != nil {
		h.opts.OnListed(l.server, listed)
	}
}

// finish ends l: it waits for l's turn (a listing in progress ends with
// l's context), marks the server disconnected, detaches l and closes done.
// The server is marked before its name is forgotten: Done of a name that is
// not attached is closed, so a Done asked in between would otherwise report
// an end the registry does not show yet, and a server attached again under
// the name in between would be marked disconnected by the old session.
func (h *Hub) finish(l *Link) {
	l.end(errClosed)
	l.turn <- struct{}{}
	h.setStatus(l, toolsearch.ServerDisconnected)
	h.mu.Lock()
	if h.names[l.server] == l {
		delete(h.names, l.server)
	}
	h.mu.Unlock()
	<-l.turn
	close(l.done)
}

// setStatus records l's status in the registry and tells OnStatus, when it
// changes. The caller holds l's turn.
func (h *Hub) setStatus(l *Link, st toolsearch.ServerStatus) {
	if l.status == st {
		return
	}
	l.status = st
	h.reg.SetServerStatus(l.server, st)
	if h.opts.OnStatus != nil {
		h.opts.OnStatus(l.server, st)
	}
}
