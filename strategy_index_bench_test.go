package toolsearch

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/querywork"
)

// BenchmarkStrategyIndex measures the default, bm25 and hybrid strategies
// side by side on the benchmark catalogs (1k, 10k and 100k tools, or
// TOOLSEARCH_BENCH_SIZES):
//   - query/ST/keywords-3: one Search of a 3-keyword query, the index
//     built and the pooled scratch grown by each query once first
//     (allocations per query must not grow with the tool count);
//   - query/ST/request: one Search of a dataset's request, whole (with
//     TOOLSEARCH_BENCH_FORMS=all, the other keyword shapes of
//     BenchmarkSearch too);
//   - change+query/ST: one tool replaced (its description alternating),
//     then one Search: the index of the new version is the old one
//     patched;
//   - heap/ST: the live heap the strategy's index adds, per tool (metric
//     indexB/tool; 0 for default, whose index the registry keeps).
func BenchmarkStrategyIndex(b *testing.B) {
	sts := []Strategy{DefaultStrategy(), BM25Strategy(nil), HybridStrategy()}
	for _, n := range benchSizesFromEnv() {
		r, d := engineBenchRegistry(b, n)
		size := "/n=" + strconv.Itoa(n/1000) + "k"
		kw := d.KeywordQueries(3, 200, false)
		var reqs []string
		for i := range 200 {
			reqs = append(reqs, d.Queries[(i*7919)%len(d.Queries)])
		}
		type form struct {
			name string
			qs   []string
		}
		forms := []form{{"keywords-3", kw}, {"request", reqs}}
		if os.Getenv("TOOLSEARCH_BENCH_FORMS") == "all" {
			forms = append(forms, form{"keywords-1", d.KeywordQueries(1, 200, false)}, form{"keywords-6", d.KeywordQueries(6, 200, false)},
				form{"required-3", d.KeywordQueries(3, 200, true)}, form{"required-6", d.KeywordQueries(6, 200, true)})
		}
		for _, st := range sts {
			s := NewSearcher(r, &SearchOptions{Strategy: st})
			s.Prepare()
			for _, f := range forms {
				b.Run("query/"+st.Name()+"/"+f.name+size, func(b *testing.B) {
					for _, q := range f.qs { // grows the pooled scratch to its size
						if _, err := s.Search(q, 5); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						if _, err := s.Search(f.qs[i%len(f.qs)], 5); err != nil {
							b.Fatal(err)
						}
						i++
					}
				})
			}
		}
		for _, st := range sts {
			b.Run("change+query/"+st.Name()+size, func(b *testing.B) {
				cr := benchRegistryCopy(b, r)
				s := NewSearcher(cr, &SearchOptions{Strategy: st})
				s.Prepare()
				t := cr.load().deferredAt(n / 2).tool
				alt := [2]Tool{t, t}
				alt[1].Description += " (changed)"
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if err := cr.Replace(alt[(i+1)%2]); err != nil {
						b.Fatal(err)
					}
					if _, err := s.Search(kw[i%len(kw)], 5); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
		for _, st := range sts[1:] {
			b.Run("heap/"+st.Name()+size, func(b *testing.B) {
				var per float64
				for b.Loop() {
					s := NewSearcher(r, &SearchOptions{Strategy: st, Scope: &Scope{Allow: []string{"*"}}})
					before := heapNow()
					idx := st.Index(corpusOf(r, r.load()))
					after := heapNow()
					runtime.KeepAlive(idx)
					runtime.KeepAlive(s)
					per = float64(after-before) / float64(n)
				}
				b.ReportMetric(per, "indexB/tool")
			})
		}
	}
}

// benchRegistryCopy returns a new registry of r's tools.
func benchRegistryCopy(b *testing.B, r *Registry) *Registry {
	snap := r.load()
	tools := make([]Tool, 0, snap.pool.Len())
	for e := range snap.pool.All() {
		tools = append(tools, e.tool)
	}
	cr, err := NewRegistry(nil, tools...)
	if err != nil {
		b.Fatal(err)
	}
	return cr
}

func heapNow() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// BenchmarkHandlerOverSearch measures the ToolSearch handler (Call with the
// JSON arguments a model sends, then Result.JSON) against the Search it
// wraps, on the same 3-keyword queries.
func BenchmarkHandlerOverSearch(b *testing.B) {
	for _, n := range benchSizesFromEnv() {
		r, d := engineBenchRegistry(b, n)
		size := "/n=" + strconv.Itoa(n/1000) + "k"
		qs := d.KeywordQueries(3, 200, false)
		args := make([][]byte, len(qs))
		for i, q := range qs {
			args[i] = []byte(`{"query":` + strconv.Quote(q) + `,"max_results":5}`)
		}
		s := NewSearcher(r, nil)
		b.Run("search"+size, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := s.Search(qs[i%len(qs)], 5); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run("handler"+size, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				res, err := s.Call(args[i%len(args)])
				if err != nil {
					b.Fatal(err)
				}
				_ = res.JSON()
				i++
			}
		})
	}
}

// BenchmarkNameForms runs the query forms every strategy shares (select:,
// an exact name, an MCP prefix), made as BenchmarkSearch makes them, at
// the sizes of benchSizesFromEnv (so at 1M tools too).
func BenchmarkNameForms(b *testing.B) {
	for _, n := range benchSizesFromEnv() {
		r, d := engineBenchRegistry(b, n)
		cat := d.Catalog(n)
		names := func(per int, f func([]string) string) []string {
			var qs []string
			for j := range 200 {
				i := j * (len(cat) - per) / 200
				var ns []string
				for _, t := range cat[i : i+per] {
					ns = append(ns, t.Name)
				}
				qs = append(qs, f(ns))
			}
			return qs
		}
		var prefixes []string
		for j := range 200 {
			if srv := cat[j*len(cat)/200].Server; srv != "" {
				prefixes = append(prefixes, "mcp__"+srv+"__")
			}
		}
		s := NewSearcher(r, nil)
		for _, f := range []struct {
			name string
			qs   []string
		}{
			{"select-1", names(1, func(ns []string) string { return "select:" + ns[0] })},
			{"select-10", names(10, func(ns []string) string { return "select:" + strings.Join(ns, ",") })},
			{"exact-name", names(1, func(ns []string) string { return strings.ToUpper(ns[0]) })},
			{"mcp-prefix", prefixes},
		} {
			b.Run(f.name+"/n="+strconv.Itoa(n/1000)+"k", func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if _, err := s.Search(f.qs[i%len(f.qs)], 5); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}

// BenchmarkPruning ranks the queries of BenchmarkStrategyIndex (the
// requests, cut to the term budget as the Searcher cuts them, and the
// 3-keyword queries) with the default strategy's index both ways, the
// pruned path and the exhaustive one, in turn query by query (so that a
// loaded machine slows both alike; which goes first alternates), and
// reports the median time of a query each way (pruned-ns/q,
// exhaustive-ns/q) and the median of the ratio, query by query (medians,
// as a loaded machine stalls some queries for a whole time slice).
func BenchmarkPruning(b *testing.B) {
	for _, n := range benchSizesFromEnv() {
		r, d := engineBenchRegistry(b, n)
		snap := r.load()
		c := corpusOf(r, snap)
		var reqs []string
		for i := range 200 {
			q, _ := fitTerms(d.Queries[(i*7919)%len(d.Queries)], defaultMaxQueryTerms, snap.ix.docFreq)
			reqs = append(reqs, q)
		}
		paths := [2]*keywordIndex{{ix: c.ix, pos: c.pos}, {ix: c.ix, pos: c.pos, exhaustive: true}}
		for _, f := range []struct {
			name string
			qs   []string
		}{{"request", reqs}, {"keywords-3", d.KeywordQueries(3, 200, false)}} {
			b.Run(f.name+"/n="+strconv.Itoa(n/1000)+"k", func(b *testing.B) {
				var spent [2][]float64
				var ratios []float64
				buf := make([]Hit, 0, 8)
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					q := Query{Text: f.qs[i%len(f.qs)], K: 5}
					var took [2]float64
					for j := range 2 {
						p := (i + j) % 2
						ctx, _ := querywork.With(context.Background(), defaultMaxQueryWork)
						start := time.Now()
						if _, _, err := paths[p].Rank(ctx, q, buf[:0]); err != nil {
							b.Fatal(err)
						}
						took[p] = float64(time.Since(start).Nanoseconds())
						spent[p] = append(spent[p], took[p])
					}
					ratios = append(ratios, took[0]/took[1])
					i++
				}
				b.ReportMetric(median(spent[0]), "pruned-ns/q")
				b.ReportMetric(median(spent[1]), "exhaustive-ns/q")
				b.ReportMetric(median(ratios), "pruned/exhaustive")
			})
		}
	}
}

// median returns the middle value of xs (sorted in place), 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}
