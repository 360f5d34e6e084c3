package tsanthropic_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

// claudeCodeRecording is testdata/claude_code_e2e_slack.json: the requests
// Claude Code 2.1.89 sent to the Messages API in a conversation with one
// MCP server, trimmed to what concerns deferred tools. Its "source" says
// how it was recorded.
type claudeCodeRecording struct {
	Source   string `json:"source"`
	Requests []struct {
		Request int `json:"request"`
		Tools   []struct {
			Name         string `json:"name"`
			DeferLoading bool   `json:"defer_loading"`
		} `json:"tools"`
		Announcement string            `json:"deferred_tools_announcement"`
		Messages     []json.RawMessage `json:"messages_after_prompt"`
	} `json:"requests"`
}

func loadClaudeCodeRecording(t *testing.T) claudeCodeRecording {
	t.Helper()
	b, err := os.ReadFile("testdata/claude_code_e2e_slack.json")
	require.NoError(t, err)
	var rec claudeCodeRecording
	require.NoError(t, json.Unmarshal(b, &rec))
	require.NotEmpty(t, rec.Source)
	require.Len(t, rec.Requests, 5)
	return rec
}

// claudeCodeRegistry holds the tools of the recorded conversation: Claude
// Code's built-in tools (the loaded ones, and the deferred ones its
// announcement lists) and the slack server's four tools (pinned_tool with
// anthropic/alwaysLoad, hinted_tool with anthropic/searchHint). The
// recording keeps no descriptions or schemas; these are written so that
// "slack send" ranks the three deferred slack tools in the recorded order.
func claudeCodeRegistry(t *testing.T) *toolsearch.Registry {
	t.Helper()
	var tools []toolsearch.Tool
	for _, n := range []string{"Agent", "Bash", "Edit", "Glob", "Grep", "Read", "Skill", "Write"} {
		tools = append(tools, toolsearch.Tool{Name: n, Description: "The built-in " + n + " tool."})
	}
	for _, n := range []string{"AskUserQuestion", "CronCreate", "CronDelete", "CronList", "EnterPlanMode", "EnterWorktree",
		"ExitPlanMode", "ExitWorktree", "NotebookEdit", "TaskOutput", "TaskStop", "TodoWrite", "WebFetch", "WebSearch"} {
		tools = append(tools, toolsearch.Tool{Name: n, Description: "The built-in " + n + " tool.", ShouldDefer: true})
	}
	tools = append(tools,
		toolsearch.NewMCPTool("slack", "send_message", "Send a message to a Slack channel.",
			json.RawMessage(`{"type":"object","properties":{"channel":{"type":"string"},"text":{"type":"string"}},"required":["channel","text"]}`), nil),
		toolsearch.NewMCPTool("slack", "list_channels", "List the Slack channels.", nil, nil),
		toolsearch.NewMCPTool("slack", "pinned_tool", "A tool that is always loaded.", nil, map[string]any{"anthropic/alwaysLoad": true}),
		toolsearch.NewMCPTool("slack", "hinted_tool", "A tool with a search hint.", nil, map[string]any{"anthropic/searchHint": "pins"}),
	)
	reg, err := toolsearch.NewRegistry(nil, tools...)
	require.NoError(t, err)
	return reg
}

// canonicalJSON re-encodes v (raw JSON) with sorted keys and no HTML
// escaping, so that two encodings of the same value compare byte for byte.
func canonicalJSON(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(raw, &v), "%s", raw)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return b.String()
}

// claudeCodeDifference is a deliberate difference between what toolsearch
// sends and what Claude Code sent. apply rewrites one of Claude Code's
// messages (decoded JSON) into what toolsearch sends instead, and reports
// how many places it changed; a difference that never applies fails the
// test, so that this list stays true.
type claudeCodeDifference struct {
	what, why string
	apply     func(msg map[string]any) int
}

// claudeCodeDifferences are the deliberate differences in the messages
// (README, "Differences from Claude Code's ToolSearch", lists them too).
// Two more are in the request's tools, checked apart: the order of the
// tools (compared as sets), and ToolSearch's own definition (the recording
// does not keep it).
var claudeCodeDifferences = []claudeCodeDifference{
	{
		what: "cache_control is left out",
		why:  "where to put prompt-cache breakpoints is the application's business, not the tool search's",
		apply: func(msg map[string]any) (n int) {
			for _, b := range blocks(msg) {
				if _, ok := b["cache_control"]; ok {
					delete(b, "cache_control")
					n++
				}
			}
			return n
		},
	},
	{
		what: `a tool_result whose content Claude Code sends as a string is a list of one text block`,
		why:  "the Go SDK sends tool_result content as a list; the API reads a string as one text block",
		apply: func(msg map[string]any) (n int) {
			for _, b := range blocks(msg) {
				if s, ok := b["content"].(string); ok && b["type"] == "tool_result" {
					b["content"] = []any{map[string]any{"type": "text", "text": s}}
					n++
				}
			}
			return n
		},
	},
	{
		what: `the answer to select:mcp__slack__list_channels,Read,Nope holds a text block "No tool named \"Nope\"." after its references`,
		why:  "select: reports the names it did not find (Claude Code drops them silently), so that the model learns its mistake; what the model wrote stays inside the tool result",
		apply: func(msg map[string]any) int {
			c := blocks(msg)
			if len(c) == 0 || c[0]["tool_use_id"] != "toolu_02" {
				return 0
			}
			c[0]["content"] = append(c[0]["content"].([]any), map[string]any{"type": "text", "text": `No tool named "Nope".`})
			return 1
		},
	},
}

