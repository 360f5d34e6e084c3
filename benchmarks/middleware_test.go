package benchmarks

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/cloudwego/eino/adk"
	einots "github.com/cloudwego/eino/adk/middlewares/dynamictool/toolsearch"
	"github.com/cloudwego/eino/components/tool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	tseino "github.com/toolsearch/toolsearch/eino"
	"github.com/toolsearch/toolsearch/eval"
)

// Run the middleware comparison with
//
//	go test -run '^$' -bench 'EinoMiddleware' -benchtime 1s
//
// (from this directory). BenchmarkEinoMiddleware times the two
// middlewares per query; BenchmarkEinoMiddlewareQuality reports how well
// each one's search tool finds the right tools of the bench datasets.

// catalogTools returns the first n tools of the benchmark catalog as
// eino tools (with their schemas).
func catalogTools(tb testing.TB, n int) []tool.BaseTool {
	tb.Helper()
	cat := load(tb).Catalog(n)
	tools := make([]toolsearch.Tool, len(cat))
	for i, t := range cat {
		tools[i] = toolsearch.Tool{Name: t.Name, Description: t.Description, InputSchema: t.Schema}
	}
	out, err := EinoTools(tools)
	require.NoError(tb, err)
	return out
}

// BenchmarkEinoMiddleware compares eino's own tool-search middleware with
// tseino's, driven through the same ChatModelAgent hooks (see
// MiddlewareAgent), on the catalogs and query shapes of BenchmarkPeers.
// Each iteration is one query, taken in turn from the shape's list (40
// queries at 1k, 20 at 10k), so ns/op and allocs/op are per query:
//
//   - search: the search tool's InvokableRun alone (JSON arguments in, the
//     text the model reads out);
//   - run: an agent run with one search: BeforeAgent,
//     BeforeModelRewriteState, the search, BeforeModelRewriteState again
//     with its result in the messages.
func BenchmarkEinoMiddleware(b *testing.B) {
	ctx := context.Background()
	for _, size := range sizes[:2] {
		cat := load(b).Catalog(size.n)
		dynamic := catalogTools(b, size.n)
		agents := map[string]*MiddlewareAgent{}
		var err error
		agents["eino"], err = NewEinoMiddleware(ctx, dynamic)
		require.NoError(b, err)
		agents["tseino"], err = NewTseinoMiddleware(ctx, dynamic, nil)
		require.NoError(b, err)
		sz := "n=" + strconv.Itoa(size.n/1000) + "k"
		for _, sh := range shapes {
			qs := sh.queries(load(b), cat)
			qs = qs[:min(len(qs), size.queries)]
			args := make([]string, len(qs))
			for i, q := range qs {
				a, _ := json.Marshal(map[string]any{"query": q, "max_results": 5})
				args[i] = string(a)
			}
			for _, engine := range []string{"eino", "tseino"} {
				a := agents[engine]
				b.Run(sz+"/"+sh.name+"/"+engine+"/search", func(b *testing.B) {
					rctx, err := a.Start(ctx)
					require.NoError(b, err)
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						if _, err := a.Search(rctx, args[i%len(args)]); err != nil {
							b.Fatal(err)
						}
						i++
					}
				})
				b.Run(sz+"/"+sh.name+"/"+engine+"/run", func(b *testing.B) {
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						if _, _, err := a.Run(ctx, qs[i%len(qs)], args[i%len(args)]); err != nil {
							b.Fatal(err)
						}
						i++
					}
				})
			}
		}
	}
}

