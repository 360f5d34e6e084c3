package toolsearch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

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

// Index keeps the lowercased names.
func (nameDistance) Index(c *toolsearch.Corpus) toolsearch.Index {
	names := make(nameIndex, c.Len())
	for i := range names {
		names[i] = strings.ToLower(c.Tool(i).Name)
	}
	return names
}

// nameIndex holds the lowercased name of each tool of the Corpus.
type nameIndex []string

// Update builds the index of the new version from nothing: that is cheap
// (ExampleCorpus_Changes shows an index that reuses its work).
func (nameIndex) Update(c *toolsearch.Corpus) toolsearch.Index { return nameDistance{}.Index(c) }

// Rank reports every tool within a third of its name's length in edits.
func (x nameIndex) Rank(_ context.Context, query toolsearch.Query, hits []toolsearch.Hit) ([]toolsearch.Hit, []string, error) {
	q := strings.ToLower(strings.TrimSpace(query.Text))
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
	// mcp__github__create_isue (ranked): mcp__github__create_issue 0.50 mcp__github__list_issues 0.12
	// mcp__slak__send_mesage (ranked): mcp__slack__send_message 0.33
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

// descWords is an incremental Strategy of one's own: it ranks the tools
// by how many of the query's words their description has. Its index keeps
// each tool's words by slot, and the index of a new registry version is
// the previous one with the tools that changed read again (Corpus.Changes);
// Rank keeps only the best hits the Searcher asks for (Query.TopHits).
type descWords struct{}

func (descWords) Name() string                    { return "description-words" }
func (descWords) Input() toolsearch.StrategyInput { return toolsearch.StrategyInput{} }

// Index reads every tool of c: the index of the first version.
func (descWords) Index(c *toolsearch.Corpus) toolsearch.Index { return (&wordsIndex{}).Update(c) }

// wordsIndex holds the lowercased description words of the tools, by slot.
type wordsIndex struct {
	c     *toolsearch.Corpus
	words [][]string // by slot; shared with the other versions, never changed
}

// Update returns the index of c: x's words, with those of the tools that
// changed since x's Corpus read again.
func (x *wordsIndex) Update(c *toolsearch.Corpus) toolsearch.Index {
	next := &wordsIndex{c: c, words: make([][]string, c.Slots())}
	copy(next.words, x.words)
	read := 0
	c.Changes(x.c, func(slot, was, is int) {
		next.words[slot] = nil
		if is >= 0 { // the tool that has the slot now
			next.words[slot] = strings.FieldsFunc(strings.ToLower(c.Tool(is).Description), func(r rune) bool {
				return !unicode.IsLetter(r)
			})
			read++
		}
	})
	fmt.Printf("(indexed %d of %d tools)\n", read, c.Len())
	return next
}

// Rank offers every tool that has a query word in its description.
func (x *wordsIndex) Rank(_ context.Context, q toolsearch.Query, hits []toolsearch.Hit) ([]toolsearch.Hit, []string, error) {
	top := q.TopHits(hits)
	terms := strings.Fields(strings.ToLower(q.Text))
	for slot, ws := range x.words {
		n := 0
		for _, w := range ws {
			if slices.Contains(terms, w) {
				n++
			}
		}
		if n > 0 {
			top.Offer(x.c.Position(slot), float64(n), toolsearch.RuleDescription)
		}
	}
	return top.Hits(), nil, nil
}

// An index can be patched from one registry version to the next: after a
// change, descWords reads again only the tool that changed.
func ExampleCorpus_Changes() {
	reg := strategyExampleRegistry()
	s := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: descWords{}})
	search := func(q string) {
		res, err := s.Search(q, 2)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s:", q)
		for _, m := range res.Matches {
			fmt.Printf(" %s %.0f", m.Name, m.Score)
		}
		fmt.Println()
	}
	search("the issues of a repository")
	err := reg.Replace(toolsearch.NewMCPTool("slack", "send_message", "Posts a message about issues of a repository to a Slack channel.", nil, nil))
	if err != nil {
		panic(err)
	}
	search("the issues of a repository")
	// Output:
	// (indexed 3 of 3 tools)
	// the issues of a repository: mcp__github__list_issues 5 mcp__github__create_issue 3
	// (indexed 1 of 3 tools)
	// the issues of a repository: mcp__slack__send_message 6 mcp__github__list_issues 5
}
