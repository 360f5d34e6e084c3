package tsanthropic_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

// claudeCode332Recording is testdata/claude_code_2.1.332_e2e_slack.json:
// the requests Claude Code 2.1.332 sent in one conversation with one MCP
// server, for two models, trimmed to what concerns deferred tools (its
// "source" says how it was recorded).
type claudeCode332Recording struct {
	Source string              `json:"source"`
	Script [][]json.RawMessage `json:"script"`
	Models map[string]struct {
		Requests []struct {
			Request int `json:"request"`
			Tools   []struct {
				Name         string `json:"name"`
				DeferLoading bool   `json:"defer_loading"`
			} `json:"tools"`
			Announcements []struct {
				Role      string `json:"role"`
				InBlock   bool   `json:"in_system_reminder_block"`
				Paragraph string `json:"paragraph"`
			} `json:"deferred_tools_announcements"`
			Messages []json.RawMessage `json:"messages_after_prompt"`
		} `json:"requests"`
		ToolSearch  json.RawMessage `json:"toolsearch_definition"`
		Placeholder json.RawMessage `json:"placeholder_definition"`
	} `json:"models"`
}

// claudeCode332Registry holds the tools of the recorded conversation:
// Claude Code's built-in tools (the loaded ones and the deferred ones of
// the model's announcement) and the slack server's four tools (pinned_tool
// with anthropic/alwaysLoad, hinted_tool with anthropic/searchHint). The
// recording keeps no descriptions; these are written so that the
// recorded queries rank the tools as Claude Code did.
func claudeCode332Registry(t *testing.T, deferred []string) *toolsearch.Registry {
	t.Helper()
	var tools []toolsearch.Tool
	for _, n := range []string{"Agent", "Bash", "Edit", "ListAgents", "Read", "ReportFindings", "ScheduleWakeup", "Skill", "Workflow", "Write"} {
		tools = append(tools, toolsearch.Tool{Name: n, Description: "The built-in " + n + "."})
	}
	descriptions := map[string]toolsearch.Tool{
		"EnterWorktree": {Description: "Enter a worktree with this tool.", SearchHint: "worktree tool"},
		"CronCreate":    {Description: "Create a pinned cron job with this tool."},
		"ExitWorktree":  {Description: "Leave the worktree with this tool: please find what everyone knows about it, so that you can also release it today or tomorrow, and for me."},
		"NotebookEdit":  {Description: "Edit a notebook cell with this tool."},
		"SendMessage":   {Description: "Send a message to a teammate: please use it so that everyone on the team knows about a release, today and tomorrow; it can find me."},
		"TaskCreate":    {Description: "Create a task for the team so that everyone knows about the release today and tomorrow."},
	}
	for _, n := range deferred {
		if strings.HasPrefix(n, "mcp__") {
			continue
		}
		d, ok := descriptions[n]
		if !ok {
			d.Description = "Built-in " + n + "."
		}
		tools = append(tools, toolsearch.Tool{Name: n, Description: d.Description, SearchHint: d.SearchHint, ShouldDefer: true})
	}
	tools = append(tools,
		toolsearch.NewMCPTool("slack", "send_message", "Send a message to a Slack channel.",
			json.RawMessage(`{"type":"object","properties":{"channel":{"type":"string"},"text":{"type":"string"}},"required":["channel","text"]}`), nil),
		toolsearch.NewMCPTool("slack", "list_channels", "List Slack channels.", nil, nil),
		toolsearch.NewMCPTool("slack", "pinned_tool", "A tool that is always loaded.", nil, map[string]any{"anthropic/alwaysLoad": true}),
		toolsearch.NewMCPTool("slack", "hinted_tool", "A tool with a search hint.", nil, map[string]any{"anthropic/searchHint": "frobnicate pins"}),
	)
	reg, err := toolsearch.NewRegistry(nil, tools...)
	require.NoError(t, err)
	return reg
}

