package toolsearch_test

import (
	"encoding/json"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/benchdata"
)

// The benchmarks run on deterministic catalogs of 1,000, 10,000 and 100,000
// tools (and 1,000,000 with TOOLSEARCH_BENCH_1M=1) built from the real
// descriptions in testdata (see internal/benchdata), with keyword queries
// made from the datasets' real queries. Run them with
//
//	go test -run '^$' -bench . -benchtime 2s
//
// BENCHMARKS.md has the figures and the peers' (module benchmarks/).

var benchSizes = func() []int {
	sizes := []int{1_000, 10_000, 100_000}
	if os.Getenv("TOOLSEARCH_BENCH_1M") != "" {
		// A million tools: about 10 s to build each registry, a few GB of heap.
		sizes = append(sizes, 1_000_000)
	}
	return sizes
}()

var (
	benchOnce sync.Once
	benchSrc  *benchdata.Data
	benchErr  error
	benchMu   sync.Mutex
	benchRegs = map[int]*toolsearch.Registry{}
)

func benchData(b *testing.B) *benchdata.Data {
	benchOnce.Do(func() { benchSrc, benchErr = benchdata.Load(".") })
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchSrc
}

func benchTools(b *testing.B, n int, schemas bool) []toolsearch.Tool {
	cat := benchData(b).Catalog(n)
	tools := make([]toolsearch.Tool, len(cat))
	for i, t := range cat {
		tools[i] = toolsearch.Tool{Name: t.Name, Description: t.Description, SearchHint: t.SearchHint,
			ShouldDefer: t.ShouldDefer, Server: t.Server}
		if schemas {
			tools[i].InputSchema = t.Schema
		}
	}
	return tools
}

// benchRegistry returns the shared registry of n tools; benchmarks that
// change it get their own (freshRegistry).
func benchRegistry(b *testing.B, n int) *toolsearch.Registry {
	benchMu.Lock()
	defer benchMu.Unlock()
	if r := benchRegs[n]; r != nil {
		return r
	}
	r := freshRegistry(b, n)
	benchRegs[n] = r
	return r
}

func freshRegistry(b *testing.B, n int) *toolsearch.Registry {
	r, err := toolsearch.NewRegistry(nil, benchTools(b, n, true)...)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

func sizeName(n int) string { return "n=" + strconv.Itoa(n/1000) + "k" }

// BenchmarkSearch runs every query form; each iteration is one query, taken
// in turn from a fixed list.
func BenchmarkSearch(b *testing.B) {
	d := benchData(b)
	type shape struct {
		name    string
		queries func(cat []benchdata.Tool) []string
	}
	kw := func(terms int, req bool) func([]benchdata.Tool) []string {
		return func([]benchdata.Tool) []string { return d.KeywordQueries(terms, 200, req) }
	}
	names := func(cat []benchdata.Tool, per int, f func([]string) string) []string {
		var qs []string
		for j := range 200 { // tools spread evenly over the catalog
			i := j * (len(cat) - per) / 200
			var ns []string
			for _, t := range cat[i : i+per] {
				ns = append(ns, t.Name)
			}
			qs = append(qs, f(ns))
		}
		return qs
	}
	shapes := []shape{
		{"keywords-1", kw(1, false)},
		{"keywords-3", kw(3, false)},
		{"keywords-6", kw(6, false)},
		{"required-3", kw(3, true)},
		{"required-6", kw(6, true)},
		{"select-1", func(cat []benchdata.Tool) []string {
			return names(cat, 1, func(ns []string) string { return "select:" + ns[0] })
		}},
		{"select-10", func(cat []benchdata.Tool) []string {
			return names(cat, 10, func(ns []string) string { return "select:" + strings.Join(ns, ",") })
		}},
		{"exact-name", func(cat []benchdata.Tool) []string {
			return names(cat, 1, func(ns []string) string { return strings.ToUpper(ns[0]) })
		}},
		{"mcp-prefix", func(cat []benchdata.Tool) []string {
			var qs []string
			for j := range 200 {
				if srv := cat[j*len(cat)/200].Server; srv != "" {
					qs = append(qs, "mcp__"+srv+"__")
				}
			}
			return qs
		}},
	}
	// The default profile's shapes by name alone, then those of
	// ClaudeCode2_1_332 (its own index, built before the timing starts).
	for _, p := range []toolsearch.Profile{toolsearch.ClaudeCode2_1_89, toolsearch.ClaudeCode2_1_332} {
		prefix := ""
		if p != toolsearch.ClaudeCode2_1_89 {
			prefix = p.String() + "/"
		}
		for _, sh := range shapes {
			for _, n := range benchSizes {
				b.Run(prefix+sh.name+"/"+sizeName(n), func(b *testing.B) {
					s := toolsearch.NewSearcher(benchRegistry(b, n), &toolsearch.SearchOptions{Profile: p})
					s.Prepare()
					qs := sh.queries(d.Catalog(n))
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						if _, err := s.Search(qs[i%len(qs)], 5); err != nil {
							b.Fatal(err)
						}
						i++
					}
				})
			}
		}
	}
}

