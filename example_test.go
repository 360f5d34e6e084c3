package toolsearch_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/toolsearch/toolsearch"
)

// The quick start: register tools, tell the model what is deferred, and
// answer its ToolSearch call.
func Example() {
	reg, err := toolsearch.NewRegistry(nil,
		toolsearch.Tool{Name: "Read", Description: "Read a file."}, // core tool: sent with every request
		toolsearch.Tool{Name: "WebFetch", Description: "Fetch a URL as markdown.", ShouldDefer: true},
		toolsearch.NewMCPTool("github", "create_issue", "Create a new issue in a GitHub repository.",
			json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`), nil),
		toolsearch.NewMCPTool("github", "list_issues", "List the issues of a repository.", nil, nil),
	)
	if err != nil {
		log.Fatal(err)
	}
	s := toolsearch.NewSearcher(reg, nil)
	fmt.Println(s.SystemPromptSection()) // goes into the system prompt

	// The model calls ToolSearch with these arguments:
	res, err := s.Call(json.RawMessage(`{"query":"github issue","max_results":3}`))
	if err != nil {
		log.Fatal(err) // send err.Error() back as an error tool_result
	}
	for _, m := range res.Matches {
		fmt.Println(m.Name, m.Score)
	}
	// Output:
	// The following deferred tools are available via ToolSearch:
	// WebFetch, mcp__github__create_issue, mcp__github__list_issues
	// mcp__github__create_issue 28
	// mcp__github__list_issues 18
}

func ExampleSearcher_Search() {
	reg, _ := toolsearch.NewRegistry(nil,
		toolsearch.Tool{Name: "WebSearch", Description: "Search the web.", SearchHint: "search the web for current information", ShouldDefer: true},
		toolsearch.Tool{Name: "WebFetch", Description: "Fetch a URL.", ShouldDefer: true},
		toolsearch.Tool{Name: "TaskList", Description: "List tasks.", ShouldDefer: true},
	)
	s := toolsearch.NewSearcher(reg, nil)
	for _, q := range []string{"web", "+web fetch", "select:TaskList,Nope", "TASKLIST"} {
		res, _ := s.Search(q, 0)
		fmt.Printf("%-20q %-8s", q, res.Form)
		for _, m := range res.Matches {
			fmt.Printf(" %s(%g)", m.Name, m.Score)
		}
		fmt.Println(" not found:", res.NotFound)
	}
	// Output:
	// "web"                ranked   WebSearch(16) WebFetch(10) not found: []
	// "+web fetch"         ranked   WebFetch(22) WebSearch(16) not found: []
	// "select:TaskList,Nope" select   TaskList(0) not found: [Nope]
	// "TASKLIST"           exact    TaskList(0) not found: []
}

// Content renders a result for the model. FormatToolReference is the
// Anthropic rendering: the tool_result holds the tool_reference blocks and
// the notes (a name not found, quoted as the model wrote it), and "Tool
// loaded." follows it in the same user message.
func ExampleResult_Content() {
	reg, _ := toolsearch.NewRegistry(nil, toolsearch.NewMCPTool("slack", "send_message", "Send a message to a Slack channel.", nil, nil))
	res, _ := toolsearch.NewSearcher(reg, nil).Search("select:mcp__slack__send_message,Nope", 0)
	content, after := res.Content(toolsearch.FormatToolReference)

	type toolResult struct {
		Type      string                    `json:"type"`
		ToolUseID string                    `json:"tool_use_id"`
		Content   []toolsearch.ContentBlock `json:"content"`
	}
	user := []any{toolResult{"tool_result", "toolu_01", content}} // with the other tool_results of the turn
	for _, b := range after {
		user = append(user, b) // after every tool_result
	}
	out, _ := json.MarshalIndent(user, "", "  ")
	fmt.Println(string(out))
	// Output:
	// [
	//   {
	//     "type": "tool_result",
	//     "tool_use_id": "toolu_01",
	//     "content": [
	//       {
	//         "type": "tool_reference",
	//         "tool_name": "mcp__slack__send_message"
	//       },
	//       {
	//         "type": "text",
	//         "text": "No tool named \"Nope\"."
	//       }
	//     ]
	//   },
	//   {
	//     "type": "text",
	//     "text": "Tool loaded."
	//   }
	// ]
}

// FormatFunctions is a <functions> block, for models that read tool lists
// as text.
func ExampleResult_Content_functions() {
	reg, _ := toolsearch.NewRegistry(nil, toolsearch.Tool{Name: "WebFetch", Description: "Fetch a URL.", ShouldDefer: true,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}}}`)})
	res, _ := toolsearch.NewSearcher(reg, nil).Search("select:WebFetch", 0)
	content, _ := res.Content(toolsearch.FormatFunctions) // nothing follows the tool result
	fmt.Println(content[0].Text)
	// Output:
	// <functions>
	// <function>{"description":"Fetch a URL.","name":"WebFetch","parameters":{"type":"object","properties":{"url":{"type":"string"}}}}</function>
	// </functions>
}

