package toolsearch_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolsearch/toolsearch"
)

func strategyExampleRegistry() *toolsearch.Registry {
	reg, err := toolsearch.NewRegistry(
		toolsearch.NewMCPTool("github", "create_issue", "Creates a new issue in a repository.", nil, nil),
		toolsearch.NewMCPTool("github", "list_issues", "Lists the issues of a repository.", nil, nil),
		toolsearch.NewMCPTool("slack", "send_message", "Posts a message to a Slack channel.",
			json.RawMessage(`{"type":"object","properties":{"channel":{"type":"string","description":"Channel ID"}}}`), nil),
	)
	if err != nil {
		panic(err)
	}
	return reg
}

// The hybrid strategy answers requests written as sentences as well as
// keywords.
func ExampleHybridStrategy() {
	s := toolsearch.NewSearcher(strategyExampleRegistry(), &toolsearch.SearchOptions{Strategy: toolsearch.HybridStrategy()})
	res, err := s.Search("Could you open a new issue about the crash?", 2)
	if err != nil {
		panic(err)
	}
	for _, m := range res.Matches {
		fmt.Println(m.Name)
	}
	// Output:
	// mcp__github__create_issue
	// mcp__github__list_issues
}

// With the regex strategy the model sends a pattern; a bad one is an
// error to send back to it.
func ExampleRegexStrategy() {
	s := toolsearch.NewSearcher(strategyExampleRegistry(), &toolsearch.SearchOptions{Strategy: toolsearch.RegexStrategy()})
	res, err := s.Call(json.RawMessage(`{"pattern": "channel|slack"}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Matches[0].Name)
	_, err = s.Call(json.RawMessage(`{"pattern": "issue("}`))
	fmt.Println(err)
	// Output:
	// mcp__slack__send_message
	// toolsearch: invalid ToolSearch input: the pattern is not a valid RE2 regular expression (missing closing ): `issue(`): escape special characters such as ( ) [ ] . * + ? with a backslash
}

// Evaluate measures a strategy on queries whose right answers are known.
func ExampleEvaluate() {
	reg := strategyExampleRegistry()
	queries := []toolsearch.EvalQuery{
		{Query: "slack", Relevant: []string{"mcp__slack__send_message"}},
		{Query: "creating issues", Relevant: []string{"mcp__github__create_issue"}},
	}
	for _, name := range []string{"default", "hybrid"} {
		st, _ := toolsearch.ParseStrategy(name)
		rep := toolsearch.Evaluate(toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st}), queries)
		fmt.Printf("%s: Recall@5 %.2f MRR %.2f\n", rep.Strategy, rep.Recall5, rep.MRR)
	}
	// Output:
	// default: Recall@5 0.50 MRR 0.50
	// hybrid: Recall@5 1.00 MRR 1.00
}