// BenchmarkRequests runs the datasets' real requests, whole (sentences of
// up to several hundred words, cut to each strategy's term budget), with
// every strategy that reads words, at 10,000 and 100,000 tools. The index
// is built before the timing starts.
func BenchmarkRequests(b *testing.B) {
	d := benchData(b)
	var qs []string
	for i := range 200 { // spread over all the datasets
		qs = append(qs, d.Queries[(i*7919)%len(d.Queries)])
	}
	for _, st := range []toolsearch.Strategy{toolsearch.DefaultStrategy(), toolsearch.BM25Strategy(nil), toolsearch.HybridStrategy()} {
		for _, n := range benchSizes[1:] {
			b.Run(st.Name()+"/"+sizeName(n), func(b *testing.B) {
				s := toolsearch.NewSearcher(benchRegistry(b, n), &toolsearch.SearchOptions{Strategy: st})
				if _, err := s.Search(qs[0], 5); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if _, err := s.Search(qs[i%len(qs)], 5); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}

// BenchmarkHandler is the ToolSearch tool call: JSON arguments in, the
// inline JSON result out.
func BenchmarkHandler(b *testing.B) {
	qs := benchData(b).KeywordQueries(3, 200, false)
	for _, n := range benchSizes {
		b.Run("keywords-3/"+sizeName(n), func(b *testing.B) {
			s := toolsearch.NewSearcher(benchRegistry(b, n), nil)
			args := make([]json.RawMessage, len(qs))
			for i, q := range qs {
				args[i], _ = json.Marshal(map[string]any{"query": q, "max_results": 5})
			}
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

// BenchmarkPrompt renders the system-prompt section listing the deferred
// tools: for an unchanged registry, and after a one-tool change.
func BenchmarkPrompt(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("cached/"+sizeName(n), func(b *testing.B) {
			s := toolsearch.NewSearcher(benchRegistry(b, n), nil)
			b.ReportAllocs()
			for b.Loop() {
				_ = s.SystemPromptSection()
			}
		})
		b.Run("after-change/"+sizeName(n), func(b *testing.B) {
			r := freshRegistry(b, n)
			s := toolsearch.NewSearcher(r, nil)
			alt := changedTools(b, n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if err := r.Replace(alt[i%2]); err != nil {
					b.Fatal(err)
				}
				_ = s.SystemPromptSection()
				i++
			}
		})
	}
}

// changedTools returns two versions of one tool in the middle of the
// catalog of n tools, with different descriptions.
func changedTools(b *testing.B, n int) [2]toolsearch.Tool {
	t := benchTools(b, n, true)[n/2]
	u := t
	u.Description = "Changed: " + t.Description + " now with weather forecasts"
	return [2]toolsearch.Tool{u, t}
}

// BenchmarkRegister registers a whole catalog in a new registry, with and
// without input schemas (compiling them is most of the cost; see
// BENCHMARKS.md), and a catalog the registry has seen before.
func BenchmarkRegister(b *testing.B) {
	for _, n := range benchSizes {
		for _, schemas := range []bool{true, false} {
			name := "schemas/"
			if !schemas {
				name = "no-schemas/"
			}
			b.Run(name+sizeName(n), func(b *testing.B) {
				tools := benchTools(b, n, schemas)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := toolsearch.NewRegistry(nil, tools...); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tool")
			})
		}
		b.Run("again/"+sizeName(n), func(b *testing.B) {
			// Every tool again (a reconnect of every server): schemas are
			// known, definitions unchanged.
			tools := benchTools(b, n, true)
			r := freshRegistry(b, n)
			b.ReportAllocs()
			for b.Loop() {
				if err := r.Replace(tools...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkChange measures changes to a registry of n tools, each until
// searches see it (a change is published when the call returns).
func BenchmarkChange(b *testing.B) {
	q := benchData(b).KeywordQueries(3, 1, false)[0]
	for _, n := range benchSizes {
		b.Run("replace-one/"+sizeName(n), func(b *testing.B) {
			r := freshRegistry(b, n)
			alt := changedTools(b, n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if err := r.Replace(alt[i%2]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run("replace-one+search/"+sizeName(n), func(b *testing.B) {
			r := freshRegistry(b, n)
			s := toolsearch.NewSearcher(r, nil)
			alt := changedTools(b, n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if err := r.Replace(alt[i%2]); err != nil {
					b.Fatal(err)
				}
				if _, err := s.Search(q, 5); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run("add-remove-one/"+sizeName(n), func(b *testing.B) {
			r := freshRegistry(b, n)
			t := changedTools(b, n)[0]
			t.Name += "_new"
			b.ReportAllocs()
			for b.Loop() {
				if err := r.Register(t); err != nil {
					b.Fatal(err)
				}
				if r.Remove(t.Name) != 1 {
					b.Fatal("not removed")
				}
			}
		})
		b.Run("server-tools/"+sizeName(n), func(b *testing.B) {
			// A server's tools/list_changed: its 40 tools again, one of them
			// changed.
			r := freshRegistry(b, n)
			srv, tools := turnServer(b, n)
			loopServerTools(b, r, srv, tools)
		})
		b.Run("remove-add-old-one/"+sizeName(n), func(b *testing.B) {
			// A tool the registry has held from the start leaves and comes
			// back: unlike add-remove-one, whose tool is always the newest,
			// it leaves from the middle of its words' postings lists. Each
			// iteration takes another tool, spread over the catalog (after
			// n iterations the tools come round again, now the newest).
			r := freshRegistry(b, n)
			tools := benchTools(b, n, true)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				t := tools[(i*7919+n/3)%n]
				i++
				if r.Remove(t.Name) != 1 {
					b.Fatal("not removed", t.Name)
				}
				if err := r.Register(t); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, st := range []struct {
			name string
			s    toolsearch.Strategy
		}{{"bm25", toolsearch.BM25Strategy(nil)}, {"hybrid", toolsearch.HybridStrategy()}} {
			b.Run("replace-one+search-"+st.name+"/"+sizeName(n), func(b *testing.B) {
				// The strategy's own index pays its update in the next
				// search.
				r := freshRegistry(b, n)
				s := toolsearch.NewSearcher(r, &toolsearch.SearchOptions{Strategy: st.s})
				if _, err := s.Search(q, 5); err != nil {
					b.Fatal(err)
				}
				alt := changedTools(b, n)
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if err := r.Replace(alt[i%2]); err != nil {
						b.Fatal(err)
					}
					if _, err := s.Search(q, 5); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
		b.Run("server-reconnect/"+sizeName(n), func(b *testing.B) {
			// A server goes away and comes back: its tools leave and rejoin.
			r := freshRegistry(b, n)
			b.ReportAllocs()
			for b.Loop() {
				r.SetServerStatus("s1", toolsearch.ServerDisconnected)
				r.SetServerStatus("s1", toolsearch.ServerConnected)
			}
		})
	}
}

// BenchmarkHeap reports the live heap of a registry per tool, its tools'
// own text per tool (name, description, hint and, with schemas, the schema)
// and the difference. Every string is copied first so that all of what the
// registry keeps is counted. Tools with the same schema share one copy, so
// with schemas the difference also gains what that sharing saves.
func BenchmarkHeap(b *testing.B) {
	for _, n := range benchSizes {
		for _, schemas := range []bool{false, true} {
			name := "no-schemas/"
			if schemas {
				name = "schemas/"
			}
			b.Run(name+sizeName(n), func(b *testing.B) {
				var heap, text float64
				for b.Loop() {
					src := benchTools(b, n, schemas)
					before := liveHeap()
					tools := make([]toolsearch.Tool, len(src))
					txt := 0
					for i, t := range src {
						t.Name, t.Description, t.SearchHint = strings.Clone(t.Name), strings.Clone(t.Description), strings.Clone(t.SearchHint)
						if t.Server != "" {
							t.Server = strings.Clone(t.Server)
						}
						t.InputSchema = append(json.RawMessage(nil), t.InputSchema...)
						txt += len(t.Name) + len(t.Description) + len(t.SearchHint) + len(t.InputSchema)
						tools[i] = t
					}
					r, err := toolsearch.NewRegistry(nil, tools...)
					if err != nil {
						b.Fatal(err)
					}
					tools = nil
					after := liveHeap()
					runtime.KeepAlive(r)
					runtime.KeepAlive(src)
					heap, text = float64(after-before)/float64(n), float64(txt)/float64(n)
				}
				b.ReportMetric(heap, "heapB/tool")
				b.ReportMetric(text, "textB/tool")
				b.ReportMetric(heap-text, "overB/tool")
			})
		}
	}
}

func liveHeap() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
