// Package mcphub keeps the tools of MCP servers in a toolsearch.Registry,
// whichever MCP SDK reaches them: the server lifecycle (attach, list every
// page, list again on tools/list_changed, ping, status, close) and the
// routing of tool calls are written here once, and an SDK adapter only
// supplies a Conn, one client session with one server. The adapters of this
// project are tsmcpsdk (github.com/toolsearch/toolsearch/mcpsdk, the
// official Go SDK) and tsmcpgo (github.com/toolsearch/toolsearch/mcpgo,
// mark3labs/mcp-go); servers attached through both to one Hub share its
// registry, and Hub.CallTool routes a call to whichever server owns the
// tool.
//
// The package depends on the standard library and toolsearch only, so that
// both adapters, versioned separately, build on one versioned core.
//
//	hub := mcphub.New(reg, nil)
//	var sdk tsmcpsdk.Sessions
//	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, sdk.ClientOptions(nil))
//	err := hub.Attach(ctx, // started together
//		sdk.Dial("github", client, githubTransport, nil),
//		tsmcpgo.Client("memory", memoryClient, nil))
//	res, err := hub.CallTool(ctx, "mcp__memory__read_graph", nil) // routed to the memory server
//
// # Status
//
// Attach marks a server pending, opens its session, lists every page of its
// tools into the registry and marks it connected. A server is disconnected,
// its tools kept in the registry but no longer offered, when its session
// ends (the Conn reports it with Link.Lost), when Close is called, when it
// does not answer a ping within Options.PingInterval (its session is then
// closed), and when a listing fails for a reason of the server's (an error,
// no complete list within Options.ListTimeout, more pages or tools than
// Options.MaxListPages or Options.MaxListTools). After a failed listing the
// server comes back, connected, with the next listing that succeeds (on
// tools/list_changed or Refresh). Each listing is bounded by
// Options.ListTimeout as well as by the caller's context, and Close ends a
// listing in progress at once.
//
// # Errors
//
// Every error names the server once. Errors returned by Attach, Refresh,
// Close and CallTool start with the call and the server or tool
// (`attach "github": listing tools: …`); the errors given to Options.OnError
// come with the server's name as an argument, and their text does not
// repeat it (`after tools/list_changed: listing tools: …`).
package mcphub
