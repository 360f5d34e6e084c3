package tsmcpsdk_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
	"github.com/toolsearch/toolsearch/mcpsdk/internal/npmtest"
)

// npmServers returns four real npm MCP servers to attach over stdio (two
// instances of server-everything, server-filesystem over a temporary
// directory, server-memory), built anew for each attach.
func npmServers(tb testing.TB) func(s *tsmcpsdk.Sessions, client *mcp.Client) []mcphub.Server {
	tb.Helper()
	everything := npmtest.Server(tb, "server-everything")
	filesystem := npmtest.Server(tb, "server-filesystem")
	memory := npmtest.Server(tb, "server-memory")
	root := tb.TempDir()
	return func(s *tsmcpsdk.Sessions, client *mcp.Client) []mcphub.Server {
		mem := exec.Command("node", memory)
		mem.Env = append(mem.Environ(), "MEMORY_FILE_PATH="+filepath.Join(root, "memory.jsonl"))
		cmds := map[string]*exec.Cmd{
			"everything":  exec.Command("node", everything, "stdio"),
			"everything2": exec.Command("node", everything, "stdio"),
			"filesystem":  exec.Command("node", filesystem, root),
			"memory":      mem,
		}
		var out []mcphub.Server
		for _, name := range slices.Sorted(func(yield func(string) bool) {
			for k := range cmds {
				if !yield(k) {
					return
				}
			}
		}) {
			out = append(out, s.Dial(name, client, &mcp.CommandTransport{Command: cmds[name], TerminateDuration: 500 * time.Millisecond}, nil))
		}
		return out
	}
}

// TestAttachNPMServersTogether attaches the four npm servers with one
// Attach: every one is connected, and a tool of each is routed to it.
func TestAttachNPMServersTogether(t *testing.T) {
	servers := npmServers(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	hub := mcphub.New(nil, nil)
	var sessions tsmcpsdk.Sessions
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, sessions.ClientOptions(nil))
	list := servers(&sessions, client)
	require.NoError(t, hub.Attach(ctx, list...))
	for _, s := range list {
		assert.Equal(t, toolsearch.ServerConnected, hub.Registry().ServerStatus(s.Name), s.Name)
		_ = hub.Close(s.Name) // server-everything is killed after TerminateDuration: Close returns that
		<-hub.Done(s.Name)
	}
}

// BenchmarkAttachNPMServers attaches the four npm servers one after
// another, as before mcphub.Hub.Attach took several servers, and together,
// in one Attach. Closing them is not timed.
//
//	npm ci --prefix mcpsdk/testdata/npm
//	cd mcpsdk && go test -run '^$' -bench AttachNPMServers -benchtime 5x .
func BenchmarkAttachNPMServers(b *testing.B) {
	servers := npmServers(b)
	for _, together := range []bool{false, true} {
		name := "one-after-another"
		if together {
			name = "together"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			ctx := context.Background()
			for b.Loop() {
				hub := mcphub.New(nil, nil)
				var err error
				var sessions tsmcpsdk.Sessions
				client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, sessions.ClientOptions(nil))
				list := servers(&sessions, client)
				if together {
					err = hub.Attach(ctx, list...)
				} else {
					for _, s := range list {
						if err = hub.Attach(ctx, s); err != nil {
							break
						}
					}
				}
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				var closing sync.WaitGroup
				for _, s := range list {
					closing.Go(func() { _ = hub.Close(s.Name) })
				}
				closing.Wait()
				b.StartTimer()
			}
		})
	}
}
