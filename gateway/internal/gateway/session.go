package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch"
)

// session is one downstream client session: its own MCP server (so that
// its tool list and its list_changed notifications are its own) over its
// own toolsearch.Session.
type session struct {
	g     *Gateway
	ts    *toolsearch.Session
	srv   *mcp.Server
	mode  Mode
	scope *toolsearch.Scope
	rate  bucket

	section   string // the deferred-tool section when primed: the instructions'
	fixedDesc string // bridge mode: ToolSearch's description, fixed when primed

	mu         sync.Mutex
	listed     map[string]uint64 // name → hash of the definition listed
	registered bool              // counted in g.sessions
}

// seed hashes listed definitions; the hashes never leave the process.
var seed = maphash.MakeSeed()

// instructionsHead opens the server instructions; the deferred tools'
// names follow it.
const instructionsHead = "This server is a gateway to other MCP servers. Their tools are deferred: " +
	"they are listed below by name only, and ToolSearch loads their definitions on demand " +
	"(\"select:NAME\" for exact names, or keywords). "

// newSession returns a session seeing the tools in scope (nil: every
// tool), its tools listed, served on the protocol versions given (none:
// every version the SDK serves). It is served once its server is connected
// to a transport; call it after the startup wait.
func (g *Gateway) newSession(scope *toolsearch.Scope, versions []string) *session {
	g.mu.Lock()
	mode := g.cfg.Options.Mode
	g.mu.Unlock()
	s := &session{g: g, mode: mode, scope: scope, listed: map[string]uint64{}}
	s.rate = bucket{rate: g.set.RateLimit, burst: float64(g.set.RateBurst)}
	s.ts = toolsearch.NewSession(g.public, &toolsearch.SessionOptions{
		Search:     toolsearch.SearchOptions{Scope: scope, Strategy: g.strategy},
		Format:     toolsearch.FormatInline,
		CallBridge: mode == ModeBridge,
	})
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "toolsearch-mcp", Version: Version}, &mcp.ServerOptions{
		Capabilities:              &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
		Logger:                    g.log,
		SupportedProtocolVersions: versions,
	})
	s.srv.AddReceivingMiddleware(s.middleware)
	// Primed before any client is connected, so that the SDK sends no
	// list_changed for the first list.
	s.section = s.ts.SystemPromptSection()
	s.fixedDesc = g.searchDescription(s.section)
	s.ts.Announce() // what the instructions say: later ToolSearch results carry the changes
	s.sync()
	return s
}

// middleware answers what the gateway answers itself: initialize (after
// the startup wait, with the instructions of this moment), tools/call (every
// call goes through the guard, listed or not), the rate limit and the
// session limit; the rest goes to the SDK.
func (s *session) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !s.rate.take(time.Now()) {
			s.g.set.Metrics.refused("rate")
			return nil, &jsonrpc.Error{Code: codeLimit, Message: fmt.Sprintf(
				"rate limit: this session may send at most %g requests per second (bursts of %g); slow down and retry", s.rate.rate, s.rate.burst)}
		}
		switch method {
		case "initialize":
			return s.open(req, func() (mcp.Result, error) { return next(ctx, method, req) })
		case "server/discover": // the 2026-07-28 protocol's handshake
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.DiscoverResult); ok && err == nil && !slices.ContainsFunc(r.SupportedVersions, modern) {
				return nil, legacyOnly(r.SupportedVersions)
			}
			return s.open(req, func() (mcp.Result, error) { return res, err })
		case "tools/call":
			if r, ok := req.(*mcp.CallToolRequest); ok {
				return s.callTool(ctx, r)
			}
		}
		return next(ctx, method, req)
	}
}

// codeLimit is the JSON-RPC error code of a refusal for a limit.
const codeLimit = -32000

// open registers the session (refusing it over MaxSessions) and returns
// answer's result (of initialize or server/discover) with the
// instructions of the deferred set the session was primed with; changes
// since then follow as list_changed.
func (s *session) open(req mcp.Request, answer func() (mcp.Result, error)) (mcp.Result, error) {
	g := s.g
	s.mu.Lock()
	again := s.registered
	s.mu.Unlock()
	if !again { // server/discover may come more than once
		g.mu.Lock()
		if len(g.sessions) >= g.set.MaxSessions {
			g.mu.Unlock()
			g.set.Metrics.refused("sessions")
			return nil, &jsonrpc.Error{Code: codeLimit, Message: fmt.Sprintf(
				"too many sessions: this gateway serves at most %d at once; close idle sessions or retry later", g.set.MaxSessions)}
		}
		g.sessions[s] = struct{}{}
		g.mu.Unlock()
		s.mu.Lock()
		s.registered = true
		s.mu.Unlock()
		g.set.Metrics.sessions(1)
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
			go func() {
				_ = ss.Wait()
				s.end()
			}()
		}
	}
	res, err := answer()
	if err != nil { // the SDK's refusal (a second initialize): its result is a typed nil
		return nil, err
	}
	switch r := res.(type) {
	case *mcp.InitializeResult:
		r.Instructions = s.instructions(s.section)
	case *mcp.DiscoverResult:
		r.Instructions = s.instructions(s.section)
	}
	g.changed() // anything that changed since prime
	return res, err
}

