// Package gateway is the MCP gateway behind `toolsearch-mcp serve`: it
// connects to the MCP servers of a Claude/Cursor-style config file (the
// upstreams), keeps their tools in a toolsearch Registry, and serves MCP
// clients (the downstream sessions, over stdio or Streamable HTTP) the
// always-loaded tools and ToolSearch, with one toolsearch.Session per client
// session for discovery, the call guard and the scope.
//
// Two registries: the staging one holds every tool as its server listed
// it; the public one, which sessions search, holds only the tools the pins
// approve (see pins.go). Every upstream listing and status change is copied
// from the first to the second, then every session's tool list is brought
// up to date.
package gateway

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch"
)

// Version is the gateway's version, sent as its MCP implementation version.
const Version = "0.1.0"

// Settings configure a Gateway. A zero or negative number or duration
// means that field's default.
type Settings struct {
	// Logger receives the structured log; default slog.Default().
	Logger *slog.Logger
	// Metrics, if set, is updated as the gateway works.
	Metrics *Metrics
	// StartupWait is how long a client's initialize waits for the first
	// attempt of every upstream to end, so that its instructions and the
	// first tool list name their tools; default 10s. Pings and
	// server/discover are answered meanwhile (see ServeStdio and Handler).
	StartupWait time.Duration
	// RetryMin and RetryMax bound the backoff between attempts to start
	// an upstream that failed or went away; defaults 1s and 60s.
	RetryMin, RetryMax time.Duration
	// PingInterval is how often upstreams are pinged; default 15s.
	PingInterval time.Duration
	// MaxResultBytes bounds a forwarded call's result (its content and
	// structured content); default 8 MiB.
	MaxResultBytes int
	// ProgressInterval is the least time between two progress
	// notifications passed on for one call; default 50ms.
	ProgressInterval time.Duration
	// RateLimit and RateBurst bound each session's requests per second;
	// defaults 50 and 100. MaxSessions bounds the sessions served at once;
	// default 4096.
	RateLimit   float64
	RateBurst   int
	MaxSessions int
}

func (s *Settings) defaults() {
	if s.Logger == nil {
		s.Logger = slog.Default()
	}
	s.StartupWait = orDefault(s.StartupWait, 10*time.Second)
	s.RetryMin = orDefault(s.RetryMin, time.Second)
	s.RetryMax = orDefault(s.RetryMax, 60*time.Second)
	s.PingInterval = orDefault(s.PingInterval, 15*time.Second)
	s.MaxResultBytes = orDefault(s.MaxResultBytes, 8<<20)
	s.ProgressInterval = orDefault(s.ProgressInterval, 50*time.Millisecond)
	s.RateLimit = orDefault(s.RateLimit, 50)
	s.RateBurst = orDefault(s.RateBurst, 100)
	s.MaxSessions = orDefault(s.MaxSessions, 4096)
}

