package toolsearch

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// strategyTools is a small pool for the strategy tests.
func strategyTools() []Tool {
	return []Tool{
		{Name: "Read", Description: "Reads a file from disk."}, // not deferred
		{Name: "NotebookEdit", Description: "Edits a cell of a Jupyter notebook.", ShouldDefer: true},
		{Name: "WebFetch", Description: "Fetches a URL and returns the page as markdown.", ShouldDefer: true, SearchHint: "download web page"},
		NewMCPTool("github", "create_issue", "Creates a new issue in a GitHub repository.", json.RawMessage(`{"type":"object","properties":{"title":{"type":"string","description":"Issue title"},"labels":{"type":"array","items":{"type":"string"},"description":"Labels to attach"}}}`), nil),
		NewMCPTool("github", "list_issues", "Lists issues of a GitHub repository.", nil, nil),
		NewMCPTool("slack", "send_message", "Sends a message to a Slack channel.", json.RawMessage(`{"type":"object","properties":{"channel":{"type":"string","description":"Channel ID, e.g. C0123"},"text":{"type":"string"}}}`), nil),
		NewMCPTool("slack", "list_channels", "Lists the channels of the Slack workspace.", nil, nil),
	}
}

func strategyRegistry(t testing.TB) *Registry {
	t.Helper()
	reg, err := NewRegistry(strategyTools()...)
	require.NoError(t, err)
	return reg
}

func allStrategies() []Strategy {
	return []Strategy{DefaultStrategy(), BM25Strategy(nil), RegexStrategy(), HybridStrategy()}
}

func TestParseStrategy(t *testing.T) {
	for _, name := range StrategyNames {
		t.Run(name, func(t *testing.T) {
			st, err := ParseStrategy(name)
			require.NoError(t, err)
			assert.Equal(t, name, st.Name())
		})
	}
	t.Run("empty is default", func(t *testing.T) {
		st, err := ParseStrategy("")
		require.NoError(t, err)
		assert.Equal(t, "default", st.Name())
	})
	t.Run("unknown", func(t *testing.T) {
		_, err := ParseStrategy("fuzzy")
		require.ErrorIs(t, err, ErrUnknownStrategy)
		assert.Contains(t, err.Error(), `"fuzzy"`)
		assert.Contains(t, err.Error(), "default, bm25, regex, hybrid")
	})
}

// Every strategy answers select: and exact names the same way.
func TestStrategiesKeepSelectAndExact(t *testing.T) {
	reg := strategyRegistry(t)
	for _, st := range allStrategies() {
		t.Run(st.Name(), func(t *testing.T) {
			s := NewSearcher(reg, &SearchOptions{Strategy: st})
			res, err := s.Search("select:WebFetch,Read,Nope", 0)
			require.NoError(t, err)
			assert.Equal(t, FormSelect, res.Form)
			assert.Equal(t, []string{"WebFetch", "Read"}, matchNames(res))
			assert.Equal(t, []string{"Nope"}, res.NotFound)

			res, err = s.Search("  mcp__SLACK__send_message ", 0)
			require.NoError(t, err)
			assert.Equal(t, FormExact, res.Form)
			assert.Equal(t, []string{"mcp__slack__send_message"}, matchNames(res))
		})
	}
}

// Only deferred tools are searched: Read is not deferred.
func TestStrategiesSearchOnlyDeferred(t *testing.T) {
	reg := strategyRegistry(t)
	queries := map[string]string{"default": "read file", "bm25": "reads file disk", "regex": "disk", "hybrid": "read a file from disk"}
	for _, st := range allStrategies() {
		t.Run(st.Name(), func(t *testing.T) {
			res, err := NewSearcher(reg, &SearchOptions{Strategy: st}).Search(queries[st.Name()], 10)
			require.NoError(t, err)
			assert.NotContains(t, matchNames(res), "Read")
		})
	}
}

// A scoped Searcher never returns a tool outside its scope, whatever the
// strategy.
func TestStrategiesRespectScope(t *testing.T) {
	reg := strategyRegistry(t)
	scope := &Scope{Allow: []string{"mcp__github__list_issues", "WebFetch"}}
	queries := map[string]string{"default": "issue", "bm25": "issues", "regex": "issue", "hybrid": "issue"}
	for _, st := range allStrategies() {
		t.Run(st.Name(), func(t *testing.T) {
			s := NewSearcher(reg, &SearchOptions{Strategy: st, Scope: scope})
			res, err := s.Search(queries[st.Name()], 10)
			require.NoError(t, err)
			assert.Equal(t, []string{"mcp__github__list_issues"}, matchNames(res), "query %q", queries[st.Name()])
			res, err = s.Search("mcp__github__create_issue", 10)
			require.NoError(t, err)
			assert.NotContains(t, matchNames(res), "mcp__github__create_issue", "an exact name outside the scope is not found")
		})
	}
}

// The MCP prefix form works for the keyword strategies; for regex the
// prefix is a pattern, which finds the same tools.
func TestStrategiesMCPPrefix(t *testing.T) {
	reg := strategyRegistry(t)
	for _, st := range allStrategies() {
		t.Run(st.Name(), func(t *testing.T) {
			res, err := NewSearcher(reg, &SearchOptions{Strategy: st}).Search("mcp__slack", 10)
			require.NoError(t, err)
			assert.ElementsMatch(t, []string{"mcp__slack__list_channels", "mcp__slack__send_message"}, matchNames(res))
			if st.Name() == "regex" {
				assert.Equal(t, FormKeywords, res.Form)
			} else {
				assert.Equal(t, FormPrefix, res.Form)
			}
		})
	}
}