// BenchmarkEinoAgent is BenchmarkEinoMiddleware's run through a real
// ChatModelAgent (Run, a model that calls the search tool and then
// answers), for the keywords-3 and select-1 shapes: one iteration is one
// agent run. The ADK's own work per run (building the tools node over
// every tool, asking each for its info) is included, the same for both
// middlewares.
func BenchmarkEinoAgent(b *testing.B) {
	ctx := context.Background()
	for _, size := range sizes[:2] {
		cat := load(b).Catalog(size.n)
		dynamic := catalogTools(b, size.n)
		einoMW, err := einots.New(ctx, &einots.Config{DynamicTools: dynamic})
		require.NoError(b, err)
		oursMW, err := tseino.New(ctx, &tseino.Options{DynamicTools: dynamic})
		require.NoError(b, err)
		agents := map[string]*Agent{}
		agents["eino"], err = NewAgent(ctx, einoMW, "tool_search")
		require.NoError(b, err)
		agents["tseino"], err = NewAgent(ctx, oursMW, toolsearch.ToolSearchName)
		require.NoError(b, err)
		sz := "n=" + strconv.Itoa(size.n/1000) + "k"
		for _, sh := range []shape{shapes[1], shapes[5]} {
			qs := sh.queries(load(b), cat)
			qs = qs[:min(len(qs), size.queries)]
			args := make([]string, len(qs))
			for i, q := range qs {
				a, _ := json.Marshal(map[string]any{"query": q, "max_results": 5})
				args[i] = string(a)
			}
			for _, engine := range []string{"eino", "tseino"} {
				a := agents[engine]
				b.Run(sz+"/"+sh.name+"/"+engine, func(b *testing.B) {
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						if _, err := a.Run(ctx, args[i%len(args)]); err != nil {
							b.Fatal(err)
						}
						i++
					}
				})
			}
		}
	}
}

// benchDatasets are the public datasets of testdata/bench.
var benchDatasets = []string{"bfcl", "livemcpbench", "metatool", "seal_tools"}

func loadDataset(tb testing.TB, name string) *eval.Dataset {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "bench", name+".json"))
	require.NoError(tb, err)
	ds, err := eval.ParseDataset(b)
	require.NoError(tb, err)
	return ds
}

// qualityOptions are the Session options of tseino in the quality
// comparison: the datasets' requests are whole sentences, many over the
// default limit of 32 terms a query (which toolsearch refuses with an
// error for the model), so the limits are raised; the strategy is the one
// named.
func qualityOptions(strategy toolsearch.Strategy) *toolsearch.SessionOptions {
	return &toolsearch.SessionOptions{Search: toolsearch.SearchOptions{Strategy: strategy, MaxQueryTerms: 4096, MaxQueryBytes: 1 << 20}}
}

// quality is the retrieval quality of a search tool over queries, from
// the top five names it returns (binary relevance; R is a query's relevant
// tools): Recall@k, the fraction of queries with a tool of R in the top k;
// MRR@5, the mean of 1/rank of the first tool of R in the top five (0 when
// none); NDCG@5 as package eval computes it; refused, the queries the
// tool answered with no result.
type quality struct {
	queries                     int
	recall1, recall5, mrr, ndcg float64
	refused                     int
}

func (q *quality) add(found []string, ok bool, relevant []string) {
	q.queries++
	if !ok {
		q.refused++
	}
	rel := map[string]bool{}
	for _, r := range relevant {
		rel[r] = true
	}
	var dcg float64
	first := 0
	for i, name := range found[:min(len(found), 5)] {
		if rel[name] {
			dcg += 1 / math.Log2(float64(i+2))
			if first == 0 {
				first = i + 1
			}
		}
	}
	var idcg float64
	for i := range min(len(rel), 5) {
		idcg += 1 / math.Log2(float64(i+2))
	}
	if first == 1 {
		q.recall1++
	}
	if first > 0 {
		q.recall5++
		q.mrr += 1 / float64(first)
	}
	q.ndcg += dcg / idcg
}

func (q *quality) report(b *testing.B) {
	n := float64(q.queries)
	b.ReportMetric(q.recall1/n, "recall@1")
	b.ReportMetric(q.recall5/n, "recall@5")
	b.ReportMetric(q.mrr/n, "mrr@5")
	b.ReportMetric(q.ndcg/n, "ndcg@5")
	b.ReportMetric(float64(q.refused), "refused")
	b.ReportMetric(n, "queries")
}

