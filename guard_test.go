package toolsearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/text"
)

// Point 8: the call guard refuses unknown and out-of-scope tools, checks
// arguments against the schema, and hints at select: for a deferred tool
// that was never loaded.
func TestCheckCall(t *testing.T) {
	cases := []struct {
		name     string
		scope    *Scope
		discover string // a select: query run first
		status   ServerStatus
		tool     string
		args     string
		wantErr  error
		wantMsg  string
		wantArgs string
	}{
		{name: "loaded tool, valid", tool: "Read", args: `{"file_path": "/a"}`, wantArgs: `{"file_path":"/a"}`},
		{name: "loaded tool, missing property", tool: "Read", args: `{}`, wantErr: ErrInvalidArguments,
			wantMsg: "The arguments for Read do not match its schema: missing properties: 'file_path'."},
		{name: "discovered tool, wrong type", discover: "select:WebFetch", tool: "WebFetch", args: `{"url": 1, "prompt": "p"}`,
			wantErr: ErrInvalidArguments, wantMsg: "The arguments for WebFetch do not match its schema: url: expected string, but got number."},
		{name: "deferred tool never loaded, valid arguments", tool: "WebFetch", args: `{"url": "u", "prompt": "p"}`,
			wantArgs: `{"url":"u","prompt":"p"}`},
		{name: "deferred tool never loaded, arguments guessed wrong", tool: "mcp__slack__send_message", args: `{"channel": "x"}`,
			wantErr: ErrSchemaNotLoaded,
			wantMsg: "This tool's schema was not loaded: call ToolSearch with select:mcp__slack__send_message, then retry."},
		{name: "no arguments mean {}", tool: "TaskList", args: ``, wantArgs: `{}`},
		{name: "arguments not JSON", tool: "Read", args: `{"file_path":`, wantErr: ErrInvalidArguments,
			wantMsg: "The arguments for Read are not valid JSON"},
		{name: "trailing data", tool: "Read", args: `{"file_path":"a"} {}`, wantErr: ErrInvalidArguments},
		{name: "unknown tool with a suggestion", tool: "webfetch2", args: `{}`, wantErr: ErrUnknownTool,
			wantMsg: "No tool named webfetch2 is available. Did you mean WebFetch?"},
		{name: "out of scope is unknown", scope: &Scope{Allow: []string{"Read"}}, tool: "WebFetch", args: `{"url":"u","prompt":"p"}`,
			wantErr: ErrUnknownTool, wantMsg: "No tool named WebFetch is available."},
		{name: "deferred tools are outside a plain * scope", scope: &Scope{Allow: []string{"*"}}, tool: "WebFetch", args: `{}`,
			wantErr: ErrUnknownTool},
		{name: "disconnected server", status: ServerDisconnected, tool: "mcp__slack__send_message", args: `{}`,
			wantErr: ErrToolUnavailable, wantMsg: "Tool mcp__slack__send_message is not available: its MCP server slack is disconnected."},
		{name: "pending server", status: ServerPending, tool: "mcp__slack__send_message", args: `{}`,
			wantErr: ErrToolUnavailable, wantMsg: "its MCP server slack is still connecting; try again shortly."},
		{name: "pending server out of scope is unknown", scope: &Scope{Allow: []string{"Read"}}, status: ServerPending,
			tool: "mcp__slack__send_message", args: `{}`, wantErr: ErrUnknownTool, wantMsg: "No tool named mcp__slack__send_message is available."},
		{name: "ToolSearch is not an application tool", tool: "ToolSearch", args: `{"query":"x"}`, wantErr: ErrUnknownTool},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg := smallRegistry(t)
			if tc.status != ServerConnected {
				reg.SetServerStatus("slack", tc.status)
			}
			s := NewSession(reg, &SessionOptions{Search: SearchOptions{Scope: tc.scope}})
			if tc.discover != "" {
				sessionSearch(t, s, tc.discover)
			}
			call, err := s.CheckCall(tc.tool, json.RawMessage(tc.args))
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr, "CheckCall(%s, %s)", tc.tool, tc.args)
				var ce *modelError
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, tc.tool, ce.tool)
				assert.Contains(t, err.Error(), tc.wantMsg)
				assert.Nil(t, call)
				return
			}
			require.NoError(t, err, "CheckCall(%s, %s)", tc.tool, tc.args)
			assert.Equal(t, tc.tool, call.Tool.Name)
			assert.Equal(t, tc.wantArgs, string(call.Arguments))
		})
	}
}

