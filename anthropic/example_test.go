package tsanthropic_test

import (
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/toolsearch/toolsearch"
	tsanthropic "github.com/toolsearch/toolsearch/anthropic"
)

func ExampleHandleToolUse() {
	reg, _ := toolsearch.NewRegistry(nil,
		toolsearch.NewMCPTool("weather", "get_forecast", "Get the weather forecast for a city", json.RawMessage(`{"type":"object"}`), nil),
		toolsearch.NewMCPTool("mail", "send_email", "Send an email", json.RawMessage(`{"type":"object"}`), nil),
	)
	session := toolsearch.NewSession(reg, &toolsearch.SessionOptions{Format: toolsearch.FormatToolReference})

	// A ToolSearch tool_use block from the model's response.
	use := anthropic.ToolUseBlock{ID: "toolu_1", Name: "ToolSearch", Input: json.RawMessage(`{"query":"forecast"}`)}
	result, _ := tsanthropic.HandleToolUse(session, use)
	b, _ := json.Marshal(result)
	fmt.Println(string(b))

	// The next request's tools: the found tool joins with defer_loading.
	tools, _ := tsanthropic.Tools(session)
	for _, t := range tools {
		fmt.Println(*t.GetName(), t.GetDeferLoading() != nil && *t.GetDeferLoading())
	}
	// Output:
	// {"tool_use_id":"toolu_1","content":[{"tool_name":"mcp__weather__get_forecast","type":"tool_reference"},{"text":"Tool loaded.","type":"text"}],"type":"tool_result"}
	// ToolSearch false
	// mcp__weather__get_forecast true
}