// modern reports whether protocol version v is the 2026-07-28 protocol or
// later (dates compare as strings).
func modern(v string) bool { return v >= "2026-07-28" }

// legacyOnly is the answer to server/discover where only the initialize
// handshake is served (Streamable HTTP with sessions): the error SEP-2575
// prescribes, listing the versions, so that a client falls back to
// initialize instead of taking the discovery for a modern session.
func legacyOnly(versions []string) error {
	data, _ := json.Marshal(mcp.UnsupportedProtocolVersionData{Supported: versions, Requested: "2026-07-28"})
	return &jsonrpc.Error{Code: mcp.CodeUnsupportedProtocolVersion,
		Message: "this endpoint serves the initialize handshake only (protocol versions " + strings.Join(versions, ", ") + ")", Data: data}
}

// end unregisters the session once its client is gone.
func (s *session) end() {
	s.mu.Lock()
	was := s.registered
	s.registered = false
	s.mu.Unlock()
	if was {
		s.g.mu.Lock()
		delete(s.g.sessions, s)
		s.g.mu.Unlock()
		s.g.set.Metrics.sessions(-1)
	}
}

// instructions returns the server instructions for the deferred-tool
// section section; byte-identical for the same section and mode.
func (s *session) instructions(section string) string {
	how := "Tools it returns join your tool list; call them by name."
	if s.mode == ModeBridge {
		how = "Call the tools it returns through CallTool {\"name\", \"arguments\"}."
	}
	if section == "" {
		return instructionsHead + how
	}
	return instructionsHead + how + "\n\n" + section
}

// searchDescription returns ToolSearch's description with the deferred-tool
// section appended; byte-identical for the same section.
func (g *Gateway) searchDescription(section string) string {
	if section == "" {
		return g.searchBase
	}
	return g.searchBase + "\n\n" + section
}

// sync makes the session's listed tools those of s.ts.Tools(): in dynamic
// mode the discovered tools join it and ToolSearch's description follows
// the deferred set; in bridge mode the list is ToolSearch and CallTool
// (and any always-loaded tools), ToolSearch's description fixed. The SDK
// sends notifications/tools/list_changed after a change.
func (s *session) sync() {
	s.mu.Lock()
	defer s.mu.Unlock()
	defs, skipped := s.ts.Tools()
	for _, err := range skipped {
		s.g.log.Warn("tool left out of a session's list", "err", err)
	}
	want := make(map[string]bool, len(defs))
	for _, d := range defs {
		if d.Name == toolsearch.ToolSearchName {
			if s.mode == ModeBridge {
				d.Description = s.fixedDesc
			} else {
				d.Description = s.g.searchDescription(s.ts.SystemPromptSection())
			}
		}
		want[d.Name] = true
		h := defHash(d)
		if old, ok := s.listed[d.Name]; ok && old == h {
			continue
		}
		s.listed[d.Name] = h
		s.srv.AddTool(s.g.mcpTool(d, h), unreachable)
	}
	var gone []string
	for name := range s.listed {
		if !want[name] {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		slices.Sort(gone)
		for _, n := range gone {
			delete(s.listed, n)
		}
		s.srv.RemoveTools(gone...)
	}
}

// unreachable is the SDK handler of every listed tool: the middleware
// answers tools/call before the SDK would call it.
func unreachable(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return nil, fmt.Errorf("internal error: tools/call reached the SDK")
}

// defHash hashes what a definition shows a client.
func defHash(d toolsearch.ToolDefinition) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(d.Name)
	h.WriteByte(0)
	h.WriteString(d.Description)
	h.WriteByte(0)
	h.Write(d.InputSchema)
	return h.Sum64()
}

// mcpTool returns the MCP definition of d, shared by every session that
// lists the same definition (the SDK does not change a listed tool).
func (g *Gateway) mcpTool(d toolsearch.ToolDefinition, h uint64) *mcp.Tool {
	g.tools.mu.Lock()
	defer g.tools.mu.Unlock()
	if t, ok := g.tools.m[h]; ok && t.Name == d.Name {
		return t
	}
	if len(g.tools.m) >= 4096 { // definitions of the past: start afresh
		clear(g.tools.m)
	}
	if g.tools.m == nil {
		g.tools.m = map[uint64]*mcp.Tool{}
	}
	t := &mcp.Tool{Name: d.Name, Description: d.Description, InputSchema: json.RawMessage(d.InputSchema)}
	g.tools.m[h] = t
	return t
}

// toolCache holds the MCP definitions listed by sessions, by defHash.
type toolCache struct {
	mu sync.Mutex
	m  map[uint64]*mcp.Tool
}

// listedNames returns the names the session lists, sorted (for tests).
func (s *session) listedNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.listed))
}

// bucket is a token bucket: rate tokens a second, at most burst.
type bucket struct {
	mu          sync.Mutex
	rate, burst float64
	tokens      float64
	last        time.Time
}

// take takes a token at now, reporting whether there was one.
func (b *bucket) take(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.last.IsZero() {
		b.tokens = b.burst
	} else {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