// A Format reads and prints as text, for flags and configuration files.
func ExampleFormat_UnmarshalText() {
	var f toolsearch.Format
	err := f.UnmarshalText([]byte("anthropic"))
	fmt.Println(f, err)
	err = f.UnmarshalText([]byte("xml"))
	fmt.Println(err)
	// Output:
	// tool_reference <nil>
	// toolsearch: invalid option: unknown format "xml" (want inline, tool_reference or functions)
}

// A match says which rules fired.
func ExampleRule_String() {
	reg, _ := toolsearch.NewRegistry(nil, toolsearch.NewMCPTool("github", "create_issue", "Create an issue.", nil, map[string]any{"anthropic/searchHint": "ticket"}))
	res, _ := toolsearch.NewSearcher(reg, nil).Search("issue ticket", 0)
	fmt.Println(res.Matches[0].Score, res.Matches[0].Rules)
	// Output:
	// 18 part_exact|hint|description
}

func ExampleRegistry_SetServerTools() {
	var reg toolsearch.Registry
	reg.SetServerStatus("github", toolsearch.ServerPending)
	res, _ := toolsearch.NewSearcher(&reg, nil).Search("issue", 0)
	content, _ := res.Content(toolsearch.FormatToolReference) // no match: the text is the tool result
	fmt.Println(content[0].Text)

	// tools/list answered: the server's tool list is replaced at once.
	skipped, err := reg.SetServerTools("github", []toolsearch.Tool{
		toolsearch.NewMCPTool("github", "create_issue", "Create an issue.", nil, nil),
		toolsearch.NewMCPTool("github", "bad", "", json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`), nil),
	})
	fmt.Println(len(skipped), err) // the bad tool is skipped and reported
	reg.SetServerStatus("github", toolsearch.ServerConnected)
	for t := range reg.Tools() {
		fmt.Println(t.Name)
	}
	// Output:
	// No matching deferred tools found. Some MCP servers are still connecting: github. Their tools will become available shortly — try searching again.
	// 1 <nil>
	// mcp__github__create_issue
}

func ExampleNewMCPTool() {
	t := toolsearch.NewMCPTool("slack", "send_message", "Send a message.", nil, map[string]any{
		"anthropic/searchHint": "  chat   notify ",
		"anthropic/alwaysLoad": true,
	})
	fmt.Println(t.Name, t.SearchHint, t.AlwaysLoad, t.Deferred())
	// A character replaced in the name (here '.') adds a hash of the raw
	// name, so that "send.message" and "send_message" stay two tools.
	fmt.Println(toolsearch.NewMCPTool("slack", "send.message", "", nil, nil).Name)
	// Output:
	// mcp__slack__send_message chat notify true false
	// mcp__slack__send_message_c4f2901a
}

func ExampleParseCatalog() {
	tools, err := toolsearch.ParseCatalog([]byte(`{"tools":[
		{"name":"Read","should_defer":false},
		{"name":"mcp__gh__get_issue","server":"gh","mcp_tool_name":"get_issue","search_hint":"ticket"}]}`))
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		fmt.Println(t.Name, t.Deferred())
	}
	// Output:
	// Read false
	// mcp__gh__get_issue true
}
