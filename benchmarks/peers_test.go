package benchmarks

import (
	"context"
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/benchmarks/internal/benchdata"
)

// Run the comparison with
//
//	go test -run '^$' -bench . -benchtime 2s
//
// (from this directory). Each iteration is one query, taken in turn from a
// fixed list; every engine gets the same list.

var (
	dataOnce sync.Once
	data     *benchdata.Data
	dataErr  error
)

func load(tb testing.TB) *benchdata.Data {
	dataOnce.Do(func() { data, dataErr = benchdata.Load("..") })
	require.NoError(tb, dataErr)
	return data
}

// engines holds every engine built over one catalog.
type engines struct {
	tools   []benchdata.Tool
	ts      *toolsearch.Searcher
	linear  *Linear
	prefilt *Linear
	eino    tool.InvokableTool
	bleve   *Bleve
}

var (
	engMu sync.Mutex
	engs  = map[int]*engines{}
)

func build(tb testing.TB, n int) *engines {
	engMu.Lock()
	defer engMu.Unlock()
	if e := engs[n]; e != nil {
		return e
	}
	e := &engines{tools: load(tb).Catalog(n)}
	tools := make([]toolsearch.Tool, len(e.tools))
	var lin []LinearTool
	names := make([]string, len(e.tools))
	descs := make([]string, len(e.tools))
	for i, t := range e.tools {
		tools[i] = toolsearch.Tool{Name: t.Name, Description: t.Description, InputSchema: t.Schema,
			SearchHint: t.SearchHint, ShouldDefer: t.ShouldDefer, Server: t.Server}
		names[i], descs[i] = t.Name, t.Description
	}
	reg, err := toolsearch.NewRegistry(nil, tools...)
	require.NoError(tb, err)
	e.ts = toolsearch.NewSearcher(reg, nil)
	for t := range reg.Tools() { // pool order
		lin = append(lin, LinearTool{Name: t.Name, Description: t.Description, SearchHint: t.SearchHint, Deferred: t.Deferred()})
	}
	e.linear = NewLinear(lin, false)
	e.prefilt = NewLinear(lin, true)
	e.eino, err = NewEino(context.Background(), names, descs)
	require.NoError(tb, err)
	e.bleve, err = NewBleve(names, descs)
	require.NoError(tb, err)
	engs[n] = e
	return e
}

type shape struct {
	name    string
	queries func(d *benchdata.Data, cat []benchdata.Tool) []string
}

func kw(terms int, req bool) func(*benchdata.Data, []benchdata.Tool) []string {
	return func(d *benchdata.Data, _ []benchdata.Tool) []string { return d.KeywordQueries(terms, 200, req) }
}

// named makes queries from tools spread evenly over the catalog (the
// first at its middle), per tools at a time, so that no engine is favoured by
// where the tools are.
func named(per int, f func([]string) string) func(*benchdata.Data, []benchdata.Tool) []string {
	return func(_ *benchdata.Data, cat []benchdata.Tool) []string {
		var qs []string
		for _, i := range spread(len(cat) - per) {
			var ns []string
			for _, t := range cat[i : i+per] {
				ns = append(ns, t.Name)
			}
			qs = append(qs, f(ns))
		}
		return qs
	}
}

// spread returns up to 200 indexes below n, evenly spaced, in an order
// that covers the whole range early: n/2, n/4, 3n/4, n/8, …
func spread(n int) []int {
	var out []int
	seen := map[int]bool{}
	for step := 2; len(out) < 200 && step <= 1024; step *= 2 {
		for j := 1; j < step && len(out) < 200; j += 2 {
			if i := j * n / step; !seen[i] {
				seen[i] = true
				out = append(out, i)
			}
		}
	}
	return out
}

var shapes = []shape{
	{"keywords-1", kw(1, false)},
	{"keywords-3", kw(3, false)},
	{"keywords-6", kw(6, false)},
	{"required-3", kw(3, true)},
	{"required-6", kw(6, true)},
	{"select-1", named(1, func(ns []string) string { return "select:" + ns[0] })},
	{"select-10", named(10, func(ns []string) string { return "select:" + strings.Join(ns, ",") })},
	{"exact-name", named(1, func(ns []string) string { return strings.ToLower(ns[0]) })},
	{"mcp-prefix", func(_ *benchdata.Data, cat []benchdata.Tool) []string {
		var qs []string
		for _, i := range spread(len(cat)) {
			if srv := cat[i].Server; srv != "" {
				qs = append(qs, "mcp__"+srv+"__")
			}
		}
		return qs
	}},
}

