package toolsearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
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
	reg, err := NewRegistry(nil, strategyTools()...)
	require.NoError(t, err)
	return reg
}

// allStrategies returns every built-in strategy (StrategyNames).
func allStrategies() []Strategy {
	var out []Strategy
	for _, name := range StrategyNames() {
		st, err := ParseStrategy(name)
		if err != nil {
			panic(err)
		}
		out = append(out, st)
	}
	return out
}

func TestParseStrategy(t *testing.T) {
	assert.Equal(t, []string{"default", "bm25", "regex", "hybrid"}, StrategyNames(), "the built-in strategies, in the documented order")
	for _, name := range StrategyNames() {
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
		require.ErrorIs(t, err, ErrInvalidOption)
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
				assert.Equal(t, FormRanked, res.Form)
			} else {
				assert.Equal(t, FormPrefix, res.Form)
			}
		})
	}
}

// The default strategy is the keyword scoring: a nil Strategy and
// DefaultStrategy give the same results, scores and rules, and they are the
// reference scorer's best.
func TestDefaultStrategyUnchanged(t *testing.T) {
	reg := strategyRegistry(t)
	for _, q := range []string{"issue", "github issue", "+slack send", "notebook jupyter", "createissue", "web page", "nothing here"} {
		a, err := NewSearcher(reg, nil).Search(q, 0)
		require.NoError(t, err)
		b, err := NewSearcher(reg, &SearchOptions{Strategy: DefaultStrategy()}).Search(q, 0)
		require.NoError(t, err)
		assert.Equal(t, a.Matches, b.Matches, "query %q", q)
		want := refRanking(reg.load(), q)
		want = want[:min(len(want), defaultMaxResults)]
		require.Len(t, a.Matches, len(want), "query %q", q)
		for i, c := range want {
			assert.Equal(t, c.Name, a.Matches[i].Name)
			assert.Equal(t, float64(c.Score), a.Matches[i].Score)
		}
	}
}

// The strategy index follows the registry: a tool registered after the
// first search is found by the next one, and per-tool data of unchanged
// tools is reused.
func TestStrategyIndexFollowsRegistry(t *testing.T) {
	for _, tc := range []struct {
		st  Strategy
		doc func(idx Index, name string) any // the per-tool data of name
	}{
		{RegexStrategy(), func(idx Index, name string) any { return idx.(*regexIndex).docs[name].d }},
	} {
		t.Run(tc.st.Name(), func(t *testing.T) {
			reg := strategyRegistry(t)
			s := NewSearcher(reg, &SearchOptions{Strategy: tc.st})
			res, err := s.Search("calendar", 5)
			require.NoError(t, err)
			assert.Empty(t, res.Matches)
			first := s.index.cur.Load().val

			require.NoError(t, reg.Register(Tool{Name: "CalendarAdd", Description: "Adds an event to the calendar.", ShouldDefer: true}))
			res, err = s.Search("calendar", 5)
			require.NoError(t, err)
			assert.Equal(t, []string{"CalendarAdd"}, matchNames(res))
			second := s.index.cur.Load().val
			require.NotSame(t, first, second, "a new snapshot gets a new index")
			assert.Same(t, tc.doc(first, "WebFetch"), tc.doc(second, "WebFetch"), "an unchanged tool keeps its data")
			assert.Nil(t, tc.doc(first, "CalendarAdd"))

			require.NoError(t, reg.Replace(Tool{Name: "WebFetch", Description: "Fetches a page.", ShouldDefer: true}))
			_, err = s.Search("calendar", 5)
			require.NoError(t, err)
			third := s.index.cur.Load().val
			assert.NotSame(t, tc.doc(second, "WebFetch"), tc.doc(third, "WebFetch"), "a changed tool gets new data")

			_, err = s.Search("calendar", 5)
			require.NoError(t, err)
			assert.Same(t, third, s.index.cur.Load().val, "an unchanged registry reuses the index")
		})
	}
}

