package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPSettings configure the HTTP listener. A zero or negative number or
// duration means that field's default.
type HTTPSettings struct {
	// Tokens, if set, are required on every MCP request and on /metrics;
	// each token's sessions see only its tools.
	Tokens *Tokens
	// AllowOrigins are the browser origins accepted besides loopback ones
	// (http://localhost:PORT and the like); a request with another Origin
	// header is refused (DNS rebinding, cross-site requests).
	AllowOrigins []string
	// MaxRequestBytes bounds a request body; default 1 MiB.
	MaxRequestBytes int64
	// SessionIdle closes a session after this long without a request;
	// default 30 minutes.
	SessionIdle time.Duration
}

func (hs *HTTPSettings) defaults() {
	hs.MaxRequestBytes = orDefault(hs.MaxRequestBytes, 1<<20)
	hs.SessionIdle = orDefault(hs.SessionIdle, 30*time.Minute)
}

// Handler returns the HTTP handler: MCP over Streamable HTTP at /mcp,
// /healthz, and /metrics when metrics are set. A new session's initialize
// waits for the startup (see Settings.StartupWait); its server/discover
// probe is answered at once, with the error that sends a client of the
// 2026-07-28 protocol to initialize.
func (g *Gateway) Handler(hs HTTPSettings) http.Handler {
	hs.defaults()
	probe := mcp.NewServer(&mcp.Implementation{Name: "toolsearch-mcp", Version: Version}, nil)
	sdk := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		if s, ok := r.Context().Value(sessionKey{}).(*session); ok {
			return s.srv
		}
		return probe // requests of existing sessions: the SDK reads only the protocol versions
	}, &mcp.StreamableHTTPOptions{
		Logger:              g.log,
		SessionTimeout:      hs.SessionIdle,
		MaxRequestBodyBytes: hs.MaxRequestBytes,
	})
	var mcpHandler http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			if initializing(r, hs.MaxRequestBytes) {
				select { // a new session: its instructions and first tool list wait for the startup
				case <-g.startup:
				case <-r.Context().Done():
					return
				}
			}
			s := g.newSession(scopeOf(auth.TokenInfoFromContext(r.Context())), nil)
			r = r.WithContext(context.WithValue(r.Context(), sessionKey{}, s))
		}
		sdk.ServeHTTP(w, r)
	})
	if hs.Tokens != nil {
		mcpHandler = g.counted("auth", auth.RequireBearerToken(hs.Tokens.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(mcpHandler))
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", g.guard(hs, mcpHandler))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"status": "ok", "servers": g.Status()})
	})
	if g.set.Metrics != nil {
		var mh = g.set.Metrics.Handler()
		if hs.Tokens != nil {
			mh = auth.RequireBearerToken(hs.Tokens.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(mh)
		}
		mux.Handle("GET /metrics", mh)
	}
	return mux
}

// initializing reports whether a request without a session is (or may be)
// an initialize, the one that waits for the startup; a server/discover
// probe, which clients bound by a few seconds, is answered at once. The
// body is put back for the SDK, which bounds it at max bytes.
func initializing(r *http.Request, max int64) bool {
	body, err := io.ReadAll(io.LimitReader(r.Body, max+1))
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return true
	}
	var msg struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(body, &msg) != nil || msg.Method == "initialize"
}

// sessionKey carries a new session to the SDK's getServer.
type sessionKey struct{}

// guard refuses, before the SDK reads anything, a request from a browser
// origin that is not allowed and a body declared over the size limit
// (bodies without a length are cut by the SDK at the same limit).
func (g *Gateway) guard(hs HTTPSettings, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !originAllowed(o, hs.AllowOrigins) {
			g.set.Metrics.refused("origin")
			http.Error(w, fmt.Sprintf("Forbidden: Origin %q is not allowed (the gateway accepts loopback origins and those given with --allow-origin)", o), http.StatusForbidden)
			return
		}
		if r.ContentLength > hs.MaxRequestBytes {
			g.set.Metrics.refused("size")
			http.Error(w, fmt.Sprintf("Request Entity Too Large: a body of %d bytes is over this gateway's limit of %d bytes (--max-request-bytes)",
				r.ContentLength, hs.MaxRequestBytes), http.StatusRequestEntityTooLarge)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// counted counts the requests next refuses with 401 or 403 as reason.
func (g *Gateway) counted(reason string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(cw, r)
		if cw.status == http.StatusUnauthorized || cw.status == http.StatusForbidden {
			g.set.Metrics.refused(reason)
		}
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Flush lets the SDK stream through the wrapper.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// originAllowed reports whether a browser origin may talk to the gateway:
// a loopback origin, or one listed.
func originAllowed(origin string, allowed []string) bool {
	if slices.Contains(allowed, origin) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return isLoopbackHost(u.Hostname())
}

// isLoopbackHost reports whether host is localhost or a loopback address.
func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// LoopbackAddr reports whether a listen address (host:port) is on the
// loopback interface only.
func LoopbackAddr(addr string) bool {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if _, err := strconv.Atoi(port); err != nil && port != "" {
		return false
	}
	return isLoopbackHost(host)
}
