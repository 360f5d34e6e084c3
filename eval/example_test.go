package eval_test

import (
	"fmt"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/eval"
)

// Evaluate measures a strategy on queries whose right answers are known.
func ExampleEvaluate() {
	reg, err := toolsearch.NewRegistry(nil,
		toolsearch.NewMCPTool("github", "create_issue", "Creates a new issue in a repository.", nil, nil),
		toolsearch.NewMCPTool("github", "list_issues", "Lists the issues of a repository.", nil, nil),
		toolsearch.NewMCPTool("slack", "send_message", "Posts a message to a Slack channel.", nil, nil),
	)
	if err != nil {
		panic(err)
	}
	queries := []eval.Query{
		{Query: "slack", Relevant: []string{"mcp__slack__send_message"}},
		{Query: "creating issues", Relevant: []string{"mcp__github__create_issue"}},
	}
	for _, name := range []string{"default", "hybrid"} {
		st, _ := toolsearch.ParseStrategy(name)
		rep := eval.Evaluate(reg, &toolsearch.SearchOptions{Strategy: st}, queries)
		fmt.Printf("%s: Recall@5 %.2f MRR %.2f\n", rep.Strategy, rep.Recall5, rep.MRR)
	}
	// Output:
	// default: Recall@5 0.50 MRR 0.50
	// hybrid: Recall@5 1.00 MRR 1.00
}

// WordsPattern writes a request as a pattern for the regex strategy.
func ExampleWordsPattern() {
	fmt.Println(eval.WordsPattern("Send a message to the Slack channel, please"))
	// Output:
	// send|message|slack|channel
}

// AsPatterns writes queries as a model using the regex strategy might:
// select: and one-token queries as they are, requests as WordsPattern.
func ExampleAsPatterns() {
	for _, q := range eval.AsPatterns([]eval.Query{
		{Query: "select:Read"},
		{Query: "create_issue"},
		{Query: "Send a message to the Slack channel"},
	}) {
		fmt.Println(q.Query)
	}
	// Output:
	// select:Read
	// create_issue
	// send|message|slack|channel
}

// Missing names the relevant tools a dataset expects that the catalog
// does not have: Evaluate counts them as not found.
func ExampleMissing() {
	reg, _ := toolsearch.NewRegistry(nil, toolsearch.NewMCPTool("github", "create_issue", "Creates an issue.", nil, nil))
	fmt.Println(eval.Missing(reg, []eval.Query{
		{Query: "new issue", Relevant: []string{"mcp__github__create_issue", "mcp__github__open_issue"}},
	}))
	// Output:
	// [mcp__github__open_issue]
}
