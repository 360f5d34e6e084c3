package tsanthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	tsanthropic "github.com/toolsearch/toolsearch/anthropic"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

var update = flag.Bool("update", false, "rewrite the golden request bodies in testdata/")

// message is a scripted answer: an assistant message with content blocks.
func message(id, stop string, content ...string) toolsearchtest.Turn {
	return toolsearchtest.Raw(fmt.Sprintf(`{"id":%q,"type":"message","role":"assistant","model":"claude-sonnet-5-5","content":[%s],"stop_reason":%q,"stop_sequence":null,"usage":{"input_tokens":100,"output_tokens":20}}`,
		id, join(content), stop))
}

func join(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(x)
	}
	return b.String()
}

// conversation is an agent loop over a scripted model: ToolSearch calls go
// to tsanthropic.ToolResults.Handle, the others to answer.
type conversation struct {
	system string // the system prompt; "" sends none
	turns  int    // the most model calls before the test fails
	// next, when set, runs before each model call (turn counts from 1)
	// and returns the history to send.
	next   func(turn int, msgs []anthropic.MessageParam) []anthropic.MessageParam
	answer func(use anthropic.ToolUseBlock) anthropic.ContentBlockParamUnion
}

// run plays c from msgs until the model stops calling tools, and returns
// the final history.
func (c conversation) run(t *testing.T, client anthropic.Client, conv *tsanthropic.Session, msgs []anthropic.MessageParam) []anthropic.MessageParam {
	t.Helper()
	for turn := 1; turn <= c.turns; turn++ {
		if c.next != nil {
			msgs = c.next(turn, msgs)
		}
		tools, skipped := conv.Tools()
		require.Empty(t, skipped)
		params := anthropic.MessageNewParams{Model: anthropic.ModelClaudeSonnet5_5, MaxTokens: 1024, Messages: msgs, Tools: tools}
		if c.system != "" {
			params.System = []anthropic.TextBlockParam{{Text: c.system}}
		}
		resp, err := client.Messages.New(context.Background(), params)
		require.NoError(t, err)
		msgs = append(msgs, resp.ToParam())
		results := &tsanthropic.ToolResults{}
		for _, b := range resp.Content {
			if b.Type != "tool_use" {
				continue
			}
			use := b.AsToolUse()
			if handle(conv, results, use) {
				continue
			}
			results.Add(c.answer(use))
		}
		msg, ok := results.Message()
		if !ok {
			return msgs
		}
		msgs = append(msgs, msg)
	}
	t.Fatal("the conversation did not end")
	return nil
}

// runConversation plays an agent loop of at most 10 model calls in which
// every tool other than ToolSearch answers "Sunny, 21°C", and returns the
// final history.
func runConversation(t *testing.T, client anthropic.Client, conv *tsanthropic.Session, system string, msgs []anthropic.MessageParam) []anthropic.MessageParam {
	t.Helper()
	return conversation{system: system, turns: 10, answer: func(use anthropic.ToolUseBlock) anthropic.ContentBlockParamUnion {
		return anthropic.NewToolResultBlock(use.ID, "Sunny, 21°C", false)
	}}.run(t, client, conv, msgs)
}

