package toolsearch

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestShape332(t *testing.T) {
	long := func(n int, s string) string { return strings.Repeat(s, n) }
	forty := strings.TrimSpace(long(40, "w "))
	sel := "select:" + strings.TrimSuffix(long(70, "a,"), ",")
	for _, c := range []struct{ name, in, want string }{
		{"short", "  slack send  ", "  slack send  "},
		{"32 terms kept as they are", strings.TrimSpace(long(32, "w\t")), strings.TrimSpace(long(32, "w\t"))},
		{"the first 32 of 40 terms, single spaces", forty, strings.TrimSpace(long(32, "w "))},
		{"16,384 UTF-16 code units", long(16390, "x"), long(16384, "x")},
		{"units, not bytes", long(16384, "é"), long(16384, "é")},
		{"a pair cut in two is dropped", long(16383, "x") + "😀", long(16383, "x")},
		{"select: keeps its first 64 names", sel, "select:" + strings.TrimSuffix(long(64, "a,"), ",")},
		{"empty names count", "select:" + long(70, ","), "select:" + long(63, ",")},
		{"select: with 64 names", "select:" + strings.TrimSuffix(long(64, "a,"), ","), "select:" + strings.TrimSuffix(long(64, "a,"), ",")},
		{"a select: query is not cut into terms", "select:" + long(40, "a b,"), "select:" + long(40, "a b,")},
	} {
		assert.Equal(t, c.want, shape332(c.in, 32, 64), c.name)
	}
}

// registry332 is a small registry for the 2.1.332 forms: names that
// differ in case, one raw MCP tool name on two servers (one tool always
// loaded), a dotted raw name, and a loaded tool.
func registry332(t *testing.T) *Registry {
	t.Helper()
	r := newRegistry(t, nil)
	require.NoError(t, r.Register(
		Tool{Name: "Read", Description: "Read a file."},
		Tool{Name: "READ", Description: "Read loudly.", ShouldDefer: true},
		Tool{Name: "read", Description: "Read quietly.", ShouldDefer: true},
		Tool{Name: "WebFetch", Description: "Fetch a URL.", ShouldDefer: true},
		NewMCPTool("slack", "send_message", "Send a message to a Slack channel.", nil, nil),
		NewMCPTool("github", "send_message", "Send a message on GitHub.", nil, map[string]any{"anthropic/alwaysLoad": true}),
		NewMCPTool("my.srv", "send.message", "Send a message.", nil, nil),
		NewMCPTool("slack", "pinned_tool", "A tool that is always loaded.", nil, map[string]any{"anthropic/alwaysLoad": true}),
	))
	return r
}

// availableOf returns the tools a ClaudeCode2_1_332 result names as
// already available.
func availableOf(res *Result) []string {
	if res.cc == nil {
		return nil
	}
	return res.cc.available
}

func search332(t *testing.T, s *Searcher, q string) *Result {
	t.Helper()
	res, err := s.Search(q, 0)
	require.NoError(t, err, "Search(%q)", q)
	return res
}

func TestForms332(t *testing.T) {
	r := registry332(t)
	s := NewSearcher(r, &SearchOptions{Profile: ClaudeCode2_1_332})
	s89 := NewSearcher(r, nil)

	// The exact name: the very name first, then ignoring case.
	assert.Equal(t, []string{"Read"}, matchNames(search332(t, s, "Read")))
	assert.Equal(t, []string{"Read"}, matchNames(search332(t, s89, "Read")), "the default profile too (2.1.89 gave the first ignoring case, READ)")
	assert.Equal(t, []string{"READ"}, matchNames(search332(t, s89, "rEaD")), "a spelling of none: the first ignoring case, deferred first")
	assert.Equal(t, []string{"READ"}, matchNames(search332(t, s, "rEaD")))

	// select: a bare MCP tool name gives the tool of every server, loaded
	// or not, in pool order; Claude Code's name for a raw name too.
	res := search332(t, s, "select:send_message")
	assert.Equal(t, []string{"mcp__github__send_message", "mcp__my_srv_" + nameHash("my.srv") + "__send_message_" + nameHash("send.message"),
		"mcp__slack__send_message"}, matchNames(res))
	assert.Empty(t, res.NotFound)
	assert.Equal(t, []string{"mcp__my_srv_" + nameHash("my.srv") + "__send_message_" + nameHash("send.message")},
		matchNames(search332(t, s, "select:send.message")), "the raw name")
	// Names are exact: no case or separator fallback, and a name not found
	// is reported, with close names.
	res = search332(t, s, "select:webfetch,Read")
	assert.Equal(t, []string{"Read"}, matchNames(res))
	assert.Equal(t, []string{"webfetch"}, res.NotFound)
	assert.Contains(t, res.Suggestions["webfetch"], "WebFetch")
	assert.Equal(t, []string{"WebFetch", "Read"}, matchNames(search332(t, s89, "select:webfetch,Read")), "2.1.89: a unique case-insensitive match")
	// More than 64 names: the rest is dropped silently.
	res = search332(t, s, "select:"+strings.Repeat("Nope,", 64)+"Read")
	assert.Empty(t, matchNames(res))
	assert.Equal(t, []string{"Nope"}, res.NotFound[:1])
	assert.Empty(t, res.Notes, "no note about the cut")

	// A query naming a loaded tool: "Already available", after "Tool loaded.".
	res = search332(t, s, "pinned_tool")
	assert.Equal(t, []string{"mcp__slack__pinned_tool"}, availableOf(res))
	_, after := res.Content(FormatToolReference)
	if len(res.Matches) > 0 {
		assert.Equal(t, "Tool loaded.", after[0].Text)
	}
	assert.Equal(t, "<system-reminder>\nAlready available in this conversation: mcp__slack__pinned_tool. Call it directly.\n</system-reminder>", after[len(after)-1].Text)
	assert.Equal(t, "Already available in this conversation: mcp__slack__pinned_tool. Call it directly.", res.Notes[len(res.Notes)-1], "the plain note")
	assert.Contains(t, string(res.JSON()), `"notes":["Already available in this conversation: mcp__slack__pinned_tool. Call it directly."]`)
	assert.Empty(t, availableOf(search332(t, s89, "pinned_tool")), "2.1.89 reports none")
	assert.Empty(t, search332(t, s89, "pinned_tool").Notes)
	assert.Empty(t, availableOf(search332(t, s, "mcp__slack__pinned_tool")), "the exact name form: none")
	res = search332(t, s, "send message")
	assert.Equal(t, []string{"mcp__github__send_message"}, availableOf(res), "the terms joined by '_' name it")

	// Queries longer than 8,192 bytes are answered (cut at 16,384 units).
	res = search332(t, s, "slack "+strings.Repeat("é", 9000))
	assert.Equal(t, "mcp__slack__send_message", res.Matches[0].Name)
	_, err := s89.Search("slack "+strings.Repeat("é", 9000), 0)
	require.ErrorIs(t, err, ErrLimit)
	// and over 32 terms, the first 32: "slack" as the 33rd term counts for nothing.
	res = search332(t, s, strings.Repeat("zz ", 32)+"slack")
	assert.Empty(t, res.Matches)
	assert.Empty(t, res.Notes, "the cut is silent, as in Claude Code")
}

