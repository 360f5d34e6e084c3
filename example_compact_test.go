package toolsearch_test

import (
	"fmt"
	"strconv"

	"github.com/toolsearch/toolsearch"
)

// A bound on the listing of deferred tools: over MaxListingBytes, the
// tools of the MCP servers that save the most bytes are listed as one
// line each, and a note says how ToolSearch reaches them; the prefix
// form and select: reach every tool.
func ExampleSearchOptions_maxListingBytes() {
	var reg toolsearch.Registry
	var github []toolsearch.Tool
	for i := range 30 {
		github = append(github, toolsearch.NewMCPTool("github", "tool_"+strconv.Itoa(10+i), "A GitHub tool.", nil, nil))
	}
	_, _ = reg.SetServerTools("github", github)
	_, _ = reg.SetServerTools("slack", []toolsearch.Tool{
		toolsearch.NewMCPTool("slack", "send_message", "Send a message.", nil, nil),
	})
	reg.SetServerStatus("github", toolsearch.ServerConnected)
	reg.SetServerStatus("slack", toolsearch.ServerConnected)

	s := toolsearch.NewSearcher(&reg, &toolsearch.SearchOptions{MaxListingBytes: 600})
	fmt.Println(s.SystemPromptSection())

	res, _ := s.Search("mcp__github__tool_2", 20)
	fmt.Println(len(res.Matches), res.Matches[0].Name)
	res, _ = s.Search("select:mcp__github__tool_39", 0)
	fmt.Println(res.Matches[0].Name)
	// Output:
	// The following deferred tools are available via ToolSearch:
	// mcp__github__* (30 tools), mcp__slack__send_message
	//
	// Not every deferred tool above is listed by name: a line "PREFIX* (N tools)" stands for N tools whose names start with PREFIX, and a line "…and N more tools not listed" counts tools left out. ToolSearch reaches all of them: query a name prefix such as "mcp__github__" for the tools whose names start with it (a longer prefix narrows them), query keywords, or load tools by name with "select:Name1,Name2".
	// 10 mcp__github__tool_20
	// mcp__github__tool_39
}
