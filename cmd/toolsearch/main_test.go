package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// TestReadmeCommand is the README's first command.
func TestReadmeCommand(t *testing.T) {
	code, out, errs := runCmd(t, "search", "create", "github", "issue")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(out, "\n")
	require.GreaterOrEqual(t, len(lines), 2)
	assert.Contains(t, lines[0], `ranked query "create github issue": 5 match(es)`)
	assert.True(t, strings.HasPrefix(lines[1], " 1. mcp__github__create_issue  score 42"), "first match: %q", lines[1])
}

func TestSearchFormats(t *testing.T) {
	code, out, _ := runCmd(t, "search", "--format", "json", "--max", "2", "slack", "send")
	require.Equal(t, 0, code)
	var res struct {
		Matches []struct{ Name string }
		Query   string
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.Equal(t, "slack send", res.Query)
	require.Len(t, res.Matches, 2)
	assert.Equal(t, "mcp__slack__send_message", res.Matches[0].Name)

	code, out, _ = runCmd(t, "search", "--format", "anthropic", "select:WebFetch,Nope")
	require.Equal(t, 0, code)
	assert.JSONEq(t, `{"role":"user","content":[
		{"type":"tool_result","tool_use_id":"toolu_01","content":[{"type":"tool_reference","tool_name":"WebFetch"},{"type":"text","text":"No tool named \"Nope\"."}]},
		{"type":"text","text":"Tool loaded."}]}`, out, "the tool_result holds the references and the notes; only Tool loaded. follows it")

	code, out, _ = runCmd(t, "search", "--format", "anthropic", "zzzz")
	require.Equal(t, 0, code)
	assert.JSONEq(t, `{"role":"user","content":[
		{"type":"tool_result","tool_use_id":"toolu_01","content":[{"type":"text","text":"No matching deferred tools found"}]}]}`, out)

	code, out, _ = runCmd(t, "search", "--format", "functions", "select:WebFetch")
	require.Equal(t, 0, code)
	assert.True(t, strings.HasPrefix(out, "<functions>\n<function>{\"description\":"), out)

	code, out, _ = runCmd(t, "search", "select:Read,Nope")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "Read  [not deferred]")
	assert.Contains(t, out, "not found: Nope")
}

func TestSearchUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"search"},
		{"search", "--format", "xml", "q"},
		{"search", "--max", "-2", "q"},
		{"search", "--nope", "q"},
		{"frobnicate"},
		{},
	} {
		code, _, errs := runCmd(t, args...)
		assert.Equal(t, 2, code, "args %q", args)
		assert.Contains(t, errs, "usage:", "args %q", args)
	}
}

func TestCatalogErrorsNameFileAndTool(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.json")
	code, _, errs := runCmd(t, "search", "--catalog", missing, "q")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "none.json")

	bad := writeFile(t, "bad.json", `{"tools":[`)
	code, _, errs = runCmd(t, "search", "--catalog", bad, "q")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "bad.json")

	invalid := writeFile(t, "invalid.json", `{"tools":[{"name":"Good"},{"name":"bad tool"},{"name":"S","input_schema":{"$ref":"http://x/y"}}]}`)
	code, _, errs = runCmd(t, "search", "--catalog", invalid, "q")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "invalid.json")
	assert.Contains(t, errs, `"bad tool"`)
	assert.Contains(t, errs, `register "S"`)

	typed := writeFile(t, "typed.json", `{"tools":[{"name":"A"},{"name":"B","description":7}]}`)
	code, _, errs = runCmd(t, "search", "--catalog", typed, "q")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, `tools[1] (name "B", from byte 23): description: byte 49`)
}