func TestTexts332(t *testing.T) {
	r := registry332(t)
	for i := range 32 {
		r.SetServerStatus(fmt.Sprintf("srv%02d", i), ServerPending)
	}
	r.SetServerStatus("gone", ServerDisconnected)
	var b strings.Builder
	for _, c := range []struct {
		name  string
		model ModelTraits
		query string
	}{
		{"matches", ModelTraits{}, "slack send"},
		{"matches, a model that takes system messages", ModelTraits{SystemMessages: true}, "slack send"},
		{"matches, a model with tool_loaded_text", ModelTraits{SystemMessages: true, ToolLoadedText: true}, "slack send"},
		{"no match, servers pending and disconnected", ModelTraits{}, "xyzzy"},
		{"no match, a loaded tool named", ModelTraits{}, "pinned_tool zzz"},
		{"select: with a name not found", ModelTraits{}, "select:mcp__slack__send_message,Nope"},
	} {
		s := NewSearcher(r, &SearchOptions{Profile: ClaudeCode2_1_332, Model: c.model})
		res := search332(t, s, c.query)
		content, after := res.Content(FormatToolReference)
		fmt.Fprintf(&b, "== %s: %q\n", c.name, c.query)
		for _, x := range content {
			fmt.Fprintf(&b, "content %s %s%s\n", x.Type, x.ToolName, x.Text)
		}
		for _, x := range after {
			fmt.Fprintf(&b, "after   %s\n", x.Text)
		}
		fn, _ := res.Content(FormatFunctions)
		fmt.Fprintf(&b, "functions:\n%s\n", fn[0].Text)
	}
	golden(t, "cc332_results.txt", []byte(b.String()))
}

func TestToolDefinition332(t *testing.T) {
	r := registry332(t)
	var defs []ToolDefinition
	for _, m := range []ModelTraits{{}, {SystemMessages: true}} {
		d := NewSearcher(r, &SearchOptions{Profile: ClaudeCode2_1_332, Model: m}).ToolDefinition()
		defs = append(defs, d)
	}
	assert.Contains(t, defs[0].Description, "Deferred tools appear by name in <system-reminder> messages.")
	assert.Contains(t, defs[1].Description, "Deferred tools appear by name in a message from the system.")
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(defs))
	golden(t, "cc332_toolsearch_definition.json", []byte(b.String()))

	// The input schema takes a number for max_results; the library still
	// wants an integer ≥ 1.
	s := NewSearcher(r, &SearchOptions{Profile: ClaudeCode2_1_332})
	for _, args := range []string{`{"query":"slack","max_results":2}`, `{"query":"slack"}`} {
		_, err := s.Call(json.RawMessage(args))
		require.NoError(t, err, args)
	}
	for _, args := range []string{`{"query":"slack","max_results":2.5}`, `{"query":"slack","max_results":0}`, `{"max_results":2}`, `{"query":"x","other":1}`} {
		_, err := s.Call(json.RawMessage(args))
		require.ErrorIs(t, err, ErrInvalidQuery, args)
	}
}

func TestLoadedDescription332(t *testing.T) {
	r := newRegistry(t, &RegistryOptions{MaxDescriptionBytes: 64 << 10})
	long := strings.Repeat("a", 20000)
	require.NoError(t, r.Register(Tool{Name: "mcp__s__long", Server: "s", MCPName: "long", Description: long},
		Tool{Name: "Long", Description: long, ShouldDefer: true}))
	res := search332(t, NewSearcher(r, &SearchOptions{Profile: ClaudeCode2_1_332}), "select:mcp__s__long,Long")
	assert.Equal(t, strings.Repeat("a", 16384)+"… [truncated]", res.Matches[0].Description, "an MCP tool: cut at 16,384")
	assert.Equal(t, long, res.Matches[1].Description, "another tool: whole")
	assert.Contains(t, string(res.JSON()), `"description":"`+strings.Repeat("a", 16384)+`… [truncated]"`)
	res = search332(t, NewSearcher(r, nil), "select:mcp__s__long")
	assert.Equal(t, long, res.Matches[0].Description, "2.1.89: as registered")
}
