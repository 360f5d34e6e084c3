package gateway

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

// This file is the gateway's only contact with the MCP client adapter
// (package mcphub and its go-sdk side, tsmcpsdk): everything else talks to
// the Pool interface, so that moving to another adapter is a change to this
// file alone.

// Pool is the set of upstream MCP client sessions, one per server name.
// Its listings go into the registry given to NewPool (the staging
// registry: every tool as listed, before the gateway's pins are applied).
// A pool is safe for concurrent use.
type Pool interface {
	// Connect connects to server over t, marks it pending, lists all its
	// tools into the staging registry and marks it connected. Afterwards
	// the tools are listed again on each notifications/tools/list_changed.
	// A failure leaves the server disconnected and detached: Connect may
	// be called again for the same name.
	Connect(ctx context.Context, server string, t mcp.Transport) error
	// Done is closed once the connected server's session has ended (it
	// died, hung past a ping, or Close was called) and the server is
	// marked disconnected.
	Done(server string) <-chan struct{}
	// Refresh lists the server's tools again, now.
	Refresh(ctx context.Context, server string) error
	// Close ends the server's session; the name can be connected again.
	Close(server string) error
	// Call calls a tool of server; params.Name is the tool's raw upstream
	// name, and params.Meta (the progress token) is sent as it is. The
	// result is the server's, untouched.
	Call(ctx context.Context, server string, params *mcp.CallToolParams) (*mcp.CallToolResult, error)
}

// PoolHooks tell the gateway what happens upstream. They may be called from
// any goroutine, one at a time per server and in order for Listed and
// Status; they must not call Close or Refresh.
type PoolHooks struct {
	// Listed follows each (re)listing of a server's tools into the
	// staging registry, with the number of tools the server listed. On a
	// server's first listing it comes before Status reports it connected
	// (the staging registry shows a server's tools once it is connected).
	Listed func(server string, tools int)
	// Status follows each change of a server's status.
	Status func(server string, st toolsearch.ServerStatus)
	// Error reports a problem that does not stop the server (tools it
	// could not register) or one that disconnects it after Connect.
	Error func(server string, err error)
	// Progress receives each notifications/progress an upstream sends.
	Progress func(ctx context.Context, p *mcp.ProgressNotificationParams)
}

// errNotConnected is why a call to a server without a session fails.
var errNotConnected = errors.New("the server is not connected")

// sdkPool is the Pool over an mcphub.Hub whose sessions are go-sdk client
// sessions of one Client (tsmcpsdk).
type sdkPool struct {
	hub      *mcphub.Hub
	sessions tsmcpsdk.Sessions
	client   *mcp.Client
}

// NewPool returns the pool that lists into staging, bounding each listing
// by listTimeout and pinging every server each pingInterval, or never with
// noPing. A zero or negative duration means the hub's default (30 and 15
// seconds).
func NewPool(staging *toolsearch.Registry, h PoolHooks, listTimeout, pingInterval time.Duration, noPing bool) Pool {
	hub := mcphub.New(staging, &mcphub.Options{
		ListTimeout:  listTimeout,
		PingInterval: pingInterval,
		NoPing:       noPing,
		OnError:      h.Error,
		OnStatus:     h.Status,
		OnListed:     h.Listed,
	})
	p := &sdkPool{hub: hub}
	opts := p.sessions.ClientOptions(&mcp.ClientOptions{
		ProgressNotificationHandler: func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
			if h.Progress != nil {
				h.Progress(ctx, req.Params)
			}
		},
	})
	p.client = mcp.NewClient(&mcp.Implementation{Name: "toolsearch-mcp", Version: Version}, opts)
	return p
}

func (p *sdkPool) Connect(ctx context.Context, server string, t mcp.Transport) error {
	return p.hub.Attach(ctx, p.sessions.Dial(server, p.client, t, nil))
}

func (p *sdkPool) Done(server string) <-chan struct{} { return p.hub.Done(server) }

func (p *sdkPool) Close(server string) error { return p.hub.Close(server) }

func (p *sdkPool) Refresh(ctx context.Context, server string) error {
	return p.hub.Refresh(ctx, server)
}

// Call calls the tool on the server's SDK session itself rather than
// through mcphub.Hub.CallTool: the params go upstream as the client sent
// them (with _meta, which carries the progress token), and the result comes
// back as the SDK decoded it, with no conversion to pass it on.
func (p *sdkPool) Call(ctx context.Context, server string, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	cs := tsmcpsdk.ClientSession(p.hub, server)
	if cs == nil {
		return nil, fmt.Errorf("%q: %w", server, errNotConnected)
	}
	return cs.CallTool(ctx, params)
}
