package tsanthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/toolsearch/toolsearch"
	tsanthropic "github.com/toolsearch/toolsearch/anthropic"
)

func ExampleSession_Handle() {
	ctx := context.Background()
	reg, _ := toolsearch.NewRegistry(nil,
		toolsearch.Tool{Name: "get_time", Description: "Current time in UTC"},
		toolsearch.NewMCPTool("weather", "get_forecast", "Get the weather forecast for a city", json.RawMessage(`{"type":"object"}`), nil),
		toolsearch.NewMCPTool("mail", "send_email", "Send an email", json.RawMessage(`{"type":"object"}`), nil),
	)
	session, err := tsanthropic.NewSession(reg, nil) // Format: FormatToolReference
	if err != nil {
		log.Fatal(err)
	}

	// The tool_use blocks of the model's response: two ToolSearch calls
	// and a call the application runs.
	uses := []anthropic.ToolUseBlock{
		{ID: "toolu_1", Name: "ToolSearch", Input: json.RawMessage(`{"query":"forecast"}`)},
		{ID: "toolu_2", Name: "get_time", Input: json.RawMessage(`{}`)},
		{ID: "toolu_3", Name: "ToolSearch", Input: json.RawMessage(`{"query":"select:mcp__mail__send_email,Nope"}`)},
	}
	var results tsanthropic.ToolResults // the user message answering this turn
	for _, use := range uses {
		if answer, ok := session.Handle(ctx, use); ok { // a ToolSearch call, answered
			results.AddAnswer(answer)
			continue
		}
		results.Add(anthropic.NewToolResultBlock(use.ID, "12:00", false))
	}
	msg, _ := results.Message()
	for _, b := range msg.OfUser.Content {
		j, _ := json.Marshal(b)
		fmt.Println(string(j))
	}

	// The next request's tools: the found tools join with defer_loading.
	tools, _ := session.Tools()
	for _, t := range tools {
		fmt.Println(*t.GetName(), t.GetDeferLoading() != nil && *t.GetDeferLoading())
	}
	// Output:
	// {"tool_use_id":"toolu_1","content":[{"tool_name":"mcp__weather__get_forecast","type":"tool_reference"}],"type":"tool_result"}
	// {"tool_use_id":"toolu_2","is_error":false,"content":[{"text":"12:00","type":"text"}],"type":"tool_result"}
	// {"tool_use_id":"toolu_3","content":[{"tool_name":"mcp__mail__send_email","type":"tool_reference"},{"text":"No tool named \"Nope\".","type":"text"}],"type":"tool_result"}
	// {"text":"Tool loaded.","type":"text"}
	// get_time false
	// ToolSearch false
	// mcp__mail__send_email true
	// mcp__weather__get_forecast true
}

// A Format the mapping cannot carry is refused when the Session is made,
// not sent as a wrong wire.
func ExampleNewSession() {
	_, err := tsanthropic.NewSession(&toolsearch.Registry{}, &toolsearch.SessionOptions{Format: toolsearch.FormatFunctions})
	fmt.Println(err)
	// Output:
	// tsanthropic: the Anthropic mapping needs Format toolsearch.FormatToolReference, not functions
}
