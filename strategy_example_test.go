package toolsearch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch"
)

func strategyExampleRegistry() *toolsearch.Registry {
	reg, err := toolsearch.NewRegistry(nil,
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
	// Invalid ToolSearch input: the pattern is not a valid RE2 regular expression (missing closing ): `issue(`): escape special characters such as ( ) [ ] . * + ? with a backslash
}

// nameDistance is a Strategy of one's own: it ranks the tools whose names
// are a few edits away from the query, nearest first. It reads the default
// ToolSearch input; select:, exact names and MCP prefixes work as with
// every strategy.
type nameDistance struct{}

func (nameDistance) Name() string                    { return "name-distance" }
func (nameDistance) Input() toolsearch.StrategyInput { return toolsearch.StrategyInput{} }

// Index keeps the lowercased names; prev is not needed, as that is cheap.
func (nameDistance) Index(c toolsearch.Corpus, _ toolsearch.Index) toolsearch.Index {
	names := make(nameIndex, c.Len())
	for i := range names {
		names[i] = strings.ToLower(c.Tool(i).Name)
	}
	return names
}

// nameIndex holds the lowercased name of each tool of the Corpus.
type nameIndex []string

// Rank reports every tool within a third of its name's length in edits.
func (x nameIndex) Rank(_ context.Context, query string, hits []toolsearch.Hit) ([]toolsearch.Hit, []string, error) {
	q := strings.ToLower(strings.TrimSpace(query))
	for i, name := range x {
		if d := editDistance(q, name); d <= len(name)/3 {
			hits = append(hits, toolsearch.Hit{Tool: i, Score: 1 / float64(1+d)})
		}
	}
	return hits, nil, nil
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// A Strategy of one's own plugs into the same query pipeline as the
// built-in ones.
func ExampleStrategy() {
	s := toolsearch.NewSearcher(strategyExampleRegistry(), &toolsearch.SearchOptions{Strategy: nameDistance{}})
	for _, q := range []string{"mcp__github__create_isue", "mcp__slak__send_mesage", "mcp__github"} {
		res, err := s.Search(q, 3)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s (%s):", q, res.Form)
		for _, m := range res.Matches {
			fmt.Printf(" %s %.2f", m.Name, m.Score)
		}
		fmt.Println()
	}
	// Output:
	// mcp__github__create_isue (keywords): mcp__github__create_issue 0.50 mcp__github__list_issues 0.12
	// mcp__slak__send_mesage (keywords): mcp__slack__send_message 0.33
	// mcp__github (prefix): mcp__github__create_issue 0.00 mcp__github__list_issues 0.00
}

// Prepare builds the strategy's index at start-up, so that the first query
// does not wait for it; SearchContext hands its context to the strategy
// (the semantic strategy bounds its query embedding with it).
func ExampleSearcher_Prepare() {
	s := toolsearch.NewSearcher(strategyExampleRegistry(), &toolsearch.SearchOptions{Strategy: toolsearch.HybridStrategy()})
	s.Prepare()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := s.SearchContext(ctx, "create an issue", 0)
	if err != nil {
		panic(err)
	}
	for _, m := range res.Matches {
		fmt.Println(m.Name)
	}
	res, _ = s.CallContext(ctx, json.RawMessage(`{"query":"post to slack"}`))
	fmt.Println(res.Matches[0].Name)
	// Output:
	// mcp__github__create_issue
	// mcp__github__list_issues
	// mcp__slack__send_message
}
