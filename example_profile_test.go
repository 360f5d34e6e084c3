package toolsearch_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolsearch/toolsearch"
)

// A conversation as Claude Code 2.1.332 has it: the first announcement is
// already a <system-reminder> delta, the tools carry the
// DeferredToolPlaceholder before the last one, a pasted MCP tool name
// finds its tool by its whole name (12 points; the default profile gives
// 3), and a query naming a loaded tool gets the "Already available" note.
func ExampleProfile() {
	reg := exampleRegistry()
	err := reg.Register(toolsearch.NewMCPTool("slack", "post_status", "Post a status.", nil, map[string]any{"anthropic/alwaysLoad": true}))
	if err != nil {
		panic(err)
	}
	s := toolsearch.NewSession(reg, &toolsearch.SessionOptions{
		Format: toolsearch.FormatToolReference,
		Search: toolsearch.SearchOptions{Profile: toolsearch.ClaudeCode2_1_332},
	})
	var res *toolsearch.Result
	a := s.Announce()
	fmt.Printf("announcement (system message: %v):\n%s\n", a.System, a.Text)
	defs, _ := s.Tools()
	fmt.Println("tools:", names(defs))

	res, err = s.Call(json.RawMessage(`{"query":"send_message"}`))
	if err != nil {
		panic(err)
	}
	fmt.Println("send_message:", res.Matches[0].Name, res.Matches[0].Score)

	res, err = s.Call(json.RawMessage(`{"query":"post status"}`))
	if err != nil {
		panic(err)
	}
	content, after := res.Content(s.Format())
	fmt.Println("post status:", content[0].Text)
	fmt.Println(after[0].Text)
	// Output:
	// announcement (system message: false):
	// <system-reminder>
	// The following deferred tools are now available via ToolSearch. Their schemas are NOT loaded — calling them directly will fail with InputValidationError. Use ToolSearch with query "select:<name>[,<name>...]" to load tool schemas before calling them:
	// WebFetch
	// mcp__slack__list_channels
	// mcp__slack__send_message
	// </system-reminder>
	// tools: [Bash Read mcp__slack__post_status DeferredToolPlaceholder ToolSearch]
	// send_message: mcp__slack__send_message 12
	// post status: No matching deferred tools found
	// <system-reminder>
	// Already available in this conversation: mcp__slack__post_status. Call it directly.
	// </system-reminder>
}
