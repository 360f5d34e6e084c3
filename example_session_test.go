package toolsearch_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolsearch/toolsearch"
)

// exampleRegistry holds two loaded tools and three deferred ones.
func exampleRegistry() *toolsearch.Registry {
	reg, err := toolsearch.NewRegistry(nil,
		toolsearch.Tool{Name: "Read", Description: "Read a file."},
		toolsearch.Tool{Name: "Bash", Description: "Run a shell command."},
		toolsearch.Tool{Name: "WebFetch", Description: "Fetch a URL.", ShouldDefer: true,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}`)},
		toolsearch.NewMCPTool("slack", "send_message", "Send a message to a Slack channel.",
			json.RawMessage(`{"type":"object","properties":{"channel":{"type":"string"},"text":{"type":"string"}},"required":["channel","text"]}`), nil),
		toolsearch.NewMCPTool("slack", "list_channels", "List Slack channels.", nil, nil),
	)
	if err != nil {
		panic(err)
	}
	return reg
}

func names(defs []toolsearch.ToolDefinition) []string {
	var out []string
	for _, d := range defs {
		out = append(out, d.Name)
	}
	return out
}

// One conversation: the first request carries the loaded tools and
// ToolSearch; after the model searched, the tool it found is sent too.
func ExampleNewSession() {
	s := toolsearch.NewSession(exampleRegistry(), &toolsearch.SessionOptions{Format: toolsearch.FormatToolReference})
	defs, _ := s.Tools()
	fmt.Println("turn 1:", names(defs))

	// The model calls ToolSearch:
	res, err := s.Call(json.RawMessage(`{"query":"slack send"}`))
	if err != nil {
		panic(err) // send err.Error() back as an error tool_result
	}
	// The tool_result holds the references; "Tool loaded." (and any note)
	// follows it in the same user message.
	content, after := res.Content(s.Format())
	b, _ := json.Marshal(content)
	fmt.Println("tool_result content:", string(b))
	b, _ = json.Marshal(after)
	fmt.Println("then:", string(b))

	defs, _ = s.Tools()
	fmt.Println("turn 2:", names(defs))
	fmt.Println("defer_loading:", defs[len(defs)-1].DeferLoading)
	// Output:
	// turn 1: [Bash Read ToolSearch]
	// tool_result content: [{"type":"tool_reference","tool_name":"mcp__slack__send_message"},{"type":"tool_reference","tool_name":"mcp__slack__list_channels"}]
	// then: [{"type":"text","text":"Tool loaded."}]
	// turn 2: [Bash Read ToolSearch mcp__slack__list_channels mcp__slack__send_message]
	// defer_loading: true
}

func ExampleSession_CheckCall() {
	s := toolsearch.NewSession(exampleRegistry(), nil)
	_, err := s.CheckCall("mcp__slack__send_message", json.RawMessage(`{"to":"#general"}`))
	fmt.Println(err)
	_, err = s.CheckCall("Slack", nil)
	fmt.Println(err)
	call, err := s.CheckCall("WebFetch", json.RawMessage(`{"url": "https://go.dev"}`))
	fmt.Println(call.Tool.Name, string(call.Arguments), err)
	// Output:
	// The arguments for mcp__slack__send_message do not match its schema (missing properties: 'channel', 'text'). This tool's schema was not loaded: call ToolSearch with select:mcp__slack__send_message, then retry.
	// No tool named Slack is available. Did you mean mcp__slack__list_channels, mcp__slack__send_message?
	// WebFetch {"url":"https://go.dev"} <nil>
}

func ExampleSession_Announce() {
	reg := exampleRegistry()
	s := toolsearch.NewSession(reg, nil)
	fmt.Println(s.Announce().Text)
	reg.SetServerStatus("slack", toolsearch.ServerDisconnected)
	fmt.Println(s.Announce().Text)
	// Output:
	// <available-deferred-tools>
	// WebFetch
	// mcp__slack__list_channels
	// mcp__slack__send_message
	// </available-deferred-tools>
	// The following deferred tools are no longer available (their MCP server disconnected). Do not search for them — ToolSearch will return no match:
	// mcp__slack__list_channels
	// mcp__slack__send_message
}

// A conversation saved before a compaction is restored in a new Session.
func ExampleSession_Snapshot() {
	reg := exampleRegistry()
	s := toolsearch.NewSession(reg, nil)
	_, _ = s.Call(json.RawMessage(`{"query":"select:WebFetch"}`))
	saved, _ := json.Marshal(s.Snapshot())
	fmt.Println(string(saved))

	var st toolsearch.SessionState
	_ = json.Unmarshal(saved, &st)
	r := toolsearch.NewSession(reg, nil)
	_ = r.Restore(st)
	defs, _ := r.Tools()
	fmt.Println(names(defs))
	// Output:
	// {"discovered":["WebFetch"],"announced":null}
	// [Bash Read ToolSearch WebFetch]
}

func ExampleSession_Resume() {
	history := json.RawMessage(`[
	 {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"ToolSearch","input":{"query":"slack"}}]},
	 {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[
	   {"type":"tool_reference","tool_name":"mcp__slack__send_message"}]},{"type":"text","text":"Tool loaded."}]}]`)
	s := toolsearch.NewSession(exampleRegistry(), nil)
	skipped, err := s.Resume(history)
	if err != nil || len(skipped) > 0 {
		fmt.Println(err, skipped)
	}
	fmt.Println(s.Snapshot().Discovered)
	// Output:
	// [mcp__slack__send_message]
}

// A ToolSearchMode reads and prints as the ENABLE_TOOL_SEARCH switch.
func ExampleToolSearchMode_UnmarshalText() {
	for _, v := range []string{"true", "false", "auto", "auto:5", "sometimes"} {
		var m toolsearch.ToolSearchMode
		err := m.UnmarshalText([]byte(v))
		fmt.Println(int(m), m, err)
	}
	// Output:
	// 0 true <nil>
	// 100 false <nil>
	// 10 auto <nil>
	// 5 auto:5 <nil>
	// 0 true toolsearch: invalid option: unknown tool search mode "sometimes" (want true, false, auto or auto:N)
}

// With the call bridge the tool list never changes; the model calls
// discovered tools through CallTool.
func ExampleSessionOptions_callBridge() {
	s := toolsearch.NewSession(exampleRegistry(), &toolsearch.SessionOptions{CallBridge: true})
	defs, _ := s.Tools()
	fmt.Println(names(defs))
	call, err := s.CheckCall("CallTool", json.RawMessage(`{"name":"WebFetch","arguments":{"url":"https://go.dev"}}`))
	fmt.Println(call.Tool.Name, string(call.Arguments), err)
	// Output:
	// [Bash Read ToolSearch CallTool]
	// WebFetch {"url":"https://go.dev"} <nil>
}