// BenchmarkEinoMiddlewareQuality asks each middleware's search tool every
// query of each bench dataset ({"query": the request, "max_results": 5},
// every tool of the dataset deferred, but for the one named like a search
// tool: see withoutSearchNames) and reports the quality of what the model
// gets back (see quality). tseino is run with the default strategy
// (Claude Code's scoring) and with hybrid. One iteration is the whole
// dataset: run it with -benchtime 1x.
func BenchmarkEinoMiddlewareQuality(b *testing.B) {
	ctx := context.Background()
	for _, name := range benchDatasets {
		ds := loadDataset(b, name)
		dynamic, err := EinoTools(withoutSearchNames(ds.Tools))
		require.NoError(b, err)
		engines := []struct {
			name string
			make func() (*MiddlewareAgent, error)
		}{
			{"eino", func() (*MiddlewareAgent, error) { return NewEinoMiddleware(ctx, dynamic) }},
			{"tseino-default", func() (*MiddlewareAgent, error) { return NewTseinoMiddleware(ctx, dynamic, qualityOptions(nil)) }},
			{"tseino-hybrid", func() (*MiddlewareAgent, error) {
				return NewTseinoMiddleware(ctx, dynamic, qualityOptions(toolsearch.HybridStrategy()))
			}},
		}
		for _, e := range engines {
			a, err := e.make()
			require.NoError(b, err)
			b.Run(name+"/"+e.name, func(b *testing.B) {
				var q quality
				for b.Loop() {
					q = quality{}
					rctx, err := a.Start(ctx)
					require.NoError(b, err)
					for _, query := range ds.Queries {
						args, _ := json.Marshal(map[string]any{"query": query.Query, "max_results": 5})
						out, err := a.Search(rctx, string(args))
						found := Found(out)
						q.add(found, err == nil && (len(found) > 0 || isResult(out)), query.Relevant)
					}
				}
				q.report(b)
			})
		}
	}
}

// withoutSearchNames returns tools without the tools named like either
// middleware's search tool (BFCL has a tool_search, which no query needs):
// an agent cannot have two tools of one name.
func withoutSearchNames(tools []toolsearch.Tool) []toolsearch.Tool {
	return slices.DeleteFunc(slices.Clone(tools), func(t toolsearch.Tool) bool {
		return t.Name == "tool_search" || t.Name == toolsearch.ToolSearchName
	})
}

// isResult reports whether out is a search result (with no matches), not
// a text for a query that could not be answered.
func isResult(out string) bool {
	var v map[string]json.RawMessage
	if json.Unmarshal([]byte(out), &v) != nil {
		return false
	}
	_, ok := v["matches"]
	return ok
}

// The names tseino's search tool returns for a dataset's request are the
// first five of the core Searcher's ranking over the same tools: the
// middleware adds nothing to, and loses nothing of, the ranking.
func TestTseinoMiddlewareRanksLikeTheSearcher(t *testing.T) {
	ctx := context.Background()
	for _, name := range benchDatasets {
		ds := loadDataset(t, name)
		dynamic, err := EinoTools(ds.Tools)
		require.NoError(t, err)
		opts := qualityOptions(toolsearch.HybridStrategy())
		a, err := NewTseinoMiddleware(ctx, dynamic, opts)
		require.NoError(t, err)
		tools := make([]toolsearch.Tool, len(ds.Tools))
		for i, tl := range ds.Tools {
			tools[i] = toolsearch.Tool{Name: tl.Name, Description: tl.Description, InputSchema: tl.InputSchema, ShouldDefer: true}
		}
		reg, err := toolsearch.NewRegistry(nil, tools...)
		require.NoError(t, err)
		s := toolsearch.NewSearcher(reg, &opts.Search)
		rctx, err := a.Start(ctx)
		require.NoError(t, err)
		for i := 0; i < len(ds.Queries); i += 97 {
			q := ds.Queries[i].Query
			args, _ := json.Marshal(map[string]any{"query": q, "max_results": 5})
			out, err := a.Search(rctx, string(args))
			require.NoError(t, err)
			res, err := s.Search(q, 5)
			require.NoError(t, err)
			want := []string{}
			for _, m := range res.Matches {
				want = append(want, m.Name)
			}
			assert.Equal(t, want, Found(out), "%s query %d: %q", name, i, q)
		}
	}
}

