package tsopenai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolsearch/toolsearch"
	tsopenai "github.com/toolsearch/toolsearch/openai"
)

func registry() *toolsearch.Registry {
	reg, err := toolsearch.NewRegistry(nil,
		toolsearch.NewMCPTool("weather", "get_forecast", "Get the weather forecast for a city", json.RawMessage(`{"type":"object"}`), nil),
		toolsearch.NewMCPTool("mail", "send_email", "Send an email", json.RawMessage(`{"type":"object"}`), nil),
	)
	if err != nil {
		log.Fatal(err)
	}
	return reg
}

func ExampleChatSession_Handle() {
	session, err := tsopenai.NewChatSession(registry(), nil) // Format: FormatInline
	if err != nil {
		log.Fatal(err)
	}

	// A ToolSearch call from the model's response.
	var call openai.ChatCompletionMessageToolCallUnion
	_ = json.Unmarshal([]byte(`{"id":"call_1","type":"function","function":{"name":"ToolSearch","arguments":"{\"query\":\"forecast\"}"}}`), &call)
	msg, _ := session.Handle(context.Background(), call)
	fmt.Println(msg.OfTool.Content.OfString.Value)

	// The next request's tools: the found tool joins the function list.
	tools, _ := session.Tools()
	for _, t := range tools {
		fmt.Println(t.OfFunction.Function.Name)
	}
	// Output:
	// {"matches":[{"name":"mcp__weather__get_forecast","description":"Get the weather forecast for a city","schema":{"type":"object"}}],"query":"forecast","total_deferred_tools":2}
	// ToolSearch
	// mcp__weather__get_forecast
}

func ExampleResponsesSession_Handle() {
	session, err := tsopenai.NewResponsesSession(registry(), nil) // Format: FormatToolReference
	if err != nil {
		log.Fatal(err)
	}
	var item responses.ResponseOutputItemUnion
	_ = json.Unmarshal([]byte(`{"type":"tool_search_call","id":"ts_1","call_id":"call_1","arguments":{"query":"forecast"},"execution":"client","status":"completed"}`), &item)
	answer, _ := session.Handle(context.Background(), item)
	for _, it := range answer.Items { // the call replayed, then its output
		b, _ := json.Marshal(it)
		fmt.Println(string(b))
	}
	// Output:
	// {"arguments":{"query":"forecast"},"id":"ts_1","call_id":"call_1","status":"completed","execution":"client","type":"tool_search_call"}
	// {"tools":[{"strict":false,"parameters":{"type":"object"},"name":"mcp__weather__get_forecast","description":"Get the weather forecast for a city","defer_loading":true,"type":"function"}],"call_id":"call_1","status":"completed","execution":"client","type":"tool_search_output"}
}

// A Format the mapping cannot carry is refused when the Session is made.
func ExampleNewChatSession() {
	_, err := tsopenai.NewChatSession(registry(), &toolsearch.SessionOptions{Format: toolsearch.FormatToolReference})
	fmt.Println(err)
	// Output:
	// tsopenai: the mapping cannot carry this Format: tool_reference (it needs [inline functions])
}