// orDefault returns v, or def when v is zero or negative.
func orDefault[T int | int64 | float64 | time.Duration | Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Gateway connects upstream MCP servers and serves downstream sessions. It
// is safe for concurrent use.
type Gateway struct {
	set      Settings
	log      *slog.Logger
	staging  *toolsearch.Registry
	public   *toolsearch.Registry
	pool     Pool
	strategy toolsearch.Strategy
	// searchBase is ToolSearch's own description (the strategy's).
	searchBase string
	progress   progressRoutes
	tools      toolCache

	life    context.Context
	stop    context.CancelFunc
	startup chan struct{} // closed when every first attempt ended, or StartupWait passed
	kick    chan struct{} // capacity 1: the sessions' tool lists are out of date

	mu       sync.Mutex
	cfg      *Config
	state    *StateFile // nil: no pinning
	ups      map[string]*upstream
	held     map[string]map[string]HeldTool // server → raw name → held tool
	sessions map[*session]struct{}
	wg       sync.WaitGroup
}

// New returns a gateway for cfg; Start starts its upstreams. state is the
// pin state file, or nil for no pinning.
func New(cfg *Config, state *StateFile, set Settings) (*Gateway, error) {
	set.defaults()
	strategy, err := toolsearch.ParseStrategy(cfg.Options.Strategy)
	if err != nil {
		return nil, err
	}
	if state != nil {
		if _, err := state.Load(); err != nil {
			return nil, err
		}
	}
	g := &Gateway{set: set, log: set.Logger, staging: &toolsearch.Registry{}, public: &toolsearch.Registry{},
		strategy: strategy, cfg: cfg, state: state, ups: map[string]*upstream{},
		held: map[string]map[string]HeldTool{}, sessions: map[*session]struct{}{},
		startup: make(chan struct{}), kick: make(chan struct{}, 1)}
	g.searchBase = toolsearch.NewSearcher(g.public, &toolsearch.SearchOptions{Strategy: strategy}).ToolDefinition().Description
	g.life, g.stop = context.WithCancel(context.Background())
	g.pool = NewPool(g.staging, PoolHooks{
		Listed:   g.listed,
		Status:   g.syncStatus,
		Error:    func(server string, err error) { g.log.Warn("upstream problem", "server", server, "err", err) },
		Progress: g.progress.forward,
	}, time.Duration(orDefault(cfg.Options.ConnectTimeout, Duration(30*time.Second))), set.PingInterval, false)
	g.progress.interval = set.ProgressInterval
	return g, nil
}

// Start starts every enabled upstream at once, in the background, and the
// work that keeps sessions up to date. It returns at once.
func (g *Gateway) Start() {
	g.mu.Lock()
	cfg := g.cfg
	var first sync.WaitGroup
	for _, name := range cfg.Names {
		g.startLocked(name, cfg.Servers[name], &first)
	}
	g.mu.Unlock()
	g.wg.Go(g.syncSessions)
	g.wg.Go(func() {
		done := make(chan struct{})
		go func() { first.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(g.set.StartupWait):
			g.log.Info("startup wait over: serving while some servers still start", "wait", g.set.StartupWait)
		case <-g.life.Done():
		}
		close(g.startup)
	})
}

// Close stops every upstream and waits for them.
func (g *Gateway) Close() {
	g.stop()
	g.mu.Lock()
	ups := slices.Collect(maps.Values(g.ups))
	g.mu.Unlock()
	for _, u := range ups {
		<-u.done
	}
	g.wg.Wait()
}

// Reload applies a new configuration: servers that were removed, disabled
// or whose entry changed are stopped (a changed one is started again), new
// ones are started; the others and every session keep running. Options
// other than the servers' apply to sessions that start afterwards, except
// the mode and the strategy, which are fixed when the gateway starts.
func (g *Gateway) Reload(cfg *Config) {
	g.mu.Lock()
	old := g.cfg
	if old.Options.Mode != cfg.Options.Mode || old.Options.Strategy != cfg.Options.Strategy {
		g.log.Warn("reload: mode and strategy are fixed while the gateway runs; restart it to change them",
			"mode", old.Options.Mode, "strategy", old.Options.Strategy)
		cfg.Options.Mode, cfg.Options.Strategy = old.Options.Mode, old.Options.Strategy
	}
	g.cfg = cfg
	var stopping []*upstream
	for name, u := range g.ups {
		sc, ok := cfg.Servers[name]
		if ok && cfg.Bad[name] == "" && sc.equal(u.cfg) {
			u.cfg = sc // trust may have changed
			continue
		}
		stopping = append(stopping, u)
		delete(g.ups, name)
	}
	g.mu.Unlock()
	for _, u := range stopping {
		u.cancel()
		<-u.done
		g.staging.RemoveServer(u.name)
		g.public.RemoveServer(u.name)
		g.setHeld(u.name, nil)
		g.log.Info("reload: server stopped", "server", u.name)
	}
	g.mu.Lock()
	for _, name := range cfg.Names {
		if _, running := g.ups[name]; !running {
			g.startLocked(name, cfg.Servers[name], nil)
		}
	}
	g.mu.Unlock()
	for _, name := range cfg.Names {
		g.syncServer(name) // trust changes apply at once
	}
	g.changed()
	g.log.Info("reload: config applied", "servers", len(cfg.Names))
}

// ReloadPins reads the pin state again (after the approve command changed
// it) and applies it to every server.
func (g *Gateway) ReloadPins() {
	g.mu.Lock()
	names := slices.Collect(maps.Keys(g.ups))
	g.mu.Unlock()
	for _, n := range names {
		g.syncServer(n)
	}
}

// listed copies a relisting of a connected server to the public registry.
// (The first listing of a connection is copied when the server is marked
// connected: before that the staging registry does not show its tools.)
func (g *Gateway) listed(server string, _ int) {
	if g.staging.ServerStatus(server) == toolsearch.ServerConnected {
		g.syncServer(server)
	}
}

// syncStatus copies server's status to the public registry, and its tools
// first when it is now connected.
func (g *Gateway) syncStatus(server string, st toolsearch.ServerStatus) {
	if st == toolsearch.ServerConnected {
		g.syncServer(server)
	}
	g.public.SetServerStatus(server, st)
	g.set.Metrics.upstream(server, st)
	g.changed()
}

// syncServer copies server's listed tools to the public registry, holding
// back those the pins do not approve. The staging registry shows the tools
// of a connected server only: for another one, nothing is changed.
func (g *Gateway) syncServer(server string) {
	if g.staging.ServerStatus(server) != toolsearch.ServerConnected {
		return
	}
	g.syncServerTools(server)
}

// syncServerTools does syncServer's work.
func (g *Gateway) syncServerTools(server string) {
	var listed []toolsearch.Tool
	for t := range g.staging.Tools() {
		if t.Server == server {
			if why := mcpSchemaProblem(t.InputSchema); why != "" {
				g.log.Warn("tool left out", "server", server, "tool", t.MCPName, "why", why)
				continue
			}
			listed = append(listed, t)
		}
	}
	g.mu.Lock()
	sc, state, holdNew := g.cfg.Servers[server], g.state, g.cfg.Options.HoldNewServers
	g.mu.Unlock()
	approved := listed
	var held map[string]HeldTool
	if state != nil {
		st, err := state.Update(func(st *PinState) bool {
			var changed bool
			approved, changed = st.review(server, listed, sc.Trust == "auto", holdNew)
			return changed
		})
		if err != nil {
			// Without the state nothing can be checked: offer nothing of
			// this server rather than unchecked tools.
			g.log.Error("pin state unusable: the server's tools are held", "server", server, "err", err)
			approved = nil
		} else {
			held = st.Held[server]
		}
	}
	if _, err := g.public.SetServerTools(server, approved); err != nil {
		g.log.Error("registering tools", "server", server, "err", err)
	}
	g.setHeld(server, held)
	g.changed()
}

// setHeld records server's held tools, logging the ones newly held.
func (g *Gateway) setHeld(server string, held map[string]HeldTool) {
	g.mu.Lock()
	before := g.held[server]
	if len(held) == 0 {
		delete(g.held, server)
	} else {
		g.held[server] = held
	}
	total := 0
	for _, h := range g.held {
		total += len(h)
	}
	g.mu.Unlock()
	for raw, h := range held {
		if b, ok := before[raw]; !ok || b.Hash != h.Hash {
			g.log.Warn("tool held until approved", "server", server, "tool", h.Name, "reason", h.Reason,
				"approve", "toolsearch-mcp approve "+h.Name)
		}
	}
	g.set.Metrics.heldTools(total)
}

// heldNotes returns the notes that name the held tools in scope, for a
// ToolSearch result.
func (g *Gateway) heldNotes(scope *toolsearch.Scope) []string {
	g.mu.Lock()
	var lines []string
	for _, tools := range g.held {
		for _, h := range tools {
			if inScope(scope, h.Name) {
				lines = append(lines, h.Name+" ("+h.Reason+")")
			}
		}
	}
	g.mu.Unlock()
	if len(lines) == 0 {
		return nil
	}
	slices.Sort(lines)
	const most = 10
	more := ""
	if len(lines) > most {
		more = fmt.Sprintf(", and %d more", len(lines)-most)
		lines = lines[:most]
	}
	return []string{"Held back until an operator approves them, so not searchable or callable: " +
		strings.Join(lines, ", ") + more + "."}
}

// inScope reports whether scope lets a session see the MCP tool name.
func inScope(scope *toolsearch.Scope, name string) bool {
	if scope == nil {
		return true
	}
	return slices.Contains(scope.Allow, name) || (scope.IncludeDeferred && slices.Contains(scope.Allow, "*"))
}

// changed marks every session's tool list out of date.
func (g *Gateway) changed() {
	select {
	case g.kick <- struct{}{}:
	default:
	}
}

// syncSessions brings the sessions' tool lists up to date after changes,
// one pass for any number of changes that came during the last one.
func (g *Gateway) syncSessions() {
	for {
		select {
		case <-g.life.Done():
			return
		case <-g.kick:
		}
		g.mu.Lock()
		all := slices.Collect(maps.Keys(g.sessions))
		g.mu.Unlock()
		for _, s := range all {
			s.sync()
		}
	}
}

// Status returns the number of servers per status ("connected",
// "pending", "disconnected"), for /healthz.
func (g *Gateway) Status() map[string]int {
	g.mu.Lock()
	names := slices.Collect(maps.Keys(g.ups))
	g.mu.Unlock()
	out := map[string]int{"connected": 0, "pending": 0, "disconnected": 0}
	for _, n := range names {
		out[g.public.ServerStatus(n).String()]++
	}
	return out
}
