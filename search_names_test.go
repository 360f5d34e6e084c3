package toolsearch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// namesPool has tools whose descriptions share the words of the others'
// names, so that a keyword ranking of a query of names can leave a named
// tool out.
func namesPool(t *testing.T) *Registry {
	t.Helper()
	graph := "Search the code graph, trace a path through it, get a code snippet or query the graph."
	reg, err := NewRegistry(nil,
		Tool{Name: "Read", Description: "Reads a file.", ShouldDefer: false},
		NewMCPTool("codegraph", "search_graph", "Search the graph.", nil, nil),
		NewMCPTool("codegraph", "trace_path", "Trace a call path.", nil, nil),
		NewMCPTool("codegraph", "get_code_snippet", "Return a snippet.", nil, nil),
		NewMCPTool("codegraph", "query_graph", "Run a query.", nil, nil),
		NewMCPTool("helper", "graph_helper", graph, nil, nil),
		NewMCPTool("helper", "code_graph_tools", graph+" "+graph, nil, nil),
		NewMCPTool("helper", "graph_search_query", graph, nil, nil),
		NewMCPTool("fs", "read_file", "Read a file.", nil, nil),
		NewMCPTool("disk", "read_file", "Read a file from disk.", nil, nil),
		Tool{Name: "WebFetch", Description: "Fetch a URL.", ShouldDefer: true},
	)
	require.NoError(t, err)
	return reg
}

// A query made of tool names returns each named tool, first and in the
// query's order, with every strategy that reads words, whatever the case
// and separators of the names; the default strategy keeps its ranking when
// it already returns them.
func TestNamesForm(t *testing.T) {
	reg := namesPool(t)
	named := []string{"mcp__codegraph__search_graph", "mcp__codegraph__trace_path", "mcp__codegraph__get_code_snippet", "mcp__codegraph__query_graph"}
	for _, q := range []string{
		"search_graph trace_path get_code_snippet query_graph",
		"searchGraph trace-path GET_CODE_SNIPPET mcp__codegraph__query_graph",
		"  mcp__CODEGRAPH__search_graph\ttracePath get-code-snippet QueryGraph ",
	} {
		for _, st := range []Strategy{DefaultStrategy(), BM25Strategy(nil), HybridStrategy()} {
			res := search(t, NewSearcher(reg, &SearchOptions{Strategy: st}), q, 5)
			require.GreaterOrEqual(t, len(res.Matches), 4, "%s: %q", st.Name(), q)
			if st.Name() == "default" {
				assert.ElementsMatch(t, named, matchNames(res)[:4], "%s: %q: every named tool", st.Name(), q)
			} else {
				assert.Equal(t, named, matchNames(res)[:4], "%s: %q: the named tools first, in order", st.Name(), q)
			}
		}
	}

	// The default ranking of these names leaves some out: they are put
	// first, and a note says so. A named tool the ranking did not match
	// reports the full-name rule.
	def := NewSearcher(reg, nil)
	ranked := search(t, def, "search_graph trace_path get_code_snippet query_graph", 3)
	assert.Equal(t, named[:3], matchNames(ranked), "max_results 3: the first three named")
	assert.Equal(t, []string{namesListedFirst()}, ranked.Notes)
	for _, m := range ranked.Matches {
		assert.NotZero(t, m.Rules&RuleFullName, "%s", m.Name)
	}

	// One token can name several tools (read_file on two servers: in the
	// ranking's order, fs's description being the closer); a loaded tool
	// named needs no finding; the rest of the ranking follows.
	res := search(t, NewSearcher(reg, &SearchOptions{Strategy: HybridStrategy()}), "read_file Read trace_path", 5)
	assert.Equal(t, []string{"mcp__fs__read_file", "mcp__disk__read_file", "mcp__codegraph__trace_path"}, matchNames(res)[:3])

	// A name-shaped token among other words names its tool too: it comes
	// first (with the default strategy, it is returned).
	for _, tc := range []struct{ q, tool string }{
		{"use trace_path to find the route", "mcp__codegraph__trace_path"},
		{"get_code_snippet of the graph", "mcp__codegraph__get_code_snippet"},
		{"searchGraph for the callers of main", "mcp__codegraph__search_graph"},
	} {
		for _, st := range []Strategy{DefaultStrategy(), BM25Strategy(nil), HybridStrategy()} {
			got := matchNames(search(t, NewSearcher(reg, &SearchOptions{Strategy: st}), tc.q, 3))
			if st.Name() == "default" {
				assert.Contains(t, got, tc.tool, "%s: %q", st.Name(), tc.q)
			} else {
				require.NotEmpty(t, got)
				assert.Equal(t, tc.tool, got[0], "%s: %q", st.Name(), tc.q)
			}
		}
	}

	// A scope leaves out the named tools outside it.
	scoped := NewSearcher(reg, &SearchOptions{Strategy: HybridStrategy(), Scope: &Scope{Allow: []string{"mcp__codegraph__trace_path", "mcp__codegraph__query_graph"}}})
	assert.Equal(t, []string{"mcp__codegraph__trace_path", "mcp__codegraph__query_graph"}, matchNames(search(t, scoped, "trace_path query_graph", 5)))
}

// Queries that are not in the names form are ranked as before: plain
// words, a "+" term, name-shaped tokens that name nothing, a pattern.
func TestNamesFormNot(t *testing.T) {
	reg := namesPool(t)
	for _, q := range []string{
		"graph search",              // plain words: keywords
		"search_graph nothing_here", // a token that names no tool
		"+search_graph trace_path",  // a required term
		"search_graph",              // one token (the exact or keyword form)
	} {
		for _, st := range []Strategy{DefaultStrategy(), BM25Strategy(nil), HybridStrategy()} {
			res := search(t, NewSearcher(reg, &SearchOptions{Strategy: st}), q, 5)
			assert.NotContains(t, res.Notes, namesListedFirst(), "%s: %q", st.Name(), q)
		}
	}
	// The default strategy keeps its ranking when it returns the named
	// tools already.
	def := NewSearcher(reg, nil)
	q := "graph_helper graph_search_query"
	res := search(t, def, q, 5)
	assert.Subset(t, matchNames(res), []string{"mcp__helper__graph_helper", "mcp__helper__graph_search_query"})
	assert.Empty(t, res.Notes)

	regex := NewSearcher(reg, &SearchOptions{Strategy: RegexStrategy()})
	res, err := regex.Call([]byte(`{"pattern":"search_graph trace_path"}`))
	require.NoError(t, err)
	assert.Empty(t, res.Matches, "a pattern is matched as a pattern")
}

func TestNameShaped(t *testing.T) {
	for tok, want := range map[string]bool{
		"search_graph": true, "trace-path": true, "a.b": true, "createIssue": true, "mcp__x__y": true,
		"graph": false, "Slack": false, "HTTP": false, "_x": false, "x-": false, "__x__": false, "c++": false, "e-mail": true,
	} {
		assert.Equal(t, want, nameShaped(tok), "%q", tok)
	}
}
