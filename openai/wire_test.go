package tsopenai_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	tsopenai "github.com/toolsearch/toolsearch/openai"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

var update = flag.Bool("update", false, "rewrite the golden request bodies in testdata/")

// toolNames returns the names of the tools in a request body ("name" or
// "function.name"; "tool_search" for the tool search tool) and those with
// defer_loading.
func toolNames(t *testing.T, body []byte) (names, deferred []string) {
	t.Helper()
	var req struct {
		Tools []struct {
			Type         string `json:"type"`
			Name         string `json:"name"`
			DeferLoading bool   `json:"defer_loading"`
			Function     struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(body, &req))
	for _, tl := range req.Tools {
		n := tl.Name + tl.Function.Name
		if tl.Type == "tool_search" {
			n = "tool_search"
		}
		names = append(names, n)
		if tl.DeferLoading {
			deferred = append(deferred, n)
		}
	}
	return names, deferred
}

func chatCompletion(id, finish, message string) toolsearchtest.Turn {
	return toolsearchtest.Raw(fmt.Sprintf(`{"id":%q,"object":"chat.completion","created":1,"model":"gpt-5.6-sol","choices":[{"index":0,"finish_reason":%q,"logprobs":null,"message":%s}],"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`, id, finish, message))
}

func toolCall(id, name, args string) string {
	return fmt.Sprintf(`{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":%q,"type":"function","function":{"name":%q,"arguments":%q}}]}`, id, name, args)
}

func TestWireChatCompletions(t *testing.T) {
	model := toolsearchtest.NewServer(
		chatCompletion("c1", "tool_calls", toolCall("call_1", "ToolSearch", `{"query":"forecast"}`)),
		chatCompletion("c2", "tool_calls", toolCall("call_2", "mcp__weather__get_forecast", `{"city":"Paris"}`)),
		chatCompletion("c3", "tool_calls", toolCall("call_3", "ToolSearch", `{"query":3}`)),
		chatCompletion("c4", "stop", `{"role":"assistant","content":"It is sunny in Paris, 21°C.","refusal":null}`),
	)
	defer model.Close()
	client := openai.NewClient(option.WithBaseURL(model.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	reg := weatherRegistry(t)
	conv := newChat(t, reg, nil)
	system := conv.SystemPromptSection()

	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), openai.UserMessage("What is the forecast for Paris?")}
	for range 10 {
		tools, skipped := conv.Tools()
		require.Empty(t, skipped)
		resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model: openai.ChatModelGPT5_6Sol, Messages: msgs, Tools: tools,
		})
		require.NoError(t, err)
		m := resp.Choices[0].Message
		msgs = append(msgs, m.ToParam())
		if len(m.ToolCalls) == 0 {
			break
		}
		for _, call := range m.ToolCalls {
			if out, ok := conv.Handle(context.Background(), call); ok {
				msgs = append(msgs, out)
				continue
			}
			msgs = append(msgs, openai.ToolMessage("Sunny, 21°C", call.ID))
		}
	}

	reqs := model.Requests()
	require.Len(t, reqs, 4)
	for i, r := range reqs {
		assert.Equal(t, "/chat/completions", r.Path)
		toolsearchtest.GoldenJSON(t, "testdata/"+fmt.Sprintf("chat_turn%d.json", i+1), r.Body, *update)
	}
	names, deferred := toolNames(t, reqs[0].Body)
	assert.Equal(t, []string{"get_time", "ToolSearch"}, names, "turn 1: core tools and ToolSearch")
	names, deferred2 := toolNames(t, reqs[1].Body)
	assert.Equal(t, []string{"get_time", "ToolSearch", "mcp__weather__get_forecast"}, names, "turn 2: the discovered tool joins")
	assert.Empty(t, append(deferred, deferred2...), "Chat Completions has no defer_loading")

	// The ToolSearch result is the inline JSON, schema included.
	var turn2 struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    string `json:"content"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(reqs[1].Body, &turn2))
	last := turn2.Messages[len(turn2.Messages)-1]
	assert.Equal(t, "tool", last.Role)
	assert.Equal(t, "call_1", last.ToolCallID)
	assert.JSONEq(t, `{"matches":[{"name":"mcp__weather__get_forecast","description":"Get the weather forecast for a city",
		"schema":{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}}],
		"query":"forecast","total_deferred_tools":3}`, last.Content)

	// A malformed call gets the error's text for the model, unchanged.
	var turn4 struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(reqs[3].Body, &turn4))
	_, wantErr := toolsearch.NewSession(reg, nil).Call(json.RawMessage(`{"query":3}`))
	require.Error(t, wantErr)
	answer := turn4.Messages[len(turn4.Messages)-1]
	assert.Equal(t, "tool", answer.Role)
	assert.Equal(t, wantErr.Error(), answer.Content, "the error convention: the text as toolsearch wrote it, no prefix")

	// Resume from the history gives the same tools as the last turn.
	conv2 := newChat(t, reg, nil)
	skipped, err := conv2.Resume(msgs)
	require.NoError(t, err)
	require.Empty(t, skipped)
	got, skipped := conv2.Tools()
	require.Empty(t, skipped)
	b, err := json.Marshal(got)
	require.NoError(t, err)
	var lastReq struct {
		Tools json.RawMessage `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(reqs[3].Body, &lastReq))
	assert.JSONEq(t, string(lastReq.Tools), string(b))
}

