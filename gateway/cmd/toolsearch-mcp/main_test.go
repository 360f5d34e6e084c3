package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tiktoken-go/tokenizer"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/gateway/internal/npmtest"
)

// fakeEnv makes the test binary act as an MCP server over stdio (see
// TestMain): "bad" lists one good tool and one with an invalid schema.
const fakeEnv = "TOOLSEARCH_MCP_FAKE_SERVER"

func TestMain(m *testing.M) {
	// A fake server first: it inherits the environment of the gateway
	// that starts it, mainEnv included.
	if os.Getenv(fakeEnv) == "fake" {
		runFakeServer()
	}
	if os.Getenv(mainEnv) == "1" && os.Getenv(fakeEnv) == "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	if os.Getenv(fakeEnv) == "bad" {
		srv := mcp.NewServer(&mcp.Implementation{Name: "bad", Version: "0"}, nil)
		noop := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		}
		srv.AddTool(&mcp.Tool{Name: "ok", Description: "A fine tool", InputSchema: map[string]any{"type": "object"}}, noop)
		srv.AddTool(&mcp.Tool{Name: "broken", Description: "Bad schema", InputSchema: map[string]any{"type": "object",
			"properties": map[string]any{"x": map[string]any{"type": "no-such-type"}}}}, noop)
		if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	switch os.Getenv(fakeEnv) {
	case "hostile": // a description that drives the terminal
		srv := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "0"}, nil)
		srv.AddTool(&mcp.Tool{Name: "zebra", Description: "zebra " + hostileText, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
		if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "dying": // writes to stderr and exits
		os.Stderr.WriteString("fatal " + hostileText + "\n")
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// hostileText sets the terminal's title, clears the screen, and forges a
// report line.
const hostileText = "\x1b]0;pwned\x07\x1b[2J\rTOTAL 0\u009b"

// fakeAs is the config entry that starts the test binary as the fake
// server of that name.
func fakeAs(t *testing.T, name string) map[string]any {
	e := fakeServer(t)
	e["env"] = map[string]string{fakeEnv: name}
	return e
}

// TestServerTextIsTerminalSafe: a server's description and stderr are
// printed with their control characters escaped, in the table, the
// --query lines, the errors and the JSON report.
func TestServerTextIsTerminalSafe(t *testing.T) {
	cfg := writeConfig(t, map[string]any{"hostile": fakeAs(t, "hostile"), "dying": fakeAs(t, "dying")})
	for _, args := range [][]string{{"--query", "zebra"}, {"--query", "zebra", "--json"}} {
		_, out, stderr := runCmd(t, append([]string{"--config", cfg, "--timeout", "20s"}, args...)...)
		for _, s := range []string{out, stderr} {
			assert.NotContains(t, s, "\x1b", "%v", args)
			assert.NotContains(t, s, "\r", "%v", args)
			assert.NotContains(t, s, "\u009b", "%v", args)
		}
		if len(args) == 2 {
			assert.Contains(t, out, `zebra \x1b]0;pwned\x07\x1b[2J\x0dTOTAL 0\u009b`, "the description, escaped")
			assert.Contains(t, out, `fatal \x1b]0;pwned\x07`, "the server's stderr, escaped")
		} else {
			var rep report
			require.NoError(t, json.Unmarshal([]byte(out), &rep), "the JSON stays valid")
			assert.Contains(t, rep.Query.Matches[0].Description, hostileText, "the JSON value is the server's text")
		}
	}
}

// fakeServer is the config entry that starts the test binary as the "bad"
// server.
func fakeServer(t *testing.T) map[string]any {
	exe, err := os.Executable()
	require.NoError(t, err)
	return map[string]any{"command": exe, "args": []string{"-test.run=^$"}, "env": map[string]string{fakeEnv: "bad"}}
}

func writeConfig(t *testing.T, servers map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "mcp.json")
	require.NoError(t, os.WriteFile(p, b, 0o600))
	return p
}

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, io.NopCloser(strings.NewReader("")), nopWriteCloser{&out}, &errb)
	return code, out.String(), errb.String()
}

// nopWriteCloser is a Writer with a Close that does nothing.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

func count(t *testing.T, s string) int {
	t.Helper()
	c, err := tokenizer.Get(tokenizer.O200kBase)
	require.NoError(t, err)
	n, err := c.Count(s)
	require.NoError(t, err)
	return n
}