// An index is built once per registry version for all the Searchers and
// Sessions that use an equal strategy, whatever their scope; a strategy
// that cannot be compared gets an index per Searcher.
func TestStrategyIndexShared(t *testing.T) {
	reg := strategyRegistry(t)
	var builds atomic.Int32
	counted := &countingStrategy{Strategy: HybridStrategy(), builds: &builds}
	a := NewSearcher(reg, &SearchOptions{Strategy: counted})
	b := NewSearcher(reg, &SearchOptions{Strategy: counted, Scope: &Scope{Allow: []string{"mcp__github__list_issues"}}})
	sess := NewSession(reg, &SessionOptions{Search: SearchOptions{Strategy: counted}})
	for range 3 {
		_, err := a.Search("issue", 5)
		require.NoError(t, err)
		res, err := b.Search("issue", 5)
		require.NoError(t, err)
		assert.Equal(t, []string{"mcp__github__list_issues"}, matchNames(res), "the scope applies to the shared index's hits")
		sessionSearch(t, sess, "issue")
	}
	assert.Equal(t, int32(1), builds.Load(), "one index for the registry version")
	require.NoError(t, reg.Register(Tool{Name: "Extra", ShouldDefer: true}))
	_, err := b.Search("issue", 5)
	require.NoError(t, err)
	_, err = a.Search("issue", 5)
	require.NoError(t, err)
	assert.Equal(t, int32(2), builds.Load(), "one more for the new version")

	builds.Store(0)
	unshared := uncomparableStrategy{Strategy: HybridStrategy(), builds: &builds, tag: []string{"x"}}
	for _, s := range []*Searcher{NewSearcher(reg, &SearchOptions{Strategy: unshared}), NewSearcher(reg, &SearchOptions{Strategy: unshared})} {
		for range 2 {
			_, err := s.Search("issue", 5)
			require.NoError(t, err)
		}
	}
	assert.Equal(t, int32(2), builds.Load(), "a strategy that is not comparable gets one index per Searcher")
}

// countingStrategy counts the indexes its Strategy builds (Index and
// Update); a pointer to it is comparable.
type countingStrategy struct {
	Strategy
	builds *atomic.Int32
}

func (c *countingStrategy) Index(corpus *Corpus) Index {
	c.builds.Add(1)
	return countingIndex{c.Strategy.Index(corpus), c.builds}
}

// countingIndex counts its updates in builds.
type countingIndex struct {
	Index
	builds *atomic.Int32
}

func (x countingIndex) Update(c *Corpus) Index {
	x.builds.Add(1)
	return countingIndex{x.Index.Update(c), x.builds}
}

// uncomparableStrategy holds a slice, so it cannot key a map.
type uncomparableStrategy struct {
	Strategy
	builds *atomic.Int32
	tag    []string
}

func (c uncomparableStrategy) Index(corpus *Corpus) Index {
	c.builds.Add(1)
	return countingIndex{c.Strategy.Index(corpus), c.builds}
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

// topK selects the same best k as a full sort, ties in pool order.
func TestTopK(t *testing.T) {
	var hits []Hit
	for i := range 200 {
		hits = append(hits, Hit{Tool: (i * 37) % 200, Score: float64((i * 7919) % 13)})
	}
	all := topK(slices.Clone(hits), -1)
	require.Len(t, all, len(hits))
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		require.True(t, a.Score > b.Score || a.Score == b.Score && a.Tool < b.Tool, "position %d: %v before %v", i, a, b)
	}
	for _, k := range []int{0, 1, 5, 20, 49, 50, 51, 199, 200, 300} {
		got := topK(slices.Clone(hits), k)
		assert.Equal(t, all[:min(k, len(all))], got, "k=%d", k)
	}
}

