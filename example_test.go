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
	reg, err := toolsearch.NewRegistry(
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
	reg, _ := toolsearch.NewRegistry(
		toolsearch.Tool{Name: "WebSearch", Description: "Search the web.", SearchHint: "search the web for current information", ShouldDefer: true},
		toolsearch.Tool{Name: "WebFetch", Description: "Fetch a URL.", ShouldDefer: true},
		toolsearch.Tool{Name: "TaskList", Description: "List tasks.", ShouldDefer: true},
	)
	s := toolsearch.NewSearcher(reg, nil)
	for _, q := range []string{"web", "+web fetch", "select:TaskList,Nope", "TASKLIST"} {
		res, _ := s.Search(q, 0)
		fmt.Printf("%-20q %-8s", q, res.Form)
		for _, m := range res.Matches {
			fmt.Printf(" %s(%d)", m.Name, m.Score)
		}
		fmt.Println(" not found:", res.NotFound)
	}
	// Output:
	// "web"                keywords WebSearch(16) WebFetch(10) not found: []
	// "+web fetch"         keywords WebFetch(22) WebSearch(16) not found: []
	// "select:TaskList,Nope" select   TaskList(0) not found: [Nope]
	// "TASKLIST"           exact    TaskList(0) not found: []
}

func ExampleResult_ToolReferences() {
	reg, _ := toolsearch.NewRegistry(toolsearch.NewMCPTool("slack", "send_message", "Send a message to a Slack channel.", nil, nil))
	res, _ := toolsearch.NewSearcher(reg, nil).Search("slack send", 0)
	out, _ := json.Marshal(res.ToolReferences()) // the tool_result content for Anthropic
	fmt.Println(string(out))
	// Output:
	// [{"type":"tool_reference","tool_name":"mcp__slack__send_message"},{"type":"text","text":"Tool loaded."}]
}

func ExampleResult_Functions() {
	reg, _ := toolsearch.NewRegistry(toolsearch.Tool{Name: "WebFetch", Description: "Fetch a URL.", ShouldDefer: true,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}}}`)})
	res, _ := toolsearch.NewSearcher(reg, nil).Search("select:WebFetch", 0)
	fmt.Println(res.Functions())
	// Output:
	// <functions>
	// <function>{"description":"Fetch a URL.","name":"WebFetch","parameters":{"type":"object","properties":{"url":{"type":"string"}}}}</function>
	// </functions>
}

func ExampleSearcher_DeferredToolsBlock() {
	reg, _ := toolsearch.NewRegistry(
		toolsearch.Tool{Name: "WebFetch", ShouldDefer: true},
		toolsearch.NewMCPTool("github", "create_issue", "", nil, nil),
	)
	fmt.Println(toolsearch.NewSearcher(reg, nil).DeferredToolsBlock())
	// Output:
	// <available-deferred-tools>
	// WebFetch
	// mcp__github__create_issue
	// </available-deferred-tools>
}

func ExampleRegistry_SetServerTools() {
	var reg toolsearch.Registry
	reg.SetServerStatus("github", toolsearch.ServerPending)
	res, _ := toolsearch.NewSearcher(&reg, nil).Search("issue", 0)
	fmt.Println(res.NoMatchText())

	// tools/list answered: the server's tool list is replaced at once.
	err := reg.SetServerTools("github", []toolsearch.Tool{
		toolsearch.NewMCPTool("github", "create_issue", "Create an issue.", nil, nil),
		toolsearch.NewMCPTool("github", "bad", "", json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`), nil),
	})
	fmt.Println(err != nil) // the bad tool is skipped and reported
	reg.SetServerStatus("github", toolsearch.ServerConnected)
	for t := range reg.Tools() {
		fmt.Println(t.Name)
	}
	// Output:
	// No matching deferred tools found. Some MCP servers are still connecting: github. Their tools will become available shortly — try searching again.
	// true
	// mcp__github__create_issue
}

func ExampleNewMCPTool() {
	t := toolsearch.NewMCPTool("my server", "send.message", "Send a message.", nil, map[string]any{
		"anthropic/searchHint": "  chat   notify ",
		"anthropic/alwaysLoad": true,
	})
	fmt.Println(t.Name, t.SearchHint, t.AlwaysLoad, t.Deferred())
	// Output:
	// mcp__my_server__send_message chat notify true false
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

func ExampleDeltaText() {
	fmt.Println(toolsearch.DeltaText([]string{"mcp__jira__search"}, []string{"mcp__slack__send_message"}))
	// Output:
	// The following deferred tools are now available via ToolSearch:
	// mcp__jira__search
	//
	// The following deferred tools are no longer available (their MCP server disconnected). Do not search for them — ToolSearch will return no match:
	// mcp__slack__send_message
}