func TestBadSchemaServerJSON(t *testing.T) {
	cfg := writeConfig(t, map[string]any{"bad": fakeServer(t)})
	code, out, _ := runCmd(t, "--config", cfg, "--json", "--timeout", "20s")
	require.Equal(t, 0, code, out)
	var rep report
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	require.Len(t, rep.Servers, 1)
	s := rep.Servers[0]
	assert.Equal(t, "ok", s.Status)
	assert.Equal(t, 2, s.Tools, "tools/list returned two tools")
	assert.Equal(t, 1, s.Skipped, "the broken schema is skipped")
	assert.Contains(t, s.Problems, `register "mcp__bad__broken"`)
	// The one registered tool, as the provider would receive it.
	def := `{"name":"mcp__bad__ok","description":"A fine tool","input_schema":{"type":"object"}}`
	assert.Equal(t, count(t, def), s.TokensAll)
	assert.Equal(t, count(t, "mcp__bad__ok"), s.TokensDefr)
	assert.Equal(t, "o200k_base (approximation)", rep.Tokenizer)

	// The report is a catalog file: the registered tool, as listed.
	tools, err := toolsearch.ParseCatalog([]byte(out))
	require.NoError(t, err)
	require.Len(t, tools, 1)
	assert.Equal(t, "mcp__bad__ok", tools[0].Name)
	assert.Equal(t, "A fine tool", tools[0].Description)
	assert.Equal(t, "bad", tools[0].Server)
	assert.Equal(t, "ok", tools[0].MCPName)
	assert.JSONEq(t, `{"type":"object"}`, string(tools[0].InputSchema))
	_, err = toolsearch.NewRegistry(nil, tools...)
	assert.NoError(t, err, "the catalog registers")
}

func TestBadSchemaServerTable(t *testing.T) {
	cfg := writeConfig(t, map[string]any{"bad": fakeServer(t)})
	code, out, stderr := runCmd(t, "--config", cfg, "--timeout", "20s")
	require.Equal(t, 0, code, out)
	lines := strings.Split(out, "\n")
	assert.Regexp(t, `^\s*SERVER\s+STATUS\s+TOOLS\s+TOKENS ALL LOADED\s+TOKENS DEFERRED\s+SAVING\s*$`, lines[0])
	assert.Regexp(t, `^\s*bad\s+ok\s+2\s+\d+\s+\d+\s+\d+\s*$`, lines[1])
	assert.Regexp(t, `^\s*TOTAL\s+2\s+\d+\s+\d+\s+-?\d+ \(-?\d+\.\d%\)\s*$`, lines[2])
	assert.Contains(t, out, "approximation of the provider's count")
	assert.Contains(t, out, "bad: 1 of 2 tools skipped:")
	assert.Contains(t, out, "\nTools (--json gives their definitions, as a catalog file):\n  bad: ok\n")
	assert.Contains(t, stderr, "[1/1] bad ✓", "progress goes to stderr")
}

// A --query that matches nothing prints the text the model would get.
func TestQueryWithoutMatches(t *testing.T) {
	cfg := writeConfig(t, map[string]any{"bad": fakeServer(t)})
	code, out, _ := runCmd(t, "--config", cfg, "--timeout", "20s", "--query", "zebra")
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "\nToolSearch \"zebra\": 0 match(es) of 1 deferred tools\n  No matching deferred tools found\n")
}

func TestUsageAndConfigErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		return p
	}
	tests := []struct {
		name    string
		args    []string
		code    int
		wantErr string
	}{
		{"no config flag", nil, 2, "usage: toolsearch-mcp --config FILE"},
		{"missing file", []string{"--config", filepath.Join(dir, "nope.json")}, 2, "no such file"},
		{"not JSON", []string{"--config", write("a.json", "{")}, 2, "config is not valid JSON"},
		{"text after the object", []string{"--config", write("d.json", `{"mcpServers":{}}}`)}, 2, "text after the top-level object"},
		{"no mcpServers", []string{"--config", write("b.json", `{"other":{}}`)}, 2, `config has no "mcpServers" object`},
		{"bad timeout", []string{"--config", write("c.json", `{"mcpServers":{}}`), "--timeout", "0s"}, 2, "--timeout must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			assert.Equal(t, tt.code, code)
			assert.Contains(t, stderr, tt.wantErr)
		})
	}
}

func TestUnusableEntriesAreReported(t *testing.T) {
	cfg := writeConfig(t, map[string]any{
		"remote":  map[string]any{"type": "http", "url": "http://127.0.0.1:1/mcp"},
		"both":    map[string]any{"command": "x", "url": "http://127.0.0.1:1/mcp"},
		"empty":   map[string]any{"args": []string{"x"}},
		"garbled": map[string]any{"command": 3},
	})
	code, out, _ := runCmd(t, "--config", cfg, "--json")
	assert.Equal(t, 1, code)
	var rep report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	got := map[string]string{}
	for _, s := range rep.Servers {
		assert.Equal(t, "error", s.Status)
		got[s.Name] = s.Error
	}
	assert.Contains(t, got["remote"], "connection refused", "a remote server is connected to, and its failure reported")
	assert.Contains(t, got["empty"], `no "command" (or "url") given`)
	assert.Contains(t, got["both"], `both "command" and "url" given`)
	assert.Contains(t, got["garbled"], "bad entry")
}