// Every built-in strategy works over any Corpus, not only a registry's:
// over the deferred tools of a registry, in pool order, it ranks as the
// registry's Searcher does.
func TestStrategiesOverAnyCorpus(t *testing.T) {
	reg := strategyRegistry(t)
	var tools []Tool
	for e := range reg.load().deferredTools() {
		tools = append(tools, e.copyTool())
	}
	corpus := NewCorpus(tools)
	queries := map[string]string{"default": "+slack send", "bm25": "issues repository", "regex": "issue|channel", "hybrid": "open a new issue"}
	for _, st := range allStrategies() {
		t.Run(st.Name(), func(t *testing.T) {
			q := queries[st.Name()]
			hits, _, err := st.Index(corpus).Rank(context.Background(), Query{Text: q, K: -1}, nil)
			require.NoError(t, err)
			hits = topK(hits, -1)
			res, err := NewSearcher(reg, &SearchOptions{Strategy: st}).Search(q, 20)
			require.NoError(t, err)
			require.NotEmpty(t, res.Matches, "query %q", q)
			require.Len(t, hits, len(res.Matches), "query %q", q)
			for i, h := range hits {
				assert.Equal(t, res.Matches[i].Name, tools[h.Tool].Name, "query %q, match %d", q, i)
				assert.Equal(t, res.Matches[i].Score, h.Score, "query %q, match %d", q, i)
			}
		})
	}
}

// inputStrategy is the default strategy with another ToolSearch input.
type inputStrategy struct {
	Strategy
	in StrategyInput
}

func (s inputStrategy) Input() StrategyInput { return s.in }