func TestWireConversation(t *testing.T) {
	model := toolsearchtest.NewServer(
		message("msg_1", "tool_use", `{"type":"tool_use","id":"toolu_1","name":"ToolSearch","input":{"query":"forecast"}}`),
		message("msg_2", "tool_use", `{"type":"tool_use","id":"toolu_2","name":"mcp__weather__get_forecast","input":{"city":"Paris"}}`),
		message("msg_3", "tool_use", `{"type":"tool_use","id":"toolu_3","name":"ToolSearch","input":{"query":"select:NoSuchTool"}}`),
		message("msg_4", "tool_use", `{"type":"tool_use","id":"toolu_4","name":"ToolSearch","input":{"query":7}}`),
		message("msg_5", "end_turn", `{"type":"text","text":"It is sunny in Paris, 21°C."}`),
	)
	defer model.Close()
	client := anthropic.NewClient(option.WithBaseURL(model.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	reg := weatherRegistry(t)
	conv := newSession(t, reg, nil)
	system := conv.SystemPromptSection()

	msgs := runConversation(t, client, conv, system, []anthropic.MessageParam{
		anthropic.NewUserMessage(anthropic.NewTextBlock("What is the forecast for Paris?")),
	})
	require.Len(t, msgs, 10, "user, then 5 assistant turns and 4 tool results")

	reqs := model.Requests()
	require.Len(t, reqs, 5)
	for i, r := range reqs {
		assert.Equal(t, "POST", r.Method)
		assert.Equal(t, "/v1/messages", r.Path)
		toolsearchtest.GoldenJSON(t, fmt.Sprintf("testdata/turn%d.json", i+1), r.Body, *update)
	}

	// The points the golden files pin, spelled out.
	var turn [5]struct {
		Tools []struct {
			Name         string `json:"name"`
			DeferLoading *bool  `json:"defer_loading"`
		} `json:"tools"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	for i := range turn {
		require.NoError(t, json.Unmarshal(reqs[i].Body, &turn[i]))
	}
	toolNames := func(i int) (names []string, deferred []string) {
		for _, tl := range turn[i].Tools {
			names = append(names, tl.Name)
			if tl.DeferLoading != nil && *tl.DeferLoading {
				deferred = append(deferred, tl.Name)
			}
		}
		return names, deferred
	}
	names, deferred := toolNames(0)
	assert.Equal(t, []string{"get_time", "ToolSearch"}, names, "turn 1: core tools and ToolSearch only")
	assert.Empty(t, deferred)
	names, deferred = toolNames(1)
	assert.Equal(t, []string{"get_time", "ToolSearch", "mcp__weather__get_forecast"}, names, "turn 2: the discovered tool joins")
	assert.Equal(t, []string{"mcp__weather__get_forecast"}, deferred, "turn 2: the discovered tool has defer_loading")
	assert.JSONEq(t, `[{"type":"tool_result","tool_use_id":"toolu_1","content":[
		{"type":"tool_reference","tool_name":"mcp__weather__get_forecast"}]},{"type":"text","text":"Tool loaded."}]`,
		string(turn[1].Messages[2].Content), "only the reference inside the tool_result; Tool loaded. after it")
	assert.JSONEq(t, `[{"type":"tool_result","tool_use_id":"toolu_2","content":[{"type":"text","text":"Sunny, 21°C"}],"is_error":false}]`,
		string(turn[2].Messages[4].Content))
	assert.JSONEq(t, `[{"type":"tool_result","tool_use_id":"toolu_3","content":[{"type":"text","text":"No matching deferred tools found"},
		{"type":"text","text":"No tool named \"NoSuchTool\"."}]}]`, string(turn[3].Messages[6].Content), "no match: the text and the note inside, nothing after")
	assert.Contains(t, string(turn[4].Messages[8].Content), `"is_error":true`, "a malformed ToolSearch call gets an error result")

	// Resume: a fresh conversation rebuilt from the history sends the same
	// tools as the last turn.
	conv2 := newSession(t, reg, nil)
	skipped, err := conv2.Resume(msgs)
	require.NoError(t, err)
	require.Empty(t, skipped)
	got, skipped := conv2.Tools()
	require.Empty(t, skipped)
	b, err := json.Marshal(got)
	require.NoError(t, err)
	var last struct {
		Tools json.RawMessage `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(reqs[4].Body, &last))
	assert.JSONEq(t, string(last.Tools), string(b))
}

func TestToolParam(t *testing.T) {
	tests := []struct {
		name string
		in   toolsearch.ToolDefinition
		want string
	}{
		{"schema kept as given", toolsearch.ToolDefinition{Name: "a", Description: "A", InputSchema: json.RawMessage(`{"type":"object","anyOf":[{"required":["x"]}],"$defs":{"d":{}}}`)},
			`{"name":"a","description":"A","input_schema":{"type":"object","anyOf":[{"required":["x"]}],"$defs":{"d":{}}}}`},
		{"empty schema is an object", toolsearch.ToolDefinition{Name: "b"}, `{"name":"b","input_schema":{"type":"object"}}`},
		{"deferred", toolsearch.ToolDefinition{Name: "c", Description: "C", InputSchema: json.RawMessage(`{"type":"object"}`), DeferLoading: true},
			`{"name":"c","description":"C","input_schema":{"type":"object"},"defer_loading":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tsanthropic.ToolParam(tt.in))
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(b))
		})
	}
}

// TestHandleErrorIsTheModelsText pins the error convention: a ToolSearch
// call that cannot be answered gets a tool_result with is_error and the
// error's text exactly as toolsearch wrote it, and no text after it.
func TestHandleErrorIsTheModelsText(t *testing.T) {
	reg := weatherRegistry(t)
	for _, args := range []string{`{"query":7}`, `{"query":"x","max_results":0}`, `not json`} {
		conv := newSession(t, reg, nil)
		results := &tsanthropic.ToolResults{}
		require.True(t, handle(conv, results, anthropic.ToolUseBlock{ID: "toolu_9", Name: "ToolSearch", Input: json.RawMessage(args)}))
		_, want := toolsearch.NewSession(reg, nil).Call(json.RawMessage(args))
		require.Error(t, want, "arguments %s", args)
		msg, ok := results.Message()
		require.True(t, ok)
		b, err := json.Marshal(msg.OfUser.Content)
		require.NoError(t, err)
		wantJSON, _ := json.Marshal([]any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_9", "is_error": true,
			"content": []map[string]string{{"type": "text", "text": want.Error()}}}})
		assert.JSONEq(t, string(wantJSON), string(b), "arguments %s", args)
	}
}

func TestHandleIgnoresOtherTools(t *testing.T) {
	conv := newSession(t, weatherRegistry(t), nil)
	results := &tsanthropic.ToolResults{}
	assert.False(t, handle(conv, results, anthropic.ToolUseBlock{ID: "x", Name: "get_time", Input: json.RawMessage(`{}`)}))
	_, ok := results.Message()
	assert.False(t, ok, "nothing was added")
	assert.Empty(t, conv.Snapshot().Discovered)
}

// One assistant message with several tool calls is answered by one user
// message: every tool_result first (ToolSearch's and the application's, in
// the order added), then the texts that follow the ToolSearch results, each
// once, then the application's other blocks.
func TestToolResultsSeveralCalls(t *testing.T) {
	conv := newSession(t, weatherRegistry(t), nil)
	results := &tsanthropic.ToolResults{}
	results.Add(anthropic.NewTextBlock("a note from the application")) // added first, sent last
	require.True(t, handle(conv, results, anthropic.ToolUseBlock{ID: "t1", Name: "ToolSearch", Input: json.RawMessage(`{"query":"select:mcp__weather__get_forecast,Nope"}`)}))
	results.Add(anthropic.NewToolResultBlock("t2", "12:00", false))
	require.True(t, handle(conv, results, anthropic.ToolUseBlock{ID: "t3", Name: "ToolSearch", Input: json.RawMessage(`{"query":"mail"}`)}))
	require.True(t, handle(conv, results, anthropic.ToolUseBlock{ID: "t4", Name: "ToolSearch", Input: json.RawMessage(`{"query":"xyzzy"}`)}))
	require.True(t, handle(conv, results, anthropic.ToolUseBlock{ID: "t5", Name: "ToolSearch", Input: json.RawMessage(`{"query":"select:Nope"}`)}))
	require.True(t, handle(conv, results, anthropic.ToolUseBlock{ID: "t6", Name: "ToolSearch", Input: json.RawMessage(`{"query":5}`)}))
	msg, ok := results.Message()
	require.True(t, ok)
	b, err := json.Marshal(msg)
	require.NoError(t, err)
	assert.JSONEq(t, `{"role":"user","content":[
		{"type":"tool_result","tool_use_id":"t1","content":[{"type":"tool_reference","tool_name":"mcp__weather__get_forecast"},{"type":"text","text":"No tool named \"Nope\"."}]},
		{"type":"tool_result","tool_use_id":"t2","is_error":false,"content":[{"type":"text","text":"12:00"}]},
		{"type":"tool_result","tool_use_id":"t3","content":[{"type":"tool_reference","tool_name":"mcp__mail__send_email"}]},
		{"type":"tool_result","tool_use_id":"t4","content":[{"type":"text","text":"No matching deferred tools found"}]},
		{"type":"tool_result","tool_use_id":"t5","content":[{"type":"text","text":"No matching deferred tools found"},{"type":"text","text":"No tool named \"Nope\"."}]},
		{"type":"tool_result","tool_use_id":"t6","is_error":true,"content":[{"type":"text","text":"Invalid ToolSearch input: query: expected string, but got number; expected {\"query\": string, \"max_results\"?: integer ≥ 1}"}]},
		{"type":"text","text":"Tool loaded."},
		{"type":"text","text":"a note from the application"}]}`, string(b))
	assert.Equal(t, []string{"mcp__mail__send_email", "mcp__weather__get_forecast"}, conv.Snapshot().Discovered)
}

// ToolResults may be filled from several goroutines (tools run in
// parallel); every block is kept and the tool_results come first.
func TestToolResultsConcurrent(t *testing.T) {
	conv := newSession(t, weatherRegistry(t), nil)
	results := &tsanthropic.ToolResults{}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			id := fmt.Sprintf("t%d", i)
			if i%2 == 0 {
				handle(conv, results, anthropic.ToolUseBlock{ID: id, Name: "ToolSearch", Input: json.RawMessage(`{"query":"weather"}`)})
				return
			}
			results.Add(anthropic.NewToolResultBlock(id, "ok", false))
		})
	}
	wg.Wait()
	msg, ok := results.Message()
	require.True(t, ok)
	content := msg.OfUser.Content
	require.Len(t, content, 21, "20 tool results and one Tool loaded.")
	for _, b := range content[:20] {
		assert.NotNil(t, b.OfToolResult)
	}
	require.NotNil(t, content[20].OfText)
	assert.Equal(t, "Tool loaded.", content[20].OfText.Text)
}

// A tool whose lazy schema cannot be loaded is left out of Tools and named
// in skipped; the other tools are returned.
func TestToolsSkipsBrokenLazySchema(t *testing.T) {
	tools, skipped := newSession(t, brokenSchemaRegistry(t), nil).Tools()
	require.Len(t, skipped, 1)
	assert.Contains(t, skipped[0].Error(), `"broken": server said no`)
	var names []string
	for _, tl := range tools {
		names = append(names, *tl.GetName())
	}
	assert.Equal(t, []string{"get_time", "ToolSearch"}, names)
}
