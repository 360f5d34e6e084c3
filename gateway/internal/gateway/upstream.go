package gateway

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

// This file is the gateway's only contact with the MCP client adapter
// (package tsmcpsdk): everything else talks to the Pool interface, so that
// moving to another adapter is a change to this file alone.

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
	// name. The result is the server's, untouched.
	Call(ctx context.Context, server string, params *mcp.CallToolParams) (*mcp.CallToolResult, error)
}

// PoolHooks tell the gateway what happens upstream. They may be called from
// any goroutine, one at a time per server and in order for Listed and
// Status; they must not call Close.
type PoolHooks struct {
	// Listed follows each (re)listing of a server's tools into the
	// staging registry, with the number of tools the server listed.
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

// sdkPool is the Pool over tsmcpsdk.Servers and one go-sdk Client.
type sdkPool struct {
	servers *tsmcpsdk.Servers
	client  *mcp.Client
}

// NewPool returns the pool that lists into staging, bounding each listing
// by listTimeout and pinging every server each pingInterval.
func NewPool(staging *toolsearch.Registry, h PoolHooks, listTimeout, pingInterval time.Duration) Pool {
	servers := tsmcpsdk.New(staging, &tsmcpsdk.Options{
		ListTimeout:  listTimeout,
		PingInterval: pingInterval,
		OnError:      h.Error,
		OnStatus:     h.Status,
		OnListed:     h.Listed,
	})
	opts := servers.ClientOptions(&mcp.ClientOptions{
		ProgressNotificationHandler: func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
			if h.Progress != nil {
				h.Progress(ctx, req.Params)
			}
		},
	})
	client := mcp.NewClient(&mcp.Implementation{Name: "toolsearch-mcp", Version: Version}, opts)
	return &sdkPool{servers: servers, client: client}
}

func (p *sdkPool) Connect(ctx context.Context, server string, t mcp.Transport) error {
	_, err := p.servers.Connect(ctx, server, p.client, t, nil)
	return err
}

func (p *sdkPool) Done(server string) <-chan struct{} { return p.servers.Done(server) }

func (p *sdkPool) Close(server string) error { return p.servers.Close(server) }

func (p *sdkPool) Refresh(ctx context.Context, server string) error {
	return p.servers.Refresh(ctx, server)
}

func (p *sdkPool) Call(ctx context.Context, server string, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	cs := p.servers.Session(server)
	if cs == nil {
		return nil, fmt.Errorf("%q: %w", server, errNotConnected)
	}
	return cs.CallTool(ctx, params)
}
