package toolsearch_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolsearch/toolsearch"
)

// Registry limits refuse a tool that is over them, with an error naming
// it; the server's other tools are registered all the same.
func ExampleRegistryOptions() {
	reg, err := toolsearch.NewRegistry(&toolsearch.RegistryOptions{MaxSchemaDepth: 8})
	if err != nil {
		panic(err)
	}
	deep := strings.Repeat(`{"items":`, 9) + `{}` + strings.Repeat(`}`, 9)
	skipped, err := reg.SetServerTools("files", []toolsearch.Tool{
		toolsearch.NewMCPTool("files", "read", "Read a file.", nil, nil),
		toolsearch.NewMCPTool("files", "nested", "Too deep.", json.RawMessage(deep), nil),
	})
	fmt.Println(err)
	for _, e := range skipped {
		fmt.Println(errors.Is(e, toolsearch.ErrLimit), e)
	}
	for t := range reg.Tools() {
		fmt.Println(t.Name)
	}
	// Output:
	// <nil>
	// true register "mcp__files__nested": toolsearch: invalid input schema: limit exceeded: the schema nests objects and arrays more than 8 deep
	// mcp__files__read
}

// Query limits: a query over a limit is answered within it, and the cut
// (here, query terms and select: names) is named in the notes.
func ExampleSearchOptions_limits() {
	reg, _ := toolsearch.NewRegistry(nil,
		toolsearch.Tool{Name: "Read", Description: "Read a file.", ShouldDefer: true},
		toolsearch.Tool{Name: "Write", Description: "Write a file.", ShouldDefer: true},
		toolsearch.Tool{Name: "Edit", Description: "Edit a file.", ShouldDefer: true},
	)
	s := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{MaxQueryTerms: 3, MaxSelectNames: 2})

	res, _ := s.Call(json.RawMessage(`{"query":"please read and edit a file"}`))
	for _, m := range res.Matches {
		fmt.Println(m.Name)
	}
	fmt.Println(res.Notes[0])

	res, _ = s.Call(json.RawMessage(`{"query":"select:Read,Write,Edit"}`))
	for _, m := range res.Matches {
		fmt.Println(m.Name)
	}
	fmt.Println(res.Notes[0])
	// Output:
	// Edit
	// Read
	// Write
	// the query has 6 terms and this search reads at most 3: repeated terms were counted once, and these were left out (stop words and the most common words first): "please", "and", "a".
	// Read
	// Write
	// select: named 3 tools; the limit is 2 a query, so these were not looked up: "Edit". Ask for them in another query.
}
