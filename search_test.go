package toolsearch

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type hit struct {
	name  string
	score float64
}

func search(t *testing.T, s *Searcher, q string, k int) *Result {
	t.Helper()
	res, err := s.Search(q, k)
	require.NoError(t, err, "Search(%q, %d)", q, k)
	return res
}

func hits(res *Result) []hit {
	out := []hit{}
	for _, m := range res.Matches {
		out = append(out, hit{m.Name, m.Score})
	}
	return out
}

func matchNames(res *Result) []string {
	out := []string{}
	for _, m := range res.Matches {
		out = append(out, m.Name)
	}
	return out
}

// TestSpecCases pins the cases the issue names, on specPool.
func TestSpecCases(t *testing.T) {
	s := NewSearcher(specPool(t), nil)
	for _, tc := range []struct {
		name, query string
		form        Form
		want        []hit
	}{
		{"web ranks WebSearch by hint and description", "web", FormRanked, []hit{{"WebSearch", 16}, {"WebFetch", 10}}},
		{"a repeated term counts twice", "web web", FormRanked, []hit{{"WebSearch", 32}, {"WebFetch", 20}}},
		{"MCP name part plus description", "slack", FormRanked, []hit{{"mcp__slack__send_message", 14}, {"mcp__slack__list_channels", 12}}},
		{"two terms in name and description", "github issue", FormRanked, []hit{
			{"mcp__github__create_issue", 28}, {"mcp__github__list_issues", 18}, {"mcp__github__create_pull_request", 12}}},
		{"required term", "+slack send", FormRanked, []hit{{"mcp__slack__send_message", 28}, {"mcp__slack__list_channels", 12}}},
		{"required term satisfied by the description only", "+repository issue", FormRanked, []hit{
			{"mcp__github__create_issue", 16}, {"mcp__github__list_issues", 8}}},
		{"exact name path, any case", "TASKLIST", FormExact, []hit{{"TaskList", 0}}},
		{"exact name path trims", "  webfetch\t", FormExact, []hit{{"WebFetch", 0}}},
		{"exact name path reaches tools that are not deferred", "read", FormExact, []hit{{"Read", 0}}},
		{"MCP prefix path in pool order", "mcp__github", FormPrefix, []hit{
			{"mcp__github__create_issue", 0}, {"mcp__github__create_pull_request", 0}, {"mcp__github__list_issues", 0}}},
		{"full-name fallback", "create_issue", FormRanked, []hit{{"mcp__github__create_issue", 3}}},
		{"full-name fallback without separators", "sendmessage", FormRanked, []hit{{"mcp__slack__send_message", 3}}},
		{"ties keep pool order", "list", FormRanked, []hit{
			{"mcp__github__list_issues", 14}, {"mcp__slack__list_channels", 14}, {"TaskList", 12}}},
		{"substring of a name part", "note", FormRanked, []hit{{"NotebookEdit", 5}}},
		{"alwaysLoad MCP tool never returned by keywords", "jira ticket", FormRanked, []hit{}},
		{"c++ is matched literally: no word boundary after ++ before a space", "c++", FormRanked, []hit{}},
		{"mcp__ alone is a keyword query", "mcp__", FormRanked, []hit{}},
		{"prefix with no match falls through to keywords", "mcp__nothing", FormRanked, []hit{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := search(t, s, tc.query, 0)
			assert.Equal(t, tc.want, hits(res))
			assert.Equal(t, tc.form, res.Form)
			assert.Equal(t, tc.query, res.Query)
			assert.Equal(t, 10, res.TotalDeferredTools)
		})
	}
}

func TestExactNamePrefersDeferredTools(t *testing.T) {
	r, err := NewRegistry(nil, Tool{Name: "Foo"}, Tool{Name: "foo", ShouldDefer: true}, Tool{Name: "Bar"}, Tool{Name: "bar"})
	require.NoError(t, err)
	s := NewSearcher(r, nil)
	assert.Equal(t, []string{"foo"}, matchNames(search(t, s, "FOO", 0)), "the deferred tool wins over an earlier tool in pool order")
	assert.Equal(t, []string{"Bar"}, matchNames(search(t, s, "BAR", 0)), "with none deferred, the first in pool order")
}

func TestOnlyDeferredToolsAreKeywordSearched(t *testing.T) {
	s := NewSearcher(specPool(t), nil)
	res := search(t, s, "file disk", 0)
	assert.Empty(t, res.Matches, "Read is not deferred: keywords never return it")
}