func TestSchemaNotLoadedIsInvalidArguments(t *testing.T) {
	assert.ErrorIs(t, ErrSchemaNotLoaded, ErrInvalidArguments)
}

// The hint goes away once the tool is discovered, and is not given when
// nothing is deferred (ModeNever sends every schema).
func TestCheckCallHintDependsOnDiscovery(t *testing.T) {
	reg := smallRegistry(t)
	s := NewSession(reg, nil)
	_, err := s.CheckCall("WebFetch", json.RawMessage(`{}`))
	require.ErrorIs(t, err, ErrSchemaNotLoaded)
	sessionSearch(t, s, "select:WebFetch")
	_, err = s.CheckCall("WebFetch", json.RawMessage(`{}`))
	require.ErrorIs(t, err, ErrInvalidArguments)
	assert.NotErrorIs(t, err, ErrSchemaNotLoaded, "after discovery")

	never := NewSession(reg, &SessionOptions{Mode: ModeNever})
	_, err = never.CheckCall("WebFetch", json.RawMessage(`{}`))
	assert.NotErrorIs(t, err, ErrSchemaNotLoaded, "with ModeNever the schema was sent")
}

// Validators are compiled once per tool definition, shared by sessions,
// and a lazy schema is loaded once.
func TestValidatorCompiledOnce(t *testing.T) {
	var loads atomic.Int32
	reg, err := NewRegistry(nil, Tool{Name: "Lazy", ShouldDefer: true, LoadSchema: func() (json.RawMessage, error) {
		loads.Add(1)
		return json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`), nil
	}})
	require.NoError(t, err)
	a, b := NewSession(reg, nil), NewSession(reg, nil)
	for range 3 {
		_, err := a.CheckCall("Lazy", json.RawMessage(`{"n":1}`))
		require.NoError(t, err)
		_, err = b.CheckCall("Lazy", json.RawMessage(`{"n":"x"}`))
		require.ErrorIs(t, err, ErrSchemaNotLoaded)
	}
	e := reg.load().named("Lazy")
	v1, err := e.compiledSchema()
	require.NoError(t, err)
	v2, _ := e.compiledSchema()
	assert.Same(t, v1, v2)
	assert.Equal(t, int32(1), loads.Load(), "LoadSchema called once")
}

// TestCheckCallBrokenLazySchema: a lazy schema is held to the registry's
// limits when it is loaded, also for a call: one that is not an object, and
// one that compiles but whose references fan out past MaxSchemaWork (only
// the limits catch it), make the tool unavailable.
func TestCheckCallBrokenLazySchema(t *testing.T) {
	for schema, why := range map[string]string{
		`[1]`:          "not a JSON object",
		anyOfChain(20): "validating one value may apply more than 10000 subschemas",
	} {
		reg, err := NewRegistry(nil, Tool{Name: "Broken", ShouldDefer: true, LoadSchema: func() (json.RawMessage, error) {
			return json.RawMessage(schema), nil
		}})
		require.NoError(t, err)
		_, err = NewSession(reg, nil).CheckCall("Broken", nil)
		require.ErrorIs(t, err, ErrToolUnavailable, schema)
		assert.Contains(t, err.Error(), "Tool Broken cannot be called")
		assert.Contains(t, err.Error(), why)
	}
}

// Point 4: a scope never leaks a tool name through search, select,
// suggestions, errors, announcements or the tool list. The only names an
// output may hold outside the scope are those the model itself sent.
func TestScopeNeverLeaks(t *testing.T) {
	reg := smallRegistry(t)
	scope := &Scope{Allow: []string{"Read", "mcp__github__list_issues", "WebFetch"}}
	var outside []string
	for tool := range reg.Tools() {
		if !allows(scope, tool) {
			outside = append(outside, tool.Name)
		}
	}
	require.Len(t, outside, 9)
	queries := []string{
		"slack", "+slack send", "github issue", "create issue", "mcp__github", "mcp__slack__", "notebook jupyter",
		"web search", "WebSearch", "select:WebSearch", "select:websearch", "select:WebSearc,mcp__github__create_issu",
		"select:mcp__slack__send_message,Read", "select:NotebookEdit", "mcp__jira__create_ticket", "TodoWrite", "todo task list",
		"select:mcp__github__list_issue", "github",
	}
	// The built-in strategies filter by scope while ranking; a strategy of
	// the user's own reports every tool, and the Searcher drops the others.
	strategies := []Strategy{nil, BM25Strategy(nil), HybridStrategy(), everyTool{}}
	for i, format := range []Format{FormatInline, FormatToolReference, FormatFunctions} {
		for _, bridge := range []bool{false, true} {
			st := strategies[(2*i+boolInt(bridge))%len(strategies)]
			s := NewSession(reg, &SessionOptions{Search: SearchOptions{Scope: scope, Strategy: st}, Format: format, CallBridge: bridge})
			check := func(what, out, sent string) {
				for _, n := range outside {
					if strings.Contains(out, n) {
						assert.Contains(t, sent, n, "%s (format %d, bridge %v) reveals %s:\n%s", what, format, bridge, n, out)
					}
				}
			}
			for _, q := range queries {
				args, _ := json.Marshal(map[string]string{"query": q})
				content, after, _ := handle(s, args)
				b, _ := json.Marshal(append(content, after...))
				check("ToolSearch "+q, string(b), q)
			}
			for _, n := range append(slices.Clone(outside), "mcp__slack__send_messag", "Websearch", "TodoWrit") {
				_, err := s.CheckCall(n, json.RawMessage(`{}`))
				require.ErrorIs(t, err, ErrUnknownTool, "CheckCall(%s) in scope %v", n, scope.Allow)
				check("CheckCall "+n, err.Error(), n)
				bridged := `{"name":"` + n + `","arguments":{}}`
				_, err = s.resolveBridgeCall(json.RawMessage(bridged))
				require.ErrorIs(t, err, ErrUnknownTool)
				check("CallTool "+n, err.Error(), n)
			}
			b, _ := json.Marshal(mustTools(t, s))
			check("Tools()", string(b), "")
			check("Announce()", s.Announce().Text, "")
			check("SystemPromptSection()", s.SystemPromptSection(), "")
			check("Discovered()", strings.Join(discovered(s), ","), "")
		}
	}
}

// everyTool is a user Strategy that reports every tool for every query.
type everyTool struct{}

func (everyTool) Name() string          { return "every-tool" }
func (everyTool) Input() StrategyInput  { return StrategyInput{} }
func (everyTool) Index(c *Corpus) Index { return everyToolIndex(c.Len()) }

type everyToolIndex int

func (everyToolIndex) Update(c *Corpus) Index { return everyToolIndex(c.Len()) }

func (n everyToolIndex) Rank(_ context.Context, _ Query, hits []Hit) ([]Hit, []string, error) {
	for i := range int(n) {
		hits = append(hits, Hit{Tool: i, Score: 1})
	}
	return hits, nil, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestScopedSession(t *testing.T) {
	reg := smallRegistry(t)
	s := NewSession(reg, &SessionOptions{Search: SearchOptions{Scope: &Scope{Allow: []string{"Read", "mcp__github__list_issues"}}}})
	assert.Equal(t, []string{"Read", "ToolSearch"}, toolNames(mustTools(t, s)))
	res := sessionSearch(t, s, "github issues")
	assert.Equal(t, 1, res.TotalDeferredTools, "the scope holds one deferred tool")
	require.Len(t, res.Matches, 1)
	assert.Equal(t, "mcp__github__list_issues", res.Matches[0].Name)
	assert.Equal(t, []string{"Read", "ToolSearch", "mcp__github__list_issues"}, toolNames(mustTools(t, s)))

	star := NewSession(reg, &SessionOptions{Search: SearchOptions{Scope: &Scope{Allow: []string{"*"}}}})
	assert.False(t, star.ToolSearchOffered(), "a * scope without IncludeDeferred has no deferred tools")
	assert.Equal(t, []string{"Read", "mcp__jira__create_ticket"}, toolNames(mustTools(t, star)))
	reg.SetServerStatus("linear", ServerPending)
	assert.False(t, star.ToolSearchOffered(), "a pending server cannot bring tools into a * scope without IncludeDeferred")
	all := NewSession(reg, &SessionOptions{Search: SearchOptions{Scope: &Scope{Allow: []string{"*"}, IncludeDeferred: true}}})
	assert.True(t, all.ToolSearchOffered())
	assert.Len(t, deferredNames(all.searcher), 10)
}

// TestHostileNamesAtEveryEntryPoint: a name that no tool can have (a
// megabyte long, or holding invalid UTF-8) is refused at every entry point
// without looking for close names, and every text that reports it quotes
// at most its first 128 bytes, as valid UTF-8.
func TestHostileNamesAtEveryEntryPoint(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	for _, name := range []string{huge, strings.Repeat("y", 4000), "bad\xff\xfename", "\xc3"} {
		label := fmt.Sprintf("%.20q (%d bytes)", name, len(name))
		short := func(what, text string) {
			t.Helper()
			assert.True(t, utf8.ValidString(text), "%s for %s: invalid UTF-8 in %q", what, label, text)
			assert.Less(t, len(text), 400, "%s for %s echoes the name: %.300q", what, label, text)
		}
		s := NewSession(smallRegistry(t), &SessionOptions{CallBridge: true, MaxArgumentBytes: 2 << 20})

		_, err := s.CheckCall(name, json.RawMessage(`{}`))
		require.ErrorIs(t, err, ErrUnknownTool, "CheckCall %s", label)
		short("CheckCall", err.Error())
		if len(name) > maxNameLength {
			assert.Contains(t, err.Error(), "tool names are at most 128 bytes", "refused for its length, before any lookup")
		}
		bridge := json.RawMessage(`{"name":"` + name + `","arguments":{}}`)
		_, err = s.CheckCall(CallToolName, bridge)
		require.ErrorIs(t, err, ErrUnknownTool, "CallTool %s", label)
		short("CallTool", err.Error())

		if len(name) < defaultMaxQueryBytes-len("select:Read,") {
			res, err := s.searcher.Search("select:Read,"+name, 0)
			require.NoError(t, err)
			assert.Equal(t, []string{"Read"}, matchNames(res))
			require.Len(t, res.NotFound, 1)
			short("NotFound", res.NotFound[0])
			if len(name) > maxNameLength {
				assert.Empty(t, res.Suggestions, "no close names are looked for a name no tool can have")
				assert.Empty(t, res.Notes, "and no work is spent on them")
			}
			for _, f := range []Format{FormatInline, FormatToolReference, FormatFunctions} {
				for _, b := range allBlocks(res, f) {
					assert.True(t, utf8.ValidString(b.Text), "select: result in %v", f)
				}
			}
		}

		skipped := s.AddDiscovered(name)
		require.Len(t, skipped, 1)
		require.ErrorIs(t, skipped[0], ErrInvalidName)
		short("AddDiscovered", skipped[0].Error())
		err = s.Restore(SessionState{Discovered: []string{name}})
		require.ErrorIs(t, err, ErrInvalidName)
		short("Restore", err.Error())
		history := `[{"role":"user","content":[{"type":"tool_result","tool_use_id":"gone","content":[{"type":"tool_reference","tool_name":"` + name + `"}]}]}]`
		skipped, err = s.Resume(json.RawMessage(history))
		require.NoError(t, err)
		require.Len(t, skipped, 1)
		require.ErrorIs(t, skipped[0], ErrInvalidName)
		short("Resume", skipped[0].Error())
		assert.Empty(t, discovered(s))
	}
}

// TestServerErrorsAreClipped: the error a lazy schema's loader returns (an
// MCP server's words) reaches the model cut to a few hundred bytes.
func TestServerErrorsAreClipped(t *testing.T) {
	huge := strings.Repeat("the server says ", 100_000) + "\xff"
	reg, err := NewRegistry(nil, Tool{Name: "Lazy", ShouldDefer: true, Description: "lazy",
		LoadSchema: func() (json.RawMessage, error) { return nil, errors.New(huge) }})
	require.NoError(t, err)
	s := NewSession(reg, nil)
	res := sessionSearch(t, s, "select:Lazy")
	require.Len(t, res.Notes, 1)
	assert.Less(t, len(res.Notes[0]), 2*text.MaxClip)
	assert.True(t, utf8.ValidString(res.Notes[0]))
	_, err = s.CheckCall("Lazy", nil)
	require.ErrorIs(t, err, ErrToolUnavailable)
	assert.Less(t, len(err.Error()), 2*text.MaxClip)
}

func TestPrefix(t *testing.T) {
	assert.Equal(t, "ab", text.Prefix("abc", 2))
	assert.Equal(t, "a", text.Prefix("aé", 2), "a character is not cut in two")
	assert.Equal(t, strings.Repeat("\ufffd", 5), text.Prefix(strings.Repeat("\x80", 10), 8),
		"bytes that start no character are replaced; at most 3 are dropped looking for a character's start")
}