// listDirectly counts the tools a server's tools/list returns, with a plain
// go-sdk client and no toolsearch code.
func listDirectly(t *testing.T, command string, args []string, env map[string]string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(command, args...)
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 500 * time.Millisecond}, nil)
	require.NoError(t, err)
	defer cs.Close()
	n := 0
	for _, err := range cs.Tools(ctx, nil) {
		require.NoError(t, err)
		n++
	}
	return n
}

func TestThreeNPMServersAndFailures(t *testing.T) {
	everything := npmtest.Server(t, "server-everything")
	memory := npmtest.Server(t, "server-memory")
	filesystem := npmtest.Server(t, "server-filesystem")
	root := t.TempDir()
	memEnv := map[string]string{"MEMORY_FILE_PATH": filepath.Join(root, "memory.jsonl")}
	cfg := writeConfig(t, map[string]any{
		"everything": map[string]any{"command": "node", "args": []string{everything, "stdio"}},
		"memory":     map[string]any{"command": "node", "args": []string{memory}, "env": memEnv},
		"filesystem": map[string]any{"command": "node", "args": []string{filesystem, root}},
		"missing":    map[string]any{"command": "no-such-mcp-server-command-xyz"},
		"hangs":      map[string]any{"command": "sleep", "args": []string{"60"}},
		"bad":        fakeServer(t),
	})
	// 15s: the hanging server costs that long, and node servers can take
	// several seconds to start on a loaded 2-core machine.
	code, out, stderr := runCmd(t, "--config", cfg, "--json", "--timeout", "15s", "--query", "read file")
	assert.Equal(t, 1, code, "some servers failed")
	var rep report
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	rows := map[string]serverReport{}
	for _, s := range rep.Servers {
		rows[s.Name] = s
	}
	require.Len(t, rows, 6)

	// Tool counts equal what tools/list returns to a plain client.
	// (server-everything may register a tool right after initialization;
	// both clients advertise the same capabilities and list after it.)
	for name, want := range map[string]int{
		"everything": listDirectly(t, "node", []string{everything, "stdio"}, nil),
		"memory":     listDirectly(t, "node", []string{memory}, memEnv),
		"filesystem": listDirectly(t, "node", []string{filesystem, root}, nil),
	} {
		r := rows[name]
		assert.Equal(t, "ok", r.Status, "%s: %s", name, r.Error)
		assert.Equal(t, want, r.Tools, "%s tool count", name)
		assert.Positive(t, want, name)
		assert.Zero(t, r.Skipped, name)
		assert.Greater(t, r.TokensAll, r.TokensDefr, "%s: deferring saves tokens", name)
	}
	assert.Equal(t, "error", rows["missing"].Status)
	assert.Contains(t, rows["missing"].Error, "executable file not found")
	assert.Equal(t, "timeout", rows["hangs"].Status)
	assert.Equal(t, "ok", rows["bad"].Status)
	assert.Equal(t, 1, rows["bad"].Skipped)

	// The totals add up.
	sumAll, sumDefr, sumTools := 0, 0, 0
	for _, r := range rep.Servers {
		sumAll += r.TokensAll
		sumDefr += r.TokensDefr
		sumTools += r.Tools
	}
	assert.Equal(t, sumTools, rep.Total.Tools)
	assert.Equal(t, sumAll, rep.Total.TokensAll)
	assert.Equal(t, sumDefr+rep.Total.Overhead, rep.Total.TokensDefr)
	assert.Positive(t, rep.Total.Overhead, "the ToolSearch tool and prompt header cost something")
	assert.Equal(t, rep.Total.TokensAll-rep.Total.TokensDefr, rep.Total.Saving)
	assert.Greater(t, rep.Total.SavingPct, 50.0)

	// The query ran over every connected server's tools.
	require.NotNil(t, rep.Query)
	require.NotEmpty(t, rep.Query.Matches)
	assert.Equal(t, "mcp__filesystem__read_file", rep.Query.Matches[0].Name)
	assert.Equal(t, sumTools-1, rep.Query.TotalDeferredTools, "every listed tool but the broken one is deferred")
	assert.Contains(t, stderr, "[6/6]")
}

// Asking for help is not an error: every form exits 0.
func TestHelpExitsZero(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"serve", "--help"}, {"approve", "--help"}, {"--config", "x.json", "--help"}} {
		code, stdout, stderr := runCmd(t, args...)
		assert.Equal(t, 0, code, "%v", args)
		assert.Contains(t, stdout+stderr, "usage", "%v", args)
	}
	code, _, stderr := runCmd(t, "serve")
	assert.Equal(t, 2, code, "serve without --config is bad usage")
	assert.Contains(t, stderr, "usage: toolsearch-mcp serve --config FILE")
}