// Both middlewares answer through the agent hooks, and the model's next
// call carries the tools found.
func TestMiddlewareAgents(t *testing.T) {
	ctx := context.Background()
	dynamic := catalogTools(t, 300)
	cat := load(t).Catalog(300)
	target := cat[len(cat)/2].Name
	args := `{"query":"select:` + target + `","max_results":5}`
	eino, err := NewEinoMiddleware(ctx, dynamic)
	require.NoError(t, err)
	ours, err := NewTseinoMiddleware(ctx, dynamic, nil)
	require.NoError(t, err)
	for name, a := range map[string]*MiddlewareAgent{"eino": eino, "tseino": ours} {
		out, infos, err := a.Run(ctx, "find it", args)
		require.NoError(t, err, name)
		assert.Equal(t, []string{target}, Found(out), "%s: the search output names the tool", name)
		names := make([]string, len(infos))
		for i, info := range infos {
			names[i] = info.Name
		}
		assert.Contains(t, names, target, "%s: the next model call has the tool found", name)
		assert.Contains(t, names, "get_time", "%s: and the agent's own tool", name)
		assert.Less(t, len(names), 5, "%s: and not the other deferred tools: %v", name, names)
	}
}

// Both middlewares work in a real ChatModelAgent run: the search tool's
// output names the tool, and the model's second call carries it.
func TestEinoAgents(t *testing.T) {
	ctx := context.Background()
	dynamic := catalogTools(t, 300)
	cat := load(t).Catalog(300)
	target := cat[len(cat)/2].Name
	einoMW, err := einots.New(ctx, &einots.Config{DynamicTools: dynamic})
	require.NoError(t, err)
	oursMW, err := tseino.New(ctx, &tseino.Options{DynamicTools: dynamic})
	require.NoError(t, err)
	for name, search := range map[string]string{"eino": "tool_search", "tseino": toolsearch.ToolSearchName} {
		mw := map[string]adk.ChatModelAgentMiddleware{"eino": einoMW, "tseino": oursMW}[name]
		a, err := NewAgent(ctx, mw, search)
		require.NoError(t, err)
		var second []string
		a.model.last = func(names []string) { second = names }
		out, err := a.Run(ctx, `{"query":"select:`+target+`"}`)
		require.NoError(t, err, name)
		assert.Equal(t, []string{target}, Found(out), "%s: the search output names the tool", name)
		assert.Contains(t, second, target, "%s: the model's second call has the tool found", name)
		assert.Less(t, len(second), 5, "%s: and not the other deferred tools: %v", name, second)
	}
}

// A catalog with a tool named like the middleware's search tool cannot be
// driven: the agent would have two tools of one name.
func TestMiddlewareAgentNameClash(t *testing.T) {
	clash, err := EinoTools([]toolsearch.Tool{{Name: "tool_search", Description: "Search for tools"}, {Name: "other"}})
	require.NoError(t, err)
	_, err = NewEinoMiddleware(context.Background(), clash)
	assert.ErrorContains(t, err, "more than one tool named tool_search")
	assert.Len(t, withoutSearchNames([]toolsearch.Tool{{Name: "tool_search"}, {Name: "ToolSearch"}, {Name: "other"}}), 1)
}

func TestFound(t *testing.T) {
	assert.Equal(t, []string{"a", "b"}, Found(`{"matches":["a","b"]}`), "eino's output")
	assert.Equal(t, []string{"a", "b"}, Found(`{"matches":[{"name":"a","schema":{}},{"name":"b"}],"query":"x"}`), "toolsearch's inline result")
	assert.Empty(t, Found(`Invalid ToolSearch input: query: expected string`), "a text for the model")
	assert.True(t, isResult(`{"matches":[],"query":"x","total_deferred_tools":3}`))
	assert.True(t, isResult(`{"matches":null}`), "eino's output without matches")
	assert.False(t, isResult(`No matching deferred tools found`))
}
