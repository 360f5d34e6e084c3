package toolsearch_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolsearch/toolsearch"
)

// Registration-side limits refuse a tool that is over them, with an error
// naming it; the server's other tools are registered all the same.
func ExampleRegistry_SetLimits() {
	var reg toolsearch.Registry
	reg.SetLimits(toolsearch.Limits{MaxSchemaDepth: 8})
	deep := strings.Repeat(`{"items":`, 9) + `{}` + strings.Repeat(`}`, 9)
	err := reg.SetServerTools("files", []toolsearch.Tool{
		toolsearch.NewMCPTool("files", "read", "Read a file.", nil, nil),
		toolsearch.NewMCPTool("files", "nested", "Too deep.", json.RawMessage(deep), nil),
	})
	fmt.Println(errors.Is(err, toolsearch.ErrLimit))
	fmt.Println(err)
	for t := range reg.Tools() {
		fmt.Println(t.Name)
	}
	// Output:
	// true
	// register "mcp__files__nested": toolsearch: invalid input schema: toolsearch: limit exceeded: the schema nests objects and arrays more than 8 deep
	// mcp__files__read
}

// Query-side limits: a query over a limit is refused with a message for
// the model, and a cut (here, select: names) is named in the notes.
func ExampleSearchOptions_limits() {
	reg, _ := toolsearch.NewRegistry(
		toolsearch.Tool{Name: "Read", Description: "Read a file.", ShouldDefer: true},
		toolsearch.Tool{Name: "Write", Description: "Write a file.", ShouldDefer: true},
		toolsearch.Tool{Name: "Edit", Description: "Edit a file.", ShouldDefer: true},
	)
	s := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Limits: toolsearch.Limits{MaxQueryTerms: 3, MaxSelectNames: 2}})

	_, err := s.Call(json.RawMessage(`{"query":"read write edit a file"}`))
	fmt.Println(err)

	res, _ := s.Call(json.RawMessage(`{"query":"select:Read,Write,Edit"}`))
	for _, m := range res.Matches {
		fmt.Println(m.Name)
	}
	fmt.Println(res.Notes[0])
	// Output:
	// toolsearch: invalid ToolSearch input: toolsearch: limit exceeded: the query has more than 3 terms; use fewer, more specific words
	// Read
	// Write
	// select: named 3 tools; the limit is 2 a query, so these were not looked up: Edit. Ask for them in another query.
}
