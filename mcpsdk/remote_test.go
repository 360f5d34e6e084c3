package tsmcpsdk_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// TestRemoteSessionsOutliveTheAttachContext attaches servers over the SDK's
// HTTP transports with a context that ends as soon as Attach returns, as a
// caller bounding the start-up does: the SSE transport reads its event
// stream under the context it was connected with, and the session must
// still answer calls and deliver tools/list_changed afterwards (for
// Streamable HTTP this also checks that the SDK still starts its
// standalone stream, which it does only on its own connection type), then
// end on the server's side when the hub closes it.
func TestRemoteSessionsOutliveTheAttachContext(t *testing.T) {
	for _, transport := range []string{"sse", "streamable"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			ended := make(chan *mcp.ServerSession, 1)
			srv := mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "0"}, &mcp.ServerOptions{
				InitializedHandler: func(_ context.Context, req *mcp.InitializedRequest) {
					go func() { _ = req.Session.Wait(); ended <- req.Session }()
				},
			})
			srv.AddTool(objectTool("first", "The first tool"), echo)
			var hs *httptest.Server
			var ct mcp.Transport
			if transport == "sse" {
				hs = httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil))
				ct = &mcp.SSEClientTransport{Endpoint: hs.URL}
			} else {
				hs = httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
				ct = &mcp.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1}
			}
			defer hs.Close()

			reg := &toolsearch.Registry{}
			ev := newEvents()
			servers := newServers(reg, ev.options())
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, servers.ClientOptions(nil))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, err := servers.Connect(ctx, "remote", client, ct, nil)
			cancel()
			require.NoError(t, err, "attach over %s", transport)

			out, err := servers.CallTool(context.Background(), "mcp__remote__first", json.RawMessage(`{"text":"hi"}`))
			require.NoError(t, err, "a call after the attach context ended, over %s", transport)
			assert.Equal(t, `first {"text":"hi"}`, out.Content[0].Text)

			srv.AddTool(objectTool("late", "Added after attach"), echo)
			ev.WaitFor(t, "tools/list_changed over "+transport, func() bool { return slices.Contains(names(reg), "mcp__remote__late") })
			assert.Equal(t, toolsearch.ServerConnected, reg.ServerStatus("remote"))
			assert.Empty(t, ev.Errors())

			require.NoError(t, servers.Close("remote"))
			select {
			case <-ended:
			case <-time.After(10 * time.Second):
				t.Fatalf("the server's session over %s did not end after Close", transport)
			}
		})
	}
}