// sizes are the catalog sizes, each with the number of queries per shape
// that every engine answers in one benchmark iteration (fewer at 100k,
// where the slowest engines take seconds per query).
var sizes = []struct{ n, queries int }{{1_000, 40}, {10_000, 20}, {100_000, 5}}

// BenchmarkPeers runs every engine on the same queries, per catalog size
// and query shape. One iteration answers the whole list of queries; the
// ns/query metric divides by its length. toolsearch is measured twice:
// Search (names and scores, like linear and bleve) and handler (JSON
// arguments in, JSON result out, like eino's tool_search). The engines of
// one size are dropped before the next size is built, so that the garbage
// collector of one run does not pay for the heaps of the others.
func BenchmarkPeers(b *testing.B) {
	ctx := context.Background()
	for _, size := range sizes {
		e := build(b, size.n)
		sz := "n=" + strconv.Itoa(size.n/1000) + "k"
		for _, sh := range shapes {
			qs := sh.queries(load(b), e.tools)
			qs = qs[:min(len(qs), size.queries)]
			args := make([]string, len(qs))
			for i, q := range qs {
				a, _ := json.Marshal(map[string]any{"query": q, "max_results": 5})
				args[i] = string(a)
			}
			run := func(engine string, f func(i int) error) {
				b.Run(sz+"/"+sh.name+"/"+engine, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						for i := range qs {
							if err := f(i); err != nil {
								b.Fatal(err)
							}
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(qs)), "ns/query")
				})
			}
			run("toolsearch", func(i int) error { _, err := e.ts.Search(qs[i], 5); return err })
			run("toolsearch-handler", func(i int) error {
				res, err := e.ts.Call(json.RawMessage(args[i]))
				if err == nil {
					_ = res.JSON()
				}
				return err
			})
			run("linear", func(i int) error { _ = e.linear.Search(qs[i], 5); return nil })
			run("linear-prefilter", func(i int) error { _ = e.prefilt.Search(qs[i], 5); return nil })
			run("eino", func(i int) error { _, err := e.eino.InvokableRun(ctx, args[i]); return err })
			run("bleve", func(i int) error { _, err := e.bleve.Search(qs[i], 5); return err })
		}
		drop(size.n)
	}
}

// drop forgets the engines of size n.
func drop(n int) {
	engMu.Lock()
	defer engMu.Unlock()
	if e := engs[n]; e != nil {
		_ = e.bleve.Close()
		delete(engs, n)
	}
	runtime.GC()
}

// TestLinearAgreesWithToolsearch checks that the linear port is a port:
// on a small catalog it ranks like toolsearch for every query shape.
func TestLinearAgreesWithToolsearch(t *testing.T) {
	e := build(t, 300)
	for _, sh := range shapes {
		qs := sh.queries(load(t), e.tools)
		for _, q := range qs[:min(len(qs), 25)] {
			res, err := e.ts.Search(q, 5)
			require.NoError(t, err)
			want := []string{}
			for _, m := range res.Matches {
				want = append(want, m.Name)
			}
			assert.Equal(t, want, e.linear.Search(q, 5), "%s: %q", sh.name, q)
			assert.Equal(t, want, e.prefilt.Search(q, 5), "%s: %q (prefilter)", sh.name, q)
		}
	}
}

// TestPeersAnswer checks that the eino and bleve adapters find tools.
func TestPeersAnswer(t *testing.T) {
	e := build(t, 300)
	name := e.tools[len(e.tools)/2].Name
	out, err := e.eino.InvokableRun(context.Background(), `{"query":"select:`+name+`"}`)
	require.NoError(t, err)
	assert.Equal(t, `{"matches":["`+name+`"]}`, out)
	word := benchdata.Words(e.tools[len(e.tools)/2].Description)[0]
	out, err = e.eino.InvokableRun(context.Background(), `{"query":"`+word+`","max_results":1000}`)
	require.NoError(t, err)
	assert.Contains(t, out, name, "eino finds %s by %q", name, word)
	got, err := e.bleve.Search("select:"+name, 5)
	require.NoError(t, err)
	assert.Equal(t, []string{name}, got)
	got, err = e.bleve.Search(word, 1000)
	require.NoError(t, err)
	assert.Contains(t, got, name, "bleve finds %s by %q", name, word)
	got, err = e.bleve.Search(strings.ToUpper(name), 5)
	require.NoError(t, err)
	assert.Equal(t, []string{name}, got, "bleve finds an exact name by a term query, whatever its case")
}
