package tsopenai_test

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/toolsearch/toolsearch"
	tsopenai "github.com/toolsearch/toolsearch/openai"
)

func ExampleHandleChatToolCall() {
	reg, _ := toolsearch.NewRegistry(nil,
		toolsearch.NewMCPTool("weather", "get_forecast", "Get the weather forecast for a city", json.RawMessage(`{"type":"object"}`), nil),
		toolsearch.NewMCPTool("mail", "send_email", "Send an email", json.RawMessage(`{"type":"object"}`), nil),
	)
	session := toolsearch.NewSession(reg, &toolsearch.SessionOptions{Format: toolsearch.FormatInline})

	// A ToolSearch call from the model's response.
	var call openai.ChatCompletionMessageToolCallUnion
	_ = json.Unmarshal([]byte(`{"id":"call_1","type":"function","function":{"name":"ToolSearch","arguments":"{\"query\":\"forecast\"}"}}`), &call)
	msg, _ := tsopenai.HandleChatToolCall(session, call)
	fmt.Println(msg.OfTool.Content.OfString.Value)

	// The next request's tools: the found tool joins the function list.
	tools, _ := tsopenai.ChatTools(session)
	for _, t := range tools {
		fmt.Println(t.OfFunction.Function.Name)
	}
	// Output:
	// {"matches":[{"name":"mcp__weather__get_forecast","description":"Get the weather forecast for a city","schema":{"type":"object"}}],"query":"forecast","total_deferred_tools":2}
	// ToolSearch
	// mcp__weather__get_forecast
}