// The default strategy is the spec scoring: a nil Strategy and
// DefaultStrategy give the same results, scores and rules.
func TestDefaultStrategyUnchanged(t *testing.T) {
	reg := strategyRegistry(t)
	for _, q := range []string{"issue", "github issue", "+slack send", "notebook jupyter", "createissue", "web page", "nothing here"} {
		a, err := NewSearcher(reg, nil).Search(q, 0)
		require.NoError(t, err)
		b, err := NewSearcher(reg, &SearchOptions{Strategy: DefaultStrategy()}).Search(q, 0)
		require.NoError(t, err)
		assert.Equal(t, a.Matches, b.Matches, "query %q", q)
		_, _, want := reg.load().keywordSearch(q, DefaultMaxResults, everything)
		require.Len(t, a.Matches, len(want), "query %q", q)
		for i, c := range want {
			assert.Equal(t, c.e.tool.Name, a.Matches[i].Name)
			assert.Equal(t, c.score, a.Matches[i].Score)
		}
	}
}

// The strategy index follows the registry: a tool registered after the
// first search is found by the next one, and per-tool data of unchanged
// tools is reused.
func TestStrategyIndexFollowsRegistry(t *testing.T) {
	for _, st := range []Strategy{BM25Strategy(nil), RegexStrategy(), HybridStrategy()} {
		t.Run(st.Name(), func(t *testing.T) {
			reg := strategyRegistry(t)
			s := NewSearcher(reg, &SearchOptions{Strategy: st})
			res, err := s.Search("calendar", 5)
			require.NoError(t, err)
			assert.Empty(t, res.Matches)
			first := s.strategy.cur.Load().idx

			require.NoError(t, reg.Register(Tool{Name: "CalendarAdd", Description: "Adds an event to the calendar.", ShouldDefer: true}))
			res, err = s.Search("calendar", 5)
			require.NoError(t, err)
			assert.Equal(t, []string{"CalendarAdd"}, matchNames(res))
			second := s.strategy.cur.Load().idx
			require.NotSame(t, first, second, "a new snapshot gets a new index")

			e := reg.load().named("WebFetch")
			switch a := first.(type) {
			case *bm25Index:
				assert.Same(t, a.data[e], second.(*bm25Index).data[e])
			case *regexIndex:
				assert.Same(t, a.data[e], second.(*regexIndex).data[e])
			case *hybridIndex:
				assert.Same(t, a.data[e], second.(*hybridIndex).data[e])
			}

			res, err = s.Search("calendar", 5)
			require.NoError(t, err)
			assert.Same(t, second, s.strategy.cur.Load().idx, "an unchanged registry reuses the index")
		})
	}
}

// Searches and registry changes may run concurrently (run with -race).
func TestStrategiesConcurrent(t *testing.T) {
	for _, st := range []Strategy{BM25Strategy(nil), RegexStrategy(), HybridStrategy()} {
		t.Run(st.Name(), func(t *testing.T) {
			reg := strategyRegistry(t)
			s := NewSearcher(reg, &SearchOptions{Strategy: st})
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Go(func() {
					for i := range 50 {
						if g == 0 && i%10 == 0 {
							assert.NoError(t, reg.Replace(Tool{Name: "Extra", Description: fmt.Sprintf("issue tracker %d", i), ShouldDefer: true}))
						}
						res, err := s.Search("issue", 5)
						if assert.NoError(t, err) {
							assert.NotEmpty(t, res.Matches)
						}
					}
				})
			}
			wg.Wait()
		})
	}
}

func TestStrategyToolDefinition(t *testing.T) {
	reg := strategyRegistry(t)
	for _, st := range allStrategies() {
		t.Run(st.Name(), func(t *testing.T) {
			def := NewSearcher(reg, &SearchOptions{Strategy: st}).ToolDefinition()
			var schema struct {
				Properties map[string]any `json:"properties"`
				Required   []string       `json:"required"`
			}
			require.NoError(t, json.Unmarshal(def.InputSchema, &schema))
			want := "query"
			if st.Name() == "regex" {
				want = "pattern"
				assert.Contains(t, def.Description, "regular expression")
				assert.Contains(t, def.Description, "select:")
			}
			assert.Contains(t, schema.Properties, want)
			assert.Contains(t, schema.Properties, "max_results")
			assert.Equal(t, []string{want}, schema.Required)
		})
	}
}

// topHits selects the same best k as a full sort, ties in pool order.
func TestTopHits(t *testing.T) {
	docs := make([]*entry, 200)
	for i := range docs {
		docs[i] = &entry{tool: Tool{Name: fmt.Sprint(i)}}
	}
	var hits []floatHit
	for i := range docs {
		hits = append(hits, floatHit{doc: int32(i), score: float64((i * 7919) % 13)})
	}
	all := topHits(slices.Clone(hits), -1, docs)
	require.Len(t, all, len(hits))
	pos := func(e *entry) int { return slices.Index(docs, e) }
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		require.True(t, a.score > b.score || a.score == b.score && pos(a.e) < pos(b.e), "position %d: %v before %v", i, a, b)
	}
	for _, k := range []int{0, 1, 5, 20, 49, 50, 51, 199, 200, 300} {
		got := topHits(slices.Clone(hits), k, docs)
		assert.Equal(t, all[:min(k, len(all))], got, "k=%d", k)
	}
}
