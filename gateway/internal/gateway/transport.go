package gateway

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Connect connects server to p as configured by sc, within timeout: a
// stdio server is started with its command, arguments, environment (added
// to the gateway's) and working directory, and lives until life ends; a
// remote server is reached over Streamable HTTP, falling back to the
// legacy HTTP+SSE transport when that fails (unless its type says "sse",
// which uses SSE alone), with sc.Headers on every request. The error names
// what failed, with the last line a stdio server wrote to stderr, if any.
func Connect(life context.Context, p Pool, server string, sc ServerConfig, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(life, timeout)
	defer cancel()
	if !sc.Remote() {
		tail := &stderrTail{}
		err := p.Connect(ctx, server, &mcp.CommandTransport{Command: command(life, sc, tail), TerminateDuration: 500 * time.Millisecond})
		return explain(ctx, err, timeout, tail.lastLine())
	}
	hc := &http.Client{Transport: headerTransport{headers: sc.Headers, next: http.DefaultTransport}}
	if sc.Type != "sse" {
		err := p.Connect(ctx, server, &mcp.StreamableClientTransport{Endpoint: sc.URL, HTTPClient: hc, MaxRetries: 2})
		if err == nil || ctx.Err() != nil {
			return explain(ctx, err, timeout, "")
		}
		serr := p.Connect(ctx, server, sseTransport(sc.URL, hc))
		if serr == nil {
			return nil
		}
		return explain(ctx, fmt.Errorf("streamable HTTP: %w; SSE fallback: %w", err, serr), timeout, "")
	}
	return explain(ctx, p.Connect(ctx, server, sseTransport(sc.URL, hc)), timeout, "")
}

// sseTransport is the legacy HTTP+SSE transport to url. (Its event stream
// lives as long as the server stays attached: tsmcpsdk.Sessions.Dial
// bounds only the connecting by the context of Connect.)
func sseTransport(url string, hc *http.Client) mcp.Transport {
	return &mcp.SSEClientTransport{Endpoint: url, HTTPClient: hc}
}

// ErrStartTimeout marks a server that did not list its tools in time.
var ErrStartTimeout = errors.New("no tool list in time")

// explain adds to err what the caller needs to know: the time limit when
// it was reached, the server's last stderr line.
func explain(ctx context.Context, err error, timeout time.Duration, stderr string) error {
	if err == nil {
		return nil
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("%w: no tool list within %s", ErrStartTimeout, timeout)
	}
	if stderr != "" {
		err = fmt.Errorf("%w (stderr: %s)", err, stderr)
	}
	return err
}

// command is the process of a stdio server, killed when life ends.
func command(life context.Context, sc ServerConfig, stderr *stderrTail) *exec.Cmd {
	cmd := exec.CommandContext(life, sc.Command, sc.Args...)
	cmd.Env = os.Environ()
	for _, k := range slices.Sorted(maps.Keys(sc.Env)) {
		cmd.Env = append(cmd.Env, k+"="+sc.Env[k])
	}
	cmd.Dir = sc.Cwd
	cmd.Stderr = stderr
	return cmd
}

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range t.headers {
			r.Header.Set(k, v)
		}
	}
	return t.next.RoundTrip(r)
}

// stderrTail keeps the last bytes a server wrote to stderr, to explain a
// failure.
type stderrTail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2048 {
		t.buf = t.buf[len(t.buf)-2048:]
	}
	return len(p), nil
}

func (t *stderrTail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
