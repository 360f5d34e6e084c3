package gateway

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch"
)

// upstream is one configured server and the goroutine that keeps it
// connected.
type upstream struct {
	name   string
	cfg    ServerConfig // guarded by Gateway.mu
	cancel context.CancelFunc
	done   chan struct{} // closed when the goroutine has ended and the server is closed
}

// startLocked starts the goroutine of server name, unless its entry is
// disabled or bad (then it is logged). first, if set, is told when the
// first attempt has ended. g.mu is held.
func (g *Gateway) startLocked(name string, sc ServerConfig, first *sync.WaitGroup) {
	if why := g.cfg.Bad[name]; why != "" {
		g.log.Error("server not started: bad entry", "server", name, "why", why)
		return
	}
	if sc.Disabled {
		g.log.Info("server disabled in the config", "server", name)
		return
	}
	ctx, cancel := context.WithCancel(g.life)
	u := &upstream{name: name, cfg: sc, cancel: cancel, done: make(chan struct{})}
	g.ups[name] = u
	g.public.SetServerStatus(name, toolsearch.ServerPending)
	g.set.Metrics.upstream(name, toolsearch.ServerPending)
	if first != nil {
		first.Add(1)
	}
	go func() {
		defer close(u.done)
		g.keep(ctx, u, first)
	}()
}

// keep connects u, and connects it again with a growing backoff each time
// it fails to start or goes away, until ctx ends.
func (g *Gateway) keep(ctx context.Context, u *upstream, first *sync.WaitGroup) {
	backoff := g.set.RetryMin
	for attempt := 1; ; attempt++ {
		g.mu.Lock()
		sc := u.cfg
		timeout := time.Duration(orDefault(g.cfg.Options.ConnectTimeout, Duration(30*time.Second)))
		g.mu.Unlock()
		start := time.Now()
		err := Connect(ctx, g.pool, u.name, sc, timeout)
		if first != nil {
			first.Done()
			first = nil
		}
		if ctx.Err() != nil {
			_ = g.pool.Close(u.name)
			return
		}
		if err == nil {
			g.log.Info("server connected", "server", u.name, "attempt", attempt, "ms", time.Since(start).Milliseconds())
			select {
			case <-g.pool.Done(u.name):
				g.log.Warn("server disconnected; reconnecting", "server", u.name, "retry_in", backoff)
			case <-ctx.Done():
				_ = g.pool.Close(u.name)
				return
			}
			if time.Since(start) > 2*g.set.RetryMax {
				backoff = g.set.RetryMin // it was up for a good while: start over
			}
		} else {
			g.log.Warn("server failed to start", "server", u.name, "attempt", attempt, "err", err, "retry_in", backoff)
		}
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return
		}
		backoff = min(2*backoff, g.set.RetryMax)
	}
}

// mcpSchemaProblem says why an input schema cannot be listed over MCP,
// which wants an object schema ({"type":"object", ...}), or "".
func mcpSchemaProblem(schema json.RawMessage) string {
	if len(schema) == 0 {
		return ""
	}
	var s struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return "its input schema is not a JSON object"
	}
	if s.Type != "object" {
		return `its input schema's type is not "object", as MCP requires`
	}
	return ""
}