// A strategy's Input decides the ToolSearch input, and only it: the field,
// the default schema made for that field, a schema of its own, and the
// pattern form.
func TestStrategyInput(t *testing.T) {
	reg := strategyRegistry(t)
	field := NewSearcher(reg, &SearchOptions{Strategy: inputStrategy{DefaultStrategy(), StrategyInput{Field: "words", Description: "Find tools."}}})
	def := field.ToolDefinition()
	assert.Equal(t, "Find tools.", def.Description)
	assert.JSONEq(t, defaultInputSchema("words"), string(def.InputSchema))
	res, err := field.Call(json.RawMessage(`{"words":"slack send","max_results":1}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"mcp__slack__send_message"}, matchNames(res))
	_, err = field.Call(json.RawMessage(`{"query":"slack"}`))
	require.ErrorIs(t, err, ErrInvalidQuery)
	assert.Contains(t, err.Error(), `expected {"words": string, "max_results"?: integer ≥ 1}`)

	loose := NewSearcher(reg, &SearchOptions{Strategy: inputStrategy{DefaultStrategy(), StrategyInput{Field: "q",
		Schema: json.RawMessage(`{"type":"object"}`)}}})
	for args, want := range map[string]string{
		`{"q":5}`:                           "q must be a string",
		`{"q":"x","max_results":"3"}`:       "max_results must be an integer ≥ 1",
		`{"q":"x","max_results":0}`:         "max_results must be an integer ≥ 1",
		`{"q":"x","max_results":2.5}`:       "max_results must be an integer ≥ 1",
		`{"other":"slack"}`:                 "q must be a string",
		`{"q":"slack","max_results":1e308}`: "",
		`{"q":"slack","max_results":1e999}`: "/max_results: the number 1e999 has an exponent beyond ±400",
	} {
		res, err := loose.Call(json.RawMessage(args))
		if want == "" {
			require.NoError(t, err, "Call(%s)", args)
			assert.NotEmpty(t, res.Matches)
			continue
		}
		require.ErrorIs(t, err, ErrInvalidQuery, "Call(%s): a schema of one's own is checked like the default one", args)
		assert.Contains(t, err.Error(), want, "Call(%s)", args)
	}

	broken := NewSearcher(reg, &SearchOptions{Strategy: inputStrategy{DefaultStrategy(), StrategyInput{Schema: json.RawMessage(`{"type":7}`)}}})
	_, err = broken.Call(json.RawMessage(`{"query":"x"}`))
	require.ErrorIs(t, err, ErrInvalidOption, "a schema that does not compile is the strategy's error")

	pattern := NewSearcher(reg, &SearchOptions{MaxQueryTerms: 2, Strategy: inputStrategy{DefaultStrategy(), StrategyInput{Pattern: true}}})
	res, err = pattern.Search("mcp__slack", 5)
	require.NoError(t, err)
	assert.Equal(t, FormRanked, res.Form, "no MCP prefix form for a pattern")
	res, err = pattern.Search("a b c", 5)
	require.NoError(t, err)
	assert.Empty(t, res.Notes, "no term budget for a pattern")
}

// rankStrategy returns the hits, notes and error it is given.
type rankStrategy struct {
	hits  []Hit
	notes []string
	err   error
}

func (rankStrategy) Name() string            { return "fixed" }
func (rankStrategy) Input() StrategyInput    { return StrategyInput{} }
func (r *rankStrategy) Index(*Corpus) Index  { return r }
func (r *rankStrategy) Update(*Corpus) Index { return r }
func (r *rankStrategy) Rank(_ context.Context, _ Query, hits []Hit) ([]Hit, []string, error) {
	return append(hits, r.hits...), r.notes, r.err
}

// The pipeline takes what a strategy's Rank says: notes reach the result,
// an error reaches the model after "Invalid ToolSearch input: ", and hits
// that name no tool or do not score are ignored; ties keep pool order.
func TestStrategyRankContract(t *testing.T) {
	reg := strategyRegistry(t)
	n := reg.load().deferred.Len()
	st := &rankStrategy{
		hits:  []Hit{{Tool: 3, Score: 1}, {Tool: n, Score: 9}, {Tool: -1, Score: 9}, {Tool: 0, Score: 0}, {Tool: 2, Score: math.NaN()}, {Tool: 1, Score: 1}, {Tool: 4, Score: 2, Rules: RuleArgument}},
		notes: []string{"ranked by a fixed list"},
	}
	s := NewSearcher(reg, &SearchOptions{Strategy: st})
	res, err := s.Search("anything", 10)
	require.NoError(t, err)
	snap := reg.load()
	assert.Equal(t, []string{snap.deferredAt(4).tool.Name, snap.deferredAt(1).tool.Name, snap.deferredAt(3).tool.Name}, matchNames(res))
	assert.Equal(t, RuleArgument, res.Matches[0].Rules)
	assert.Equal(t, []string{"ranked by a fixed list"}, res.Notes)

	st.err = errors.New("the query needs a verb")
	_, err = s.Search("anything", 10)
	require.ErrorIs(t, err, ErrInvalidQuery)
	require.ErrorIs(t, err, st.err, "the strategy's error is wrapped")
	assert.Equal(t, "Invalid ToolSearch input: the query needs a verb", err.Error())
}

// TestScopedSearchKeepsTheBestInScope: an index that keeps only the best
// K hits (every built-in one but regex) keeps the best K in the
// Searcher's scope, not the best K overall that the scope then empties:
// tools outside the scope that rank higher do not take their places.
func TestScopedSearchKeepsTheBestInScope(t *testing.T) {
	var tools []Tool
	for i := range 30 {
		tools = append(tools, Tool{Name: fmt.Sprintf("weather_report_%02d", i), Description: "Weather report, the weather.", ShouldDefer: true})
	}
	tools = append(tools,
		Tool{Name: "forecast_a", Description: "The weather.", ShouldDefer: true},
		Tool{Name: "forecast_b", Description: "The weather.", ShouldDefer: true})
	reg, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	for _, st := range allStrategies() {
		if st.Name() == "regex" {
			continue // appends every hit
		}
		t.Run(st.Name(), func(t *testing.T) {
			all, err := NewSearcher(reg, &SearchOptions{Strategy: st}).Search("weather", 2)
			require.NoError(t, err)
			require.Len(t, all.Matches, 2)
			assert.NotContains(t, matchNames(all), "forecast_a", "outside a scope, other tools rank higher")
			s := NewSearcher(reg, &SearchOptions{Strategy: st, Scope: &Scope{Allow: []string{"forecast_a", "forecast_b"}}})
			res, err := s.Search("weather", 2)
			require.NoError(t, err)
			assert.Equal(t, []string{"forecast_a", "forecast_b"}, matchNames(res))
		})
	}
}