// blocks returns the content blocks of a decoded message.
func blocks(msg map[string]any) []map[string]any {
	list, _ := msg["content"].([]any)
	var out []map[string]any
	for _, x := range list {
		if b, ok := x.(map[string]any); ok {
			out = append(out, b)
		}
	}
	return out
}

// TestClaudeCodeWire replays the recorded conversation through a Session,
// ToolResults and the real SDK client against the scripted model, and
// compares each request with Claude Code's: the tools (as a set) and the
// ones with defer_loading (in order), the announcement text, and every
// message after the prompt (every tool_result and the text blocks that
// follow it), byte for byte once both are encoded the same way, after the
// deliberate differences above.
func TestClaudeCodeWire(t *testing.T) {
	rec := loadClaudeCodeRecording(t)

	// The model answers with the assistant messages Claude Code's model
	// sent, then ends.
	var script []toolsearchtest.Turn
	for i := range 4 {
		var m struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		}
		require.NoError(t, json.Unmarshal(rec.Requests[i+1].Messages[2*i], &m))
		require.Equal(t, "assistant", m.Role)
		content := make([]string, len(m.Content))
		for j, c := range m.Content {
			content[j] = string(c)
		}
		script = append(script, message(fmt.Sprintf("msg_%d", i+1), "tool_use", content...))
	}
	script = append(script, message("msg_5", "end_turn", `{"type":"text","text":"Sent."}`))
	model := toolsearchtest.NewServer(script...)
	defer model.Close()
	reg := claudeCodeRegistry(t)
	conv := newSession(t, reg, nil)
	// The announcement goes before the prompt, in the first user message,
	// and stays there in the history; the application's own result is
	// "done", as Claude Code sent it.
	msgs := converse(t, conv, model.URL, 5, func(ann toolsearch.Announcement) []anthropic.MessageParam {
		return []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(ann.Text), anthropic.NewTextBlock("Post 't' to channel c."))}
	}, "done")

	reqs := model.Requests()
	require.Len(t, reqs, 5)
	applied := make([]int, len(claudeCodeDifferences))
	for i, want := range rec.Requests {
		var got struct {
			Tools []struct {
				Name         string `json:"name"`
				DeferLoading bool   `json:"defer_loading"`
			} `json:"tools"`
			Messages []struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"messages"`
		}
		require.NoError(t, json.Unmarshal(reqs[i].Body, &got))
		var raw struct {
			Messages []json.RawMessage `json:"messages"`
		}
		require.NoError(t, json.Unmarshal(reqs[i].Body, &raw))

		// Tools: the same names (ToolSearch's place in the list differs:
		// here the loaded tools come first, then ToolSearch, then the
		// discovered tools, so that a discovery leaves the start of the
		// list unchanged), and the same ones with defer_loading.
		var gotNames, wantNames, gotDeferred, wantDeferred []string
		for _, tl := range got.Tools {
			gotNames = append(gotNames, tl.Name)
			if tl.DeferLoading {
				gotDeferred = append(gotDeferred, tl.Name)
			}
		}
		for _, tl := range want.Tools {
			wantNames = append(wantNames, tl.Name)
			if tl.DeferLoading {
				wantDeferred = append(wantDeferred, tl.Name)
			}
		}
		slices.Sort(gotNames)
		slices.Sort(wantNames)
		assert.Equal(t, wantNames, gotNames, "request %d: tool names", want.Request)
		assert.Equal(t, wantDeferred, gotDeferred, "request %d: tools with defer_loading", want.Request)

		// The announcement: the first block of the first user message.
		require.NotEmpty(t, got.Messages[0].Content)
		assert.Equal(t, want.Announcement, got.Messages[0].Content[0].Text, "request %d: announcement", want.Request)

		// Every message after the prompt.
		after := raw.Messages[1:]
		require.Len(t, after, len(want.Messages), "request %d: messages after the prompt", want.Request)
		for j, w := range want.Messages {
			var m map[string]any
			require.NoError(t, json.Unmarshal(w, &m))
			for k, d := range claudeCodeDifferences {
				applied[k] += d.apply(m)
			}
			wb, err := json.Marshal(m)
			require.NoError(t, err)
			assert.Equal(t, canonicalJSON(t, wb), canonicalJSON(t, after[j]),
				"request %d, message %d after the prompt (%s)", want.Request, j+1, m["role"])
		}
	}
	for k, d := range claudeCodeDifferences {
		assert.Positive(t, applied[k], "difference %q no longer applies: remove it (and from README)", d.what)
	}

	// Resume: Claude Code's own history of the last request, and ours,
	// rebuild the discovered set, and the next request sends the same
	// deferred tools.
	last := rec.Requests[4]
	history, err := json.Marshal(last.Messages)
	require.NoError(t, err)
	fromClaudeCode := newSession(t, reg, nil)
	skipped, err := fromClaudeCode.Session.Resume(history)
	require.NoError(t, err)
	require.Empty(t, skipped)
	fromOurs := newSession(t, reg, nil)
	skipped, err = fromOurs.Resume(msgs)
	require.NoError(t, err)
	require.Empty(t, skipped)
	want := []string{"Read", "mcp__slack__hinted_tool", "mcp__slack__list_channels", "mcp__slack__send_message"}
	assert.Equal(t, want, fromClaudeCode.Snapshot().Discovered, "resumed from Claude Code's history")
	assert.Equal(t, want, fromOurs.Snapshot().Discovered, "resumed from our history")
	assert.Equal(t, conv.Snapshot().Discovered, want, "the live session")
}
