package semantic

import (
	"context"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/benchdata"
)

// precomputed answers the texts it was given from memory, and embeds
// others with the hashEmbedder: the queries of a benchmark are embedded
// before the timing starts, so that the figures leave the embedding call
// out.
type precomputed struct {
	*hashEmbedder
	vecs map[string][]float32
}

func (p *precomputed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 1 {
		if v, ok := p.vecs[texts[0]]; ok {
			return [][]float32{slices.Clone(v)}, nil
		}
	}
	return p.hashEmbedder.Embed(ctx, texts)
}

// BenchmarkSemantic is the semantic strategy's cost per query, the
// embedding call left out (the query vectors are computed before the
// timing), next to the hybrid strategy's on the same registry and
// queries: 200 real requests of the benchmark datasets (as
// BenchmarkRequests at the root) and 200 three-keyword queries, over the
// catalogs of the root benchmarks, with 384-dimension vectors of the
// tests' hashEmbedder. heap-B/tool is the live heap the semantic index
// adds per tool once every tool is embedded (hybrid index included);
// cpu-ns/op is the process's CPU time per query (on Unix), which, unlike
// ns/op, other jobs on a shared machine do not inflate.
//
//	go test -run '^$' -bench Semantic -benchtime 300x ./semantic
func BenchmarkSemantic(b *testing.B) {
	d, err := benchdata.Load("..")
	if err != nil {
		b.Fatal(err)
	}
	var requests []string
	for i := range 200 {
		requests = append(requests, d.Queries[(i*7919)%len(d.Queries)])
	}
	shapes := []struct {
		name    string
		queries []string
	}{{"requests", requests}, {"keywords-3", d.KeywordQueries(3, 200, false)}}
	for _, n := range []int{10_000, 100_000} {
		var reg *toolsearch.Registry
		var st *Strategy
		var heap float64 // bytes per tool
		// keep is the Searcher that embedded the tools, kept while the
		// benchmarks of n run: the registry holds the strategy's index
		// weakly, and one built again would rank by keywords until its
		// tools are embedded again.
		var keep *toolsearch.Searcher
		setup := func(b *testing.B) {
			if reg != nil {
				return
			}
			cat := d.Catalog(n)
			tools := make([]toolsearch.Tool, len(cat))
			for i, t := range cat {
				tools[i] = toolsearch.Tool{Name: t.Name, Description: t.Description, SearchHint: t.SearchHint,
					ShouldDefer: t.ShouldDefer, Server: t.Server, InputSchema: t.Schema}
			}
			if reg, err = toolsearch.NewRegistry(nil, tools...); err != nil {
				b.Fatal(err)
			}
			emb := &precomputed{hashEmbedder: &hashEmbedder{dims: 384}, vecs: map[string][]float32{}}
			for _, sh := range shapes {
				vecs, _ := emb.hashEmbedder.Embed(context.Background(), sh.queries)
				for i, q := range sh.queries {
					emb.vecs[q] = vecs[i]
				}
			}
			hyb := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: toolsearch.HybridStrategy()})
			hyb.Prepare()
			before := liveHeap()
			if st, err = New(emb, &Options{BatchSize: 4096}); err != nil {
				b.Fatal(err)
			}
			keep = toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st})
			keep.Prepare()
			if err := st.Wait(context.Background()); err != nil {
				b.Fatal(err)
			}
			heap = float64(liveHeap()-before) / float64(n)
			runtime.KeepAlive(hyb)
		}
		for _, sh := range shapes {
			for _, name := range []string{"hybrid", "semantic"} {
				b.Run(name+"/"+sh.name+"/n="+strconv.Itoa(n/1000)+"k", func(b *testing.B) {
					setup(b)
					var strat toolsearch.Strategy = toolsearch.HybridStrategy()
					if name == "semantic" {
						strat = st
					}
					s := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: strat})
					if res, err := s.Search(sh.queries[0], 5); err != nil || (name == "semantic" && len(res.Notes) > 0) {
						b.Fatal(err, res.Notes)
					}
					b.ReportAllocs()
					cpu0, hasCPU := cpuTime()
					i := 0
					for b.Loop() {
						if _, err := s.Search(sh.queries[i%len(sh.queries)], 5); err != nil {
							b.Fatal(err)
						}
						i++
					}
					if cpu1, ok := cpuTime(); hasCPU && ok {
						b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
					}
					if name == "semantic" {
						b.ReportMetric(heap, "heap-B/tool")
					}
				})
			}
		}
		runtime.KeepAlive(keep)
	}
}

// liveHeap returns the bytes of live heap after a collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