// claudeCode332Differences are the deliberate differences in the messages
// (the README's differences table lists them for the 2.1.332 profile).
// The order of the tools is checked apart: compared as sets, and the ones
// with defer_loading in order.
var claudeCode332Differences = []claudeCodeDifference{
	claudeCodeDifferences[0], // cache_control
	claudeCodeDifferences[1], // a string tool_result content is one text block
	{
		what: `the answer to select:mcp__slack__list_channels,Read,Nope ends with the text block "No tool named \"Nope\"."`,
		why:  "select: reports the names it did not find (Claude Code drops them silently), so that the model learns its mistake; the model's words are quoted and stay inside the tool result",
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

// TestClaudeCode332Wire replays the recorded conversation for each model
// through a Session of the ClaudeCode2_1_332 profile, ToolResults and the
// real SDK client against the scripted model, and compares each request
// with Claude Code's: the tools (as a set), the ones with defer_loading
// (in order), the ToolSearch and DeferredToolPlaceholder definitions, the
// announcement's text and role, and every message after the prompt (the
// tool_result blocks and the texts after them), byte for byte once both
// are encoded the same way, after the deliberate differences above.
func TestClaudeCode332Wire(t *testing.T) {
	b, err := os.ReadFile("testdata/claude_code_2.1.332_e2e_slack.json")
	require.NoError(t, err)
	var rec claudeCode332Recording
	require.NoError(t, json.Unmarshal(b, &rec))
	require.NotEmpty(t, rec.Source)
	require.Len(t, rec.Script, 9)
	models := map[string]toolsearch.ModelTraits{
		"claude-sonnet-4-5": {},                     // <system-reminder> user texts, "Tool loaded."
		"fable-5-2":         {SystemMessages: true}, // system messages, no "Tool loaded."
	}
	for name, traits := range models {
		t.Run(name, func(t *testing.T) {
			want := rec.Models[name]
			require.Len(t, want.Requests, 9)
			first := want.Requests[0].Announcements[0]
			deferred := strings.Split(strings.TrimSuffix(first.Paragraph, "\n</system-reminder>"), "\n")[1:]
			reg := claudeCode332Registry(t, deferred)

			var script []toolsearchtest.Turn
			for i, turn := range rec.Script {
				content := make([]string, len(turn))
				for j, c := range turn {
					content[j] = string(c)
				}
				stop := "tool_use"
				if i == len(rec.Script)-1 {
					stop = "end_turn"
				}
				script = append(script, message(fmt.Sprintf("msg_%d", i+1), stop, content...))
			}
			model := toolsearchtest.NewServer(script...)
			defer model.Close()
			conv := newSession(t, reg, &toolsearch.SessionOptions{Search: toolsearch.SearchOptions{
				Profile: toolsearch.ClaudeCode2_1_332, Model: traits}})
			prompt := anthropic.NewTextBlock("Post 't' to channel c.")
			// The MCP server's own result, as Claude Code sent it.
			var last struct {
				Content []struct {
					Content []struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"content"`
			}
			msgsAfter := want.Requests[len(want.Requests)-1].Messages
			require.NoError(t, json.Unmarshal(msgsAfter[len(msgsAfter)-1], &last))
			converse(t, conv, model.URL, len(rec.Script), func(ann toolsearch.Announcement) []anthropic.MessageParam {
				require.Equal(t, traits.SystemMessages, ann.System)
				if ann.System {
					// A paragraph of the system message that follows the
					// prompt (the recording elides the system text's other
					// paragraphs, and so does this one).
					return []anthropic.MessageParam{anthropic.NewUserMessage(prompt), {OfSystem: &anthropic.SystemMessageParam{
						Content: []anthropic.TextBlockParam{{Text: "[system text other than the deferred-tools paragraph omitted]\n\n" + ann.Text}}}}}
				}
				// A <system-reminder> text before the prompt, in the first
				// user message.
				return []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(ann.Text), prompt)}
			}, last.Content[0].Content[0].Text)

			reqs := model.Requests()
			require.Len(t, reqs, len(want.Requests))
			applied := make([]int, len(claudeCode332Differences))
			for i, w := range want.Requests {
				var got struct {
					Tools    []json.RawMessage `json:"tools"`
					Messages []json.RawMessage `json:"messages"`
				}
				require.NoError(t, json.Unmarshal(reqs[i].Body, &got))

				// Tools: the same names (the order differs: here the loaded
				// tools come first, then ToolSearch, then the discovered
				// ones), the same ones with defer_loading in the same order,
				// and ToolSearch and the placeholder as Claude Code defines
				// them.
				var gotNames, wantNames, gotDeferred, wantDeferred []string
				for _, raw := range got.Tools {
					var tl struct {
						Name         string `json:"name"`
						DeferLoading bool   `json:"defer_loading"`
					}
					require.NoError(t, json.Unmarshal(raw, &tl))
					gotNames = append(gotNames, tl.Name)
					if tl.DeferLoading {
						gotDeferred = append(gotDeferred, tl.Name)
					}
					switch tl.Name {
					case toolsearch.ToolSearchName:
						assert.Equal(t, canonicalJSON(t, want.ToolSearch), canonicalJSON(t, raw), "request %d: ToolSearch", w.Request)
					case "DeferredToolPlaceholder":
						assert.Equal(t, canonicalJSON(t, want.Placeholder), canonicalJSON(t, raw), "request %d: the placeholder", w.Request)
					}
				}
				for _, tl := range w.Tools {
					wantNames = append(wantNames, tl.Name)
					if tl.DeferLoading {
						wantDeferred = append(wantDeferred, tl.Name)
					}
				}
				slices.Sort(gotNames)
				slices.Sort(wantNames)
				assert.Equal(t, wantNames, gotNames, "request %d: tool names", w.Request)
				assert.Equal(t, wantDeferred, gotDeferred, "request %d: tools with defer_loading", w.Request)

				// The announcement: for the model of user texts, the first
				// block of the first user message, a <system-reminder> block
				// (the recording keeps its paragraph, after the block's
				// opening line); for the other, the first message after the
				// prompt, whose role is system.
				require.Len(t, w.Announcements, 1)
				a := w.Announcements[0]
				var m0 struct {
					Content []struct {
						Text string `json:"text"`
					} `json:"content"`
				}
				require.NoError(t, json.Unmarshal(got.Messages[0], &m0))
				if a.InBlock {
					assert.Equal(t, "user", a.Role)
					assert.Equal(t, "<system-reminder>\n"+a.Paragraph, m0.Content[0].Text, "request %d: announcement", w.Request)
				} else {
					assert.Equal(t, "system", a.Role)
					var sys struct {
						Role    string `json:"role"`
						Content []struct {
							Text string `json:"text"`
						} `json:"content"`
					}
					require.NoError(t, json.Unmarshal(got.Messages[1], &sys))
					assert.Equal(t, "system", sys.Role)
					assert.True(t, strings.HasSuffix(sys.Content[0].Text, "\n\n"+a.Paragraph), "request %d: announcement %q", w.Request, sys.Content[0].Text)
				}

				// Every message after the prompt.
				after := got.Messages[1:]
				require.Len(t, after, len(w.Messages), "request %d: messages after the prompt", w.Request)
				for j, wm := range w.Messages {
					var m map[string]any
					require.NoError(t, json.Unmarshal(wm, &m))
					for k, d := range claudeCode332Differences {
						applied[k] += d.apply(m)
					}
					wb, err := json.Marshal(m)
					require.NoError(t, err)
					assert.Equal(t, canonicalJSON(t, wb), canonicalJSON(t, after[j]),
						"request %d, message %d after the prompt (%s)", w.Request, j+1, m["role"])
				}
			}
			for k, d := range claudeCode332Differences {
				assert.Positive(t, applied[k], "difference %q no longer applies: remove it (and from README)", d.what)
			}

			// Resume: Claude Code's own history of the last request (a
			// system message included) rebuilds the live session's
			// discovered set.
			history, err := json.Marshal(want.Requests[len(want.Requests)-1].Messages)
			require.NoError(t, err)
			resumed := newSession(t, reg, &toolsearch.SessionOptions{Search: toolsearch.SearchOptions{Profile: toolsearch.ClaudeCode2_1_332, Model: traits}})
			skipped, err := resumed.Session.Resume(history)
			require.NoError(t, err)
			require.Empty(t, skipped)
			assert.Equal(t, conv.Snapshot().Discovered, resumed.Snapshot().Discovered, "resumed from Claude Code's history")
		})
	}
}