func TestBatch(t *testing.T) {
	catalog := writeFile(t, "cat.json", `{"tools":[
		{"name":"Read","should_defer":false},
		{"name":"WebSearch","description":"Search the web.","search_hint":"search the web"},
		{"name":"WebFetch","description":"Fetch a URL."},
		{"name":"mcp__slack__send_message","server":"slack","description":"Send a Slack message."}],
		"queries":[{"query":"ignored"}]}`)
	queries := writeFile(t, "q.json", `["web", {"query":"select:Read,Nope"}, {"query":"slack","max_results":1},
		{"query":"web","max_results":0}, {"query":"web","max_results":2.5}, {"max_results":3}, 7, {"query":"web","max_results":50},
		{"query":"web","max_results":"5"}]`)
	code, out, errs := runCmd(t, "batch", "--catalog", catalog, "--queries", queries)
	require.Equal(t, 0, code, errs)
	var got []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got, 9, "one entry per item, errors included")
	assert.Equal(t, map[string]any{"query": "web", "max_results": 5.0, "matches": []any{"WebSearch", "WebFetch"}, "total_deferred_tools": 3.0}, got[0])
	assert.Equal(t, []any{"Read"}, got[1]["matches"])
	assert.Equal(t, []any{"Nope"}, got[1]["not_found"])
	assert.Equal(t, []any{"mcp__slack__send_message"}, got[2]["matches"])
	assert.Equal(t, 1.0, got[2]["max_results"])
	for _, i := range []int{3, 4, 5, 6, 8} { // 7, over the cap, is lowered
		assert.NotEmpty(t, got[i]["error"], "entry %d: %v", i, got[i])
		assert.NotContains(t, got[i], "matches", "entry %d", i)
	}
	assert.Equal(t, `Invalid ToolSearch input: max_results: must be >= 1 but found 0; expected {"query": string, "max_results"?: integer ≥ 1}`, got[3]["error"],
		"the error a model's call gets")
	assert.Equal(t, `Invalid ToolSearch input: max_results: expected integer, but got string; expected {"query": string, "max_results"?: integer ≥ 1}`, got[8]["error"],
		"a string is not an integer, as in a model's call")
	assert.Equal(t, "5", got[8]["max_results"], "max_results is echoed as written")
	assert.Equal(t, []any{"WebSearch", "WebFetch"}, got[7]["matches"], "over the cap is answered, as a model's call is")
	assert.Equal(t, []any{"max_results 50 was lowered to the limit 20"}, got[7]["notes"], "with the note a model's call gets")
	assert.Equal(t, 50.0, got[7]["max_results"], "max_results is echoed as written")

	code, out, errs = runCmd(t, "batch", "--max-results-cap", "60", "--catalog", catalog, "--queries", queries)
	require.Equal(t, 0, code, errs)
	var raised []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &raised))
	assert.Equal(t, []any{"WebSearch", "WebFetch"}, raised[7]["matches"], "a raised cap answers the query")
	assert.NotContains(t, raised[7], "notes", "without lowering it")

	code, _, errs = runCmd(t, "batch", "--catalog", catalog)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "--queries")
	notArray := writeFile(t, "q2.json", `{"query":"x"}`)
	code, _, errs = runCmd(t, "batch", "--catalog", catalog, "--queries", notArray)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "q2.json")
}

func TestPrompt(t *testing.T) {
	code, out, errs := runCmd(t, "prompt")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "Tools sent with every request (7):")
	assert.Contains(t, out, "  ToolSearch\n")
	assert.Contains(t, out, "The following deferred tools are available via ToolSearch:\n")
	assert.Regexp(t, `All 579 tools loaded: +\d+ characters`, out)
	assert.Regexp(t, `Saving: \d+ characters \(9\d\.\d%\)`, out)
}

// TestInputIsBounded: a catalog, queries or dataset file over
// --max-input-bytes (or a device that never ends, such as /dev/zero) is
// refused with an error naming it, without reading more than the limit.
func TestInputIsBounded(t *testing.T) {
	big := writeFile(t, "big.json", `{"tools":[`+strings.Repeat(" ", 2000)+`]}`)
	small := writeFile(t, "small.json", `{"tools":[{"name":"Read","description":"read"}]}`)
	queries := writeFile(t, "q.json", `["read"`+strings.Repeat(" ", 2000)+`]`)
	for _, args := range [][]string{
		{"search", "--catalog", big, "--max-input-bytes", "1000", "read"},
		{"prompt", "--catalog", big, "--max-input-bytes", "1000"},
		{"batch", "--catalog", small, "--queries", queries, "--max-input-bytes", "1000"},
		{"eval", "--dataset", big, "--max-input-bytes", "1000"},
	} {
		code, _, errs := runCmd(t, args...)
		assert.Equal(t, 1, code, "%v", args)
		assert.Contains(t, errs, "more than 1000 bytes, the limit (raise it with --max-input-bytes)", "%v", args)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		code, _, errs := runCmd(t, "search", "--catalog", "/dev/zero", "--max-input-bytes", "4096", "read")
		assert.Equal(t, 1, code)
		assert.Contains(t, errs, "/dev/zero: more than 4096 bytes")
	}
	code, out, errs := runCmd(t, "search", "--catalog", small, "--max-input-bytes", "1000", "read")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "Read")
}

// TestOutputIsTerminalSafe: a catalog whose texts hold escape sequences
// (set the window title, clear the screen, a carriage return that
// overwrites a line) is printed with them escaped, by every command that
// prints them, on stdout and stderr.
func TestOutputIsTerminalSafe(t *testing.T) {
	hostile := "\x1b]0;pwned\x07\x1b[2J\rforged\u009b"
	catalog := writeFile(t, "c.json", `{"tools":[{"name":"mcp__srv__read","description":"read `+strings.ReplaceAll(strconvQuote(hostile), `"`, "")+`","defer":true}]}`)
	for _, args := range [][]string{
		{"search", "--catalog", catalog, "read"},
		{"prompt", "--catalog", catalog},
		{"search", "--catalog", writeFile(t, "bad.json", `{"tools":[{"name":"`+strings.ReplaceAll(strconvQuote(hostile), `"`, "")+`"}]}`), "read"},
	} {
		_, out, errs := runCmd(t, args...)
		for _, s := range []string{out, errs} {
			assert.NotContains(t, s, "\x1b", "%v", args)
			assert.NotContains(t, s, "\r", "%v", args)
			assert.NotContains(t, s, "\u009b", "%v", args)
		}
		if args[0] == "search" && args[2] == catalog {
			assert.Contains(t, out, `\x1b]0;pwned\x07\x1b[2J\x0dforged\u009b`, "the description is shown, escaped")
		}
	}
}

// strconvQuote is the JSON string of s.
func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