func TestMaxResults(t *testing.T) {
	var r Registry
	for i := range 30 {
		require.NoError(t, r.Register(Tool{Name: "mcp__s__tool" + string(rune('a'+i%26)) + strings.Repeat("x", i/26), Description: "thing"}))
	}
	s := NewSearcher(&r, nil)
	assert.Len(t, search(t, s, "thing", 0).Matches, defaultMaxResults)
	assert.Len(t, search(t, s, "thing", 7).Matches, 7)
	assert.Len(t, search(t, s, "mcp__s__", 0).Matches, defaultMaxResults, "max_results applies to the MCP prefix path")
	res := search(t, s, "thing", 25)
	assert.Len(t, res.Matches, defaultMaxResultsCap)
	assert.Equal(t, []string{"max_results 25 was lowered to the limit 20"}, res.Notes)
	_, err := s.Search("thing", -1)
	require.ErrorIs(t, err, ErrInvalidQuery)

	s8 := NewSearcher(&r, &SearchOptions{MaxResults: 8, MaxResultsCap: 10})
	assert.Len(t, search(t, s8, "thing", 0).Matches, 8)
	assert.Len(t, search(t, s8, "thing", 12).Matches, 10)
}

func TestDescriptionAndSchemaInMatches(t *testing.T) {
	r, err := NewRegistry(nil,
		Tool{Name: "A", Description: "Alpha tool.", InputSchema: json.RawMessage("{\n  \"type\": \"object\"\n}"), ShouldDefer: true},
		Tool{Name: "B", Description: "Beta tool.", ShouldDefer: true},
	)
	require.NoError(t, err)
	res := search(t, NewSearcher(r, nil), "select:A,B", 0)
	require.Len(t, res.Matches, 2)
	assert.Equal(t, `{"type":"object"}`, string(res.Matches[0].Schema), "schemas are compacted")
	assert.Equal(t, `{"type":"object"}`, string(res.Matches[1].Schema), "a missing schema is an empty object schema")
	assert.Equal(t, "Alpha tool.", res.Matches[0].Description)
	assert.True(t, res.Matches[0].Deferred)
}

// TestCaseOnlyDuplicates: tools whose names differ only in case are all
// kept; the exact-name form picks the tool spelled as the query, case
// included, then the first in pool order that matches ignoring case;
// select: finds each by its exact name, and an ambiguous case-insensitive
// name is not found, with every candidate suggested.
func TestCaseOnlyDuplicates(t *testing.T) {
	var r Registry
	for _, n := range []string{"read", "Read", "READ"} {
		require.NoError(t, r.Register(Tool{Name: n, Description: "reads " + n, ShouldDefer: true}))
	}
	s := NewSearcher(&r, nil)
	for _, q := range []string{"read", "Read", "READ", " read "} {
		res := search(t, s, q, 0)
		assert.Equal(t, FormExact, res.Form, "query %q", q)
		assert.Equal(t, []string{strings.TrimSpace(q)}, matchNames(res), "query %q: the tool spelled as asked", q)
	}
	res := search(t, s, "rEaD", 0)
	assert.Equal(t, []string{"READ"}, matchNames(res), "no tool spelled so: the first in pool order")
	scoped := NewSearcher(&r, &SearchOptions{Scope: &Scope{Allow: []string{"READ"}}})
	assert.Equal(t, []string{"READ"}, matchNames(search(t, scoped, "read", 0)), "the tool spelled so is out of scope: the one in scope that differs in case")
	var mixed Registry
	require.NoError(t, mixed.Register(Tool{Name: "Read", Description: "loaded"}))
	require.NoError(t, mixed.Register(Tool{Name: "read", Description: "deferred", ShouldDefer: true}))
	assert.Equal(t, []string{"Read"}, matchNames(search(t, NewSearcher(&mixed, nil), "Read", 0)), "the very name wins over a deferred tool that differs in case")
	res = search(t, s, "select:read,Read,READ", 0)
	assert.Equal(t, []string{"read", "Read", "READ"}, matchNames(res), "select: finds each by its exact name")
	res = search(t, s, "select:rEaD", 0)
	assert.Empty(t, res.Matches)
	assert.Equal(t, []string{"rEaD"}, res.NotFound)
	assert.Equal(t, map[string][]string{"rEaD": {"READ", "Read", "read"}}, res.Suggestions, "the model is told which tools match ignoring case")
	assert.Equal(t, `No tool named "rEaD" (did you mean READ, Read, read?).`, notFoundText(res.NotFound, res.Suggestions))
	require.Equal(t, 2, r.Remove("READ", "read"))
	res = search(t, s, "select:rEaD", 0)
	assert.Equal(t, []string{"Read"}, matchNames(res), "a unique case-insensitive match is found")
}

// An empty or whitespace query finds nothing, and a note says what to
// send, with every strategy.
func TestEmptyQueryNote(t *testing.T) {
	for _, st := range []Strategy{DefaultStrategy(), BM25Strategy(nil), HybridStrategy()} {
		s := NewSearcher(specPool(t), &SearchOptions{Strategy: st})
		for _, q := range []string{"", "   ", "\t\u3000\n"} {
			res := search(t, s, q, 0)
			assert.Empty(t, res.Matches, "%s: %q", st.Name(), q)
			assert.Equal(t, []string{emptyQuery()}, res.Notes, "%s: %q", st.Name(), q)
		}
	}
	res, err := NewSearcher(specPool(t), nil).Call([]byte(`{"query":" "}`))
	require.NoError(t, err)
	assert.Equal(t, []string{emptyQuery()}, res.Notes, "through Call, as a model's query")
}