func response(id string, output ...string) toolsearchtest.Turn {
	return toolsearchtest.Raw(fmt.Sprintf(`{"id":%q,"object":"response","created_at":1,"status":"completed","model":"gpt-5.6-sol","output":[%s],"parallel_tool_calls":true,"tool_choice":"auto","tools":[],"usage":{"input_tokens":100,"output_tokens":20,"total_tokens":120,"input_tokens_details":{"cached_tokens":0},"output_tokens_details":{"reasoning_tokens":0}}}`,
		id, strings.Join(output, ",")))
}

func TestWireResponses(t *testing.T) {
	model := toolsearchtest.NewServer(
		response("r1", `{"type":"tool_search_call","id":"ts_1","call_id":"call_1","arguments":{"query":"forecast"},"execution":"client","status":"completed"}`),
		response("r2", `{"type":"function_call","id":"fc_1","call_id":"call_2","name":"mcp__weather__get_forecast","arguments":"{\"city\":\"Paris\"}","status":"completed"}`),
		response("r3", `{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"It is sunny in Paris, 21°C.","annotations":[]}]}`),
	)
	defer model.Close()
	client := openai.NewClient(option.WithBaseURL(model.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	reg := weatherRegistry(t)
	conv := newResponses(t, reg, nil)
	system := conv.SystemPromptSection()

	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage("What is the forecast for Paris?", responses.EasyInputMessageRoleUser)}
	for range 10 {
		tools, skipped := conv.Tools()
		require.Empty(t, skipped)
		resp, err := client.Responses.New(context.Background(), responses.ResponseNewParams{
			Model:        openai.ChatModelGPT5_6Sol,
			Instructions: openai.String(system),
			Input:        responses.ResponseNewParamsInputUnion{OfInputItemList: input},
			Tools:        tools,
		})
		require.NoError(t, err)
		called := false
		for _, item := range resp.Output {
			if a, ok := conv.Handle(context.Background(), item); ok {
				items, skipped := a.Items, a.Skipped
				require.Empty(t, skipped)
				input = append(input, items...)
				called = true
				continue
			}
			if item.Type == "function_call" {
				call := item.AsFunctionCall()
				fc := call.ToParam()
				out := responses.ResponseInputItemParamOfFunctionCallOutput("Sunny, 21°C")
				out.OfFunctionCallOutput.CallID = openai.String(call.CallID)
				input = append(input, responses.ResponseInputItemUnionParam{OfFunctionCall: &fc}, out)
				called = true
			}
		}
		if !called {
			break
		}
	}

	reqs := model.Requests()
	require.Len(t, reqs, 3)
	for i, r := range reqs {
		assert.Equal(t, "/responses", r.Path)
		toolsearchtest.GoldenJSON(t, "testdata/"+fmt.Sprintf("responses_turn%d.json", i+1), r.Body, *update)
	}
	names, deferred := toolNames(t, reqs[0].Body)
	assert.Equal(t, []string{"get_time", "tool_search"}, names, "turn 1: core tools and the client tool_search")
	assert.Empty(t, deferred)
	names, deferred = toolNames(t, reqs[1].Body)
	assert.Equal(t, []string{"get_time", "tool_search", "mcp__weather__get_forecast"}, names)
	assert.Equal(t, []string{"mcp__weather__get_forecast"}, deferred, "turn 2: the discovered tool has defer_loading")

	var turn2 struct {
		Input []json.RawMessage `json:"input"`
	}
	require.NoError(t, json.Unmarshal(reqs[1].Body, &turn2))
	require.Len(t, turn2.Input, 3)
	assert.JSONEq(t, `{"type":"tool_search_call","id":"ts_1","call_id":"call_1","arguments":{"query":"forecast"},"execution":"client","status":"completed"}`, string(turn2.Input[1]))
	assert.JSONEq(t, `{"type":"tool_search_output","call_id":"call_1","execution":"client","status":"completed","tools":[
		{"type":"function","name":"mcp__weather__get_forecast","description":"Get the weather forecast for a city","defer_loading":true,"strict":false,
		 "parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}}]}`, string(turn2.Input[2]))

	// Resume from the input items gives the same tools as the last turn.
	conv2 := newResponses(t, reg, nil)
	skipped, err := conv2.Resume(input)
	require.NoError(t, err)
	require.Empty(t, skipped)
	got, skipped := conv2.Tools()
	require.Empty(t, skipped)
	b, err := json.Marshal(got)
	require.NoError(t, err)
	var lastReq struct {
		Tools json.RawMessage `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(reqs[2].Body, &lastReq))
	assert.JSONEq(t, string(lastReq.Tools), string(b))
}

// TestHandleToolSearchCallBadArguments pins the error convention for the
// Responses API: the output lists no tools, and a user message after it
// holds the error's text exactly as toolsearch wrote it.
func TestHandleToolSearchCallBadArguments(t *testing.T) {
	reg := weatherRegistry(t)
	conv := newResponses(t, reg, nil)
	var item responses.ResponseOutputItemUnion
	require.NoError(t, json.Unmarshal([]byte(`{"type":"tool_search_call","id":"ts","call_id":"c","arguments":{"query":1},"execution":"client","status":"completed"}`), &item))
	a, ok := conv.Handle(context.Background(), item)
	items, skipped := a.Items, a.Skipped
	assert.True(t, ok)
	require.Empty(t, skipped, "an error for the model is in the items, not returned")
	require.Len(t, items, 3)
	b, err := json.Marshal(items[1])
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"tool_search_output","call_id":"c","execution":"client","status":"completed","tools":[]}`, string(b))
	_, want := toolsearch.NewSession(reg, nil).Call(json.RawMessage(`{"query":1}`))
	require.ErrorIs(t, want, toolsearch.ErrInvalidQuery)
	b, err = json.Marshal(items[2])
	require.NoError(t, err)
	wantMsg, _ := json.Marshal(map[string]string{"role": "user", "content": want.Error()})
	assert.JSONEq(t, string(wantMsg), string(b))

	require.NoError(t, json.Unmarshal([]byte(`{"type":"function_call","id":"f","call_id":"c","name":"x","arguments":"{}"}`), &item))
	a, ok = conv.Handle(context.Background(), item)
	skipped = a.Skipped
	assert.False(t, ok)
	assert.Empty(t, skipped)
}

func TestSchemaErrors(t *testing.T) {
	_, err := tsopenai.ChatToolParam(toolsearch.ToolDefinition{Name: "x", InputSchema: json.RawMessage(`[1]`)})
	require.ErrorIs(t, err, tsopenai.ErrSchema)
	_, err = tsopenai.FunctionToolParam(toolsearch.ToolDefinition{Name: "x", InputSchema: json.RawMessage(`null`)})
	require.ErrorIs(t, err, tsopenai.ErrSchema)
	f, err := tsopenai.FunctionToolParam(toolsearch.ToolDefinition{Name: "x"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"type": "object"}, f.Parameters)
}

// With the Session's call bridge the Chat Completions tool list is the same
// on every turn: found tools are called through CallTool.
func TestWireChatCompletionsCallBridge(t *testing.T) {
	model := toolsearchtest.NewServer(
		chatCompletion("c1", "tool_calls", toolCall("call_1", "ToolSearch", `{"query":"forecast"}`)),
		chatCompletion("c2", "tool_calls", toolCall("call_2", "CallTool", `{"name":"mcp__weather__get_forecast","arguments":{"city":"Paris"}}`)),
		chatCompletion("c3", "stop", `{"role":"assistant","content":"Sunny.","refusal":null}`),
	)
	defer model.Close()
	client := openai.NewClient(option.WithBaseURL(model.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	conv := newChat(t, weatherRegistry(t), &toolsearch.SessionOptions{CallBridge: true})
	msgs := []openai.ChatCompletionMessageParamUnion{openai.UserMessage("What is the forecast for Paris?")}
	var ran []string
	for range 10 {
		tools, skipped := conv.Tools()
		require.Empty(t, skipped)
		resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model: openai.ChatModelGPT5_6Sol, Messages: msgs, Tools: tools,
		})
		require.NoError(t, err)
		m := resp.Choices[0].Message
		msgs = append(msgs, m.ToParam())
		if len(m.ToolCalls) == 0 {
			break
		}
		for _, call := range m.ToolCalls {
			if out, ok := conv.Handle(context.Background(), call); ok {
				msgs = append(msgs, out)
				continue
			}
			require.Equal(t, toolsearch.CallToolName, call.Function.Name)
			tc, err := conv.CheckCall(call.Function.Name, json.RawMessage(call.Function.Arguments))
			require.NoError(t, err)
			ran = append(ran, tc.Tool.Name+" "+string(tc.Arguments))
			msgs = append(msgs, openai.ToolMessage("Sunny, 21°C", call.ID))
		}
	}
	assert.Equal(t, []string{`mcp__weather__get_forecast {"city":"Paris"}`}, ran)
	reqs := model.Requests()
	require.Len(t, reqs, 3)
	var first []byte
	for i, r := range reqs {
		var req struct {
			Tools json.RawMessage `json:"tools"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &req))
		if i == 0 {
			first = req.Tools
			names, _ := toolNames(t, r.Body)
			assert.Equal(t, []string{"get_time", "ToolSearch", "CallTool"}, names)
			continue
		}
		assert.Equal(t, string(first), string(req.Tools), "turn %d: the tool list is byte-identical", i+1)
	}
}

// A tool whose lazy schema cannot be loaded is left out of ChatTools and
// ResponsesTools and named in skipped; the other tools are returned.
func TestToolsSkipBrokenLazySchema(t *testing.T) {
	chat, skipped := newChat(t, brokenSchemaRegistry(t), nil).Tools()
	require.Len(t, skipped, 1)
	assert.Contains(t, skipped[0].Error(), `"broken": server said no`)
	require.Len(t, chat, 2)
	assert.Equal(t, "get_time", chat[0].OfFunction.Function.Name)
	resp, skipped := newResponses(t, brokenSchemaRegistry(t), nil).Tools()
	require.Len(t, skipped, 1)
	assert.Contains(t, skipped[0].Error(), `"broken": server said no`)
	require.Len(t, resp, 2)
	assert.NotNil(t, resp[1].OfToolSearch)
}

// ResumeResponses adds the valid names of a tool_search_output and skips
// the others, one error each.
func TestResumeResponsesSkipsBadNames(t *testing.T) {
	conv := newResponses(t, weatherRegistry(t), nil)
	var history []responses.ResponseInputItemUnionParam
	require.NoError(t, json.Unmarshal([]byte(`[{"type":"tool_search_output","call_id":"c","execution":"client","status":"completed","tools":[
		{"type":"function","name":"mcp__weather__get_forecast","parameters":{"type":"object"}},
		{"type":"function","name":"bad name","parameters":{"type":"object"}}]}]`), &history))
	skipped, err := conv.Resume(history)
	require.NoError(t, err)
	require.Len(t, skipped, 1)
	assert.ErrorIs(t, skipped[0], toolsearch.ErrInvalidName)
	assert.Equal(t, []string{"mcp__weather__get_forecast"}, conv.Snapshot().Discovered)
}
