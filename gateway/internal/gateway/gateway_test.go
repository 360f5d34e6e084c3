package gateway

import (
	"flag"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// newTestGateway is a gateway over cfg (no servers started) whose public
// registry holds tools.
func newTestGateway(t *testing.T, cfg string, tools ...toolsearch.Tool) *Gateway {
	t.Helper()
	c, err := ParseConfig([]byte(cfg))
	require.NoError(t, err)
	g, err := New(c, nil, Settings{})
	require.NoError(t, err)
	require.NoError(t, g.public.Register(tools...))
	t.Cleanup(g.Close)
	return g
}

var catalog = []toolsearch.Tool{
	toolsearch.NewMCPTool("github", "create_issue", "Create an issue", nil, nil),
	toolsearch.NewMCPTool("fs", "read_file", "Read a file", nil, nil),
	toolsearch.NewMCPTool("fs", "write_file", "Write a file", nil, nil),
	toolsearch.NewMCPTool("clock", "now", "The time", nil, map[string]any{"anthropic/alwaysLoad": true}),
}

// What the model reads about the deferred tools (the instructions and
// ToolSearch's description) is pinned byte for byte, per mode, and does
// not depend on the order the tools were registered in.
func TestAnnouncementGolden(t *testing.T) {
	var b strings.Builder
	for _, mode := range []string{"dynamic", "bridge"} {
		for _, order := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}} {
			var tools []toolsearch.Tool
			for _, i := range order {
				tools = append(tools, catalog[i])
			}
			g := newTestGateway(t, `{"mcpServers":{},"toolsearch":{"mode":"`+mode+`"}}`, tools...)
			s := g.newSession(nil, nil)
			got := "== " + mode + ": instructions\n" + s.instructions(s.section) + "\n== " + mode + ": listed\n" +
				strings.Join(s.listedNames(), "\n") + "\n== " + mode + ": ToolSearch description\n" + s.fixedDesc + "\n"
			if order[0] == 0 {
				b.WriteString(got)
				continue
			}
			assert.Equal(t, b.String()[strings.LastIndex(b.String(), "== "+mode+": instructions"):], got,
				"%s: the registration order changes nothing", mode)
		}
	}
	path := filepath.Join("testdata", "announcement.golden")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update once")
	assert.Equal(t, string(want), b.String())
}

// A session's scope bounds its announcement and its held-tool notes.
func TestScopedAnnouncementAndHeldNotes(t *testing.T) {
	g := newTestGateway(t, `{"mcpServers":{}}`, catalog...)
	g.setHeld("fs", map[string]HeldTool{"delete": {Name: "mcp__fs__delete", Hash: "h", Reason: reasonChanged}})
	g.setHeld("github", map[string]HeldTool{"push": {Name: "mcp__github__push", Hash: "h", Reason: reasonNewServer}})
	s := g.newSession(&toolsearch.Scope{Allow: []string{"mcp__fs__read_file", "mcp__fs__delete"}}, nil)
	assert.Equal(t, "The following deferred tools are available via ToolSearch:\nmcp__fs__read_file", s.section)
	assert.Equal(t, []string{"Held back until an operator approves them, so not searchable or callable: " +
		"mcp__fs__delete (" + reasonChanged + ")."}, g.heldNotes(s.scope))
	all := g.heldNotes(nil)
	require.Len(t, all, 1)
	assert.Contains(t, all[0], "mcp__github__push ("+reasonNewServer+")")
}

func TestOriginsAndAddresses(t *testing.T) {
	for _, tt := range []struct {
		origin string
		ok     bool
	}{
		{"http://localhost:6274", true},
		{"http://127.0.0.1", true},
		{"https://[::1]:8443", true},
		{"http://evil.example", false},
		{"http://localhost.evil.example", false},
		{"null", false},
		{"https://app.example.com", true}, // listed below
	} {
		assert.Equal(t, tt.ok, originAllowed(tt.origin, []string{"https://app.example.com"}), tt.origin)
	}
	for addr, loop := range map[string]bool{"127.0.0.1:8080": true, "localhost:0": true, "[::1]:1": true,
		"0.0.0.0:8080": false, ":8080": false, "192.168.1.2:80": false, "nonsense": false} {
		assert.Equal(t, loop, LoopbackAddr(addr), addr)
	}
}

func TestBucket(t *testing.T) {
	b := bucket{rate: 2, burst: 3}
	now := time.Unix(0, 0)
	for i := range 3 {
		assert.True(t, b.take(now), "burst token %d", i)
	}
	assert.False(t, b.take(now), "the burst is spent")
	assert.False(t, b.take(now.Add(400*time.Millisecond)), "0.8 tokens refilled")
	assert.True(t, b.take(now.Add(500*time.Millisecond)), "one token after half a second at 2/s")
	later := now.Add(time.Hour)
	for i := range 3 {
		assert.True(t, b.take(later), "refilled token %d", i)
	}
	assert.False(t, b.take(later), "refills stop at the burst")
}

func TestMCPSchemaProblem(t *testing.T) {
	assert.Empty(t, mcpSchemaProblem(nil))
	assert.Empty(t, mcpSchemaProblem([]byte(`{"type":"object","properties":{}}`)))
	assert.Contains(t, mcpSchemaProblem([]byte(`{"properties":{}}`)), `type is not "object"`)
	assert.Contains(t, mcpSchemaProblem([]byte(`{"type":"array"}`)), `type is not "object"`)
	assert.Contains(t, mcpSchemaProblem([]byte(`[1]`)), "not a JSON object")
}

func TestTuneGCLeavesAnExplicitGOGCAlone(t *testing.T) {
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })

	t.Setenv("GOGC", "150")
	TuneGC()
	assert.Equal(t, 100, debug.SetGCPercent(100), "TuneGC with GOGC set should leave the target alone")

	require.NoError(t, os.Unsetenv("GOGC")) // t.Setenv restores it afterwards
	TuneGC()
	assert.Equal(t, GCPercent, debug.SetGCPercent(100), "TuneGC without GOGC should set GCPercent")
}
