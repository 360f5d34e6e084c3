package main

// The rows are the figures README.md and BENCHMARKS.md state, each with
// the benchmark that measures it and what the documents said before
// these runs (the "stated" column), so that a figure that does not
// reproduce shows.

// unit says how a row's value prints.
type unit int

const (
	unitTime  unit = iota // ns
	unitBytes             // bytes
	unitCount             // a plain number
	unitRatio             // ×
	unitMBps              // MB/s
)

// A row is one figure: a metric of one benchmark, or two combined.
type row struct {
	group  string
	label  string
	bench  string // benchmark name, without "Benchmark" and the -N suffix
	metric string // "ns/op" when empty
	unit   unit
	per    float64 // the metric is divided by it (tools per op, for example); 1 when 0
	// over, when set, makes the row bench's metric divided by over's
	// (unitRatio), or, with minus, bench's minus over's.
	over   string
	minus  bool
	stated string // what README or BENCHMARKS.md said before
	target string // the target they state, if any
	counts bool   // instruction counts are made for it
}

func (r row) metricName() string {
	if r.metric == "" {
		return "ns/op"
	}
	return r.metric
}

// value returns the row's figure from one pass's medians.
func (r row) value(res results) (float64, bool) {
	v, ok := median(res[r.bench], r.metricName())
	if !ok {
		return 0, false
	}
	if r.per > 0 {
		v /= r.per
	}
	if r.over == "" {
		return v, true
	}
	w, ok := median(res[r.over], r.metricName())
	if !ok || (!r.minus && w == 0) {
		return 0, false
	}
	if r.minus {
		return v - w, true
	}
	return v / w, true
}

const (
	engineSizes = "TOOLSEARCH_BENCH_SIZES=10000,100000"
	growthSizes = "TOOLSEARCH_BENCH_SIZES=100000,1000000"
	allForms    = "TOOLSEARCH_BENCH_FORMS=all"
	// The patterns go test takes have one element per level of a name,
	// and a benchmark whose name has fewer levels than the pattern only
	// runs to look for sub-benchmarks (it is not reported): so each
	// pattern below selects names of exactly its depth.
	engineQueries = `^BenchmarkStrategyIndex$/^query$/^(default|bm25|hybrid)$/^(keywords-1|keywords-3|request)$/^(n=10k|n=100k)$`
	engineFloor   = `^BenchmarkFloor$/^(keywords-1|keywords-3)$/^(n=10k|n=100k)$/^floor$`
	growthQueries = `^BenchmarkStrategyIndex$/^query$/^(default|bm25|hybrid)$/^(keywords-1|keywords-3)$/^(n=100k|n=1000k)$`
	growthFloor   = `^BenchmarkFloor$/^(keywords-1|keywords-3)$/^(n=100k|n=1000k)$/^floor$`
)

// wallJobs are the jobs of one pass. quick shortens what can be shortened
// without losing a row.
func wallJobs(quick bool) []job {
	bt := "0.5s"
	if quick {
		bt = "0.2s"
	}
	return []job{
		{key: "engine", pkg: ".", env: []string{engineSizes, allForms}, bench: engineQueries, benchtime: bt, cpu: "1", count: 3},
		{key: "floor", pkg: ".", env: []string{engineSizes}, bench: engineFloor, benchtime: bt, cpu: "1", count: 3},
		{key: "names", pkg: ".", env: []string{engineSizes}, bench: `^BenchmarkNameForms$/^(select-1|exact-name)$/^(n=10k|n=100k)$`, benchtime: bt, cpu: "1", count: 3},
		{key: "handler", pkg: ".", env: []string{engineSizes}, bench: `^BenchmarkHandlerOverSearch$/^(search|handler)$/^(n=10k|n=100k)$`, benchtime: bt, cpu: "1", count: 3},
		{key: "search", pkg: ".", bench: `^BenchmarkSearch$/^keywords-3$/^n=10k$`, benchtime: bt, cpu: "1", count: 3},
		{key: "cc332", pkg: ".", bench: `^BenchmarkSearch$/^claude-code-2\.1\.332$/^keywords-3$/^n=10k$`, benchtime: bt, cpu: "1", count: 3},
		{key: "prompt", pkg: ".", bench: `^BenchmarkPrompt$/^cached$/^n=10k$`, benchtime: bt, cpu: "1", count: 3},
		{key: "turns", pkg: ".", bench: `^BenchmarkTurn$/^(tools|replace-one)$/^n=100k$`, benchtime: "50x", count: 3},
		{key: "register", pkg: ".", bench: `^BenchmarkRegisterDistinct$/^n=10k$`, benchtime: "10x", cpu: "2", count: 3},
		{key: "catalog", pkg: ".", bench: `^Benchmark(ParseCatalog|CatalogFirstAnswer)$/^n=100k$`, benchtime: "3x", count: 3},
		{key: "readme", pkg: "cmd/toolsearch", bench: `^BenchmarkReadmeCommand$`, benchtime: "50x", count: 3},
		{key: "semantic", pkg: "semantic", bench: semanticBench(quick), benchtime: "300x", cpu: "1", count: 3},
	}
}

// semanticBench is the semantic and hybrid strategies on requests and
// keywords at 10k tools, and at 100k unless quick (embedding 100k tools
// for the index takes minutes on a loaded machine).
func semanticBench(quick bool) string {
	if quick {
		return `^BenchmarkSemantic$/^(hybrid|semantic)$/^(keywords-3|requests)$/^n=10k$`
	}
	return `^BenchmarkSemantic$/^(hybrid|semantic)$/^(keywords-3|requests)$/^(n=10k|n=100k)$`
}

// growthJobs measure the keyword rows at 100k and 1M tools in one process
// (the 1M registry and indexes are built once), and, unless quick, the
// registration of 1M tools.
func growthJobs(quick bool) []job {
	bt := "0.5s"
	if quick {
		bt = "0.2s"
	}
	jobs := []job{{key: "growth", pkg: ".", env: []string{growthSizes, allForms}, bench: growthQueries, benchtime: bt, cpu: "1", count: 3}}
	if !quick { // each builds another 1M registry
		jobs = append(jobs,
			job{key: "growth-floor", pkg: ".", env: []string{growthSizes}, bench: growthFloor, benchtime: bt, cpu: "1", count: 3},
			job{key: "register-1m", pkg: ".", bench: `^BenchmarkRegisterGrowth$/^n=1000k$`, benchtime: "1x", cpu: "2", count: 1})
	}
	return jobs
}

// countJobs are the instruction counts: the 1- and 3-keyword queries of
// each strategy and of the floor at 10k and 100k tools; with quick, only
// the 3-keyword query of default and hybrid at 10k (each row costs two
// processes under callgrind, a few minutes each on a loaded machine).
func countJobs(quick bool) []countJob {
	rows := func(size string, forms ...string) []string {
		var out []string
		for _, f := range forms {
			out = append(out, "Floor/"+f+"/n="+size+"/floor")
			for _, st := range []string{"default", "bm25", "hybrid"} {
				out = append(out, "StrategyIndex/query/"+st+"/"+f+"/n="+size)
			}
		}
		return out
	}
	if quick {
		return []countJob{{key: "count-10k", pkg: ".", env: []string{"TOOLSEARCH_BENCH_SIZES=10000", allForms},
			rows: []string{"StrategyIndex/query/default/keywords-3/n=10k", "StrategyIndex/query/hybrid/keywords-3/n=10k"}, n: 2000}}
	}
	return []countJob{
		{key: "count-10k", pkg: ".", env: []string{"TOOLSEARCH_BENCH_SIZES=10000", allForms}, rows: rows("10k", "keywords-1", "keywords-3"), n: 2000},
		{key: "count-100k", pkg: ".", env: []string{"TOOLSEARCH_BENCH_SIZES=100000", allForms}, rows: rows("100k", "keywords-1", "keywords-3"), n: 400},
	}
}

func engineRows() []row {
	var rows []row
	for _, n := range []struct{ size, label string }{{"10k", "10k"}, {"100k", "100k"}} {
		stated := map[string]string{
			"default/keywords-3/10k": "13 µs", "default/keywords-3/100k": "52 µs",
			"bm25/keywords-3/10k": "5 µs", "bm25/keywords-3/100k": "31 µs",
			"hybrid/keywords-3/10k": "30 µs", "hybrid/keywords-3/100k": "180 µs",
			"bm25/request/10k": "0.1 ms", "bm25/request/100k": "1.1 ms",
			"hybrid/request/10k": "0.36 ms", "hybrid/request/100k": "3.2 ms",
		}
		for _, st := range []string{"default", "bm25", "hybrid"} {
			for _, f := range []string{"keywords-1", "keywords-3", "request"} {
				rows = append(rows, row{group: "Keyword queries and requests (Searcher.Search, max_results 5, one core)",
					label: st + " · " + f + " · " + n.label, bench: "StrategyIndex/query/" + st + "/" + f + "/n=" + n.size,
					stated: stated[st+"/"+f+"/"+n.label], counts: f != "request"})
			}
		}
		for _, f := range []string{"keywords-1", "keywords-3"} {
			rows = append(rows, row{group: "Keyword queries and requests (Searcher.Search, max_results 5, one core)",
				label: "floor · " + f + " · " + n.label, bench: "Floor/" + f + "/n=" + n.size + "/floor", counts: true})
		}
		rows = append(rows,
			row{group: "Names", label: "select:one · " + n.label, bench: "NameForms/select-1/n=" + n.size, stated: "0.2 µs", target: "≤ 300 ns"},
			row{group: "Names", label: "exact name · " + n.label, bench: "NameForms/exact-name/n=" + n.size, stated: "0.2 µs", target: "≤ 300 ns"},
			row{group: "Handler", label: "handler ÷ search · " + n.label, bench: "HandlerOverSearch/handler/n=" + n.size,
				over: "HandlerOverSearch/search/n=" + n.size, unit: unitRatio, stated: map[string]string{"10k": "×1.13", "100k": "×1.06"}[n.label], target: "≤ ×1.5"},
		)
	}
	return rows
}

func otherRows() []row {
	return []row{
		{group: "Profiles", label: "claude-code-2.1.332 ÷ default · keywords-3 · 10k", bench: "Search/claude-code-2.1.332/keywords-3/n=10k",
			over: "Search/keywords-3/n=10k", unit: unitRatio, stated: "2–3 times"},
		{group: "Profiles", label: "deferred-tools prompt, unchanged registry · 10k", bench: "Prompt/cached/n=10k", metric: "allocs/op", unit: unitCount, stated: "allocates nothing", target: "0 allocations"},
		{group: "Per-turn calls", label: "Session.Tools(), 10 discovered · 100k", bench: "Turn/tools/n=100k", stated: "about 15 µs"},
		{group: "Per-turn calls", label: "one-tool Replace · 100k", bench: "Turn/replace-one/n=100k"},
		{group: "Per-turn calls", label: "one-tool Replace, bytes copied · 100k", bench: "Turn/replace-one/n=100k", metric: "B/op", unit: unitBytes, stated: "about 4 MB"},
		{group: "Registration", label: "10,000 tools, 10,000 distinct schemas, 2 cores", bench: "RegisterDistinct/n=10k", stated: "60–100 ms", target: "≤ 100 ms"},
		{group: "Catalog loading", label: "ParseCatalog · 100k (70.7 MB)", bench: "ParseCatalog/n=100k", metric: "MB/s", unit: unitMBps, target: "≥ 150 MB/s"},
		{group: "Catalog loading", label: "parse + register + first answer · 100k", bench: "CatalogFirstAnswer/n=100k", target: "≤ 1 s"},
		{group: "Catalog loading", label: "`toolsearch search \"create github issue\"` in process", bench: "ReadmeCommand", target: "≤ 20 ms"},
		{group: "CLI", label: "`toolsearch batch`, mixed 10k catalog, per query, wall", bench: "CLIBatch", stated: "about 30 µs", target: "≤ 40 µs"},
		{group: "CLI", label: "`toolsearch batch`, mixed 10k catalog, per query, CPU", bench: "CLIBatch", metric: "cpu-ns/op", stated: "28.5 µs"},
		{group: "Semantic (CPU time per query, embedding call left out)", label: "semantic − hybrid · requests · 10k", bench: "Semantic/semantic/requests/n=10k",
			over: "Semantic/hybrid/requests/n=10k", minus: true, metric: "cpu-ns/op", stated: "about 0.5 ms"},
		{group: "Semantic (CPU time per query, embedding call left out)", label: "semantic − hybrid · requests · 100k", bench: "Semantic/semantic/requests/n=100k",
			over: "Semantic/hybrid/requests/n=100k", minus: true, metric: "cpu-ns/op", stated: "3–4 ms"},
		{group: "Semantic (CPU time per query, embedding call left out)", label: "semantic · keywords-3 · 10k", bench: "Semantic/semantic/keywords-3/n=10k", metric: "cpu-ns/op"},
		{group: "Semantic (CPU time per query, embedding call left out)", label: "semantic · keywords-3 · 100k", bench: "Semantic/semantic/keywords-3/n=100k", metric: "cpu-ns/op"},
	}
}

// growthRows are the 100k → 1M rows: each strategy's 1- and 3-keyword
// query.
func growthRows() []row {
	var rows []row
	for _, st := range []string{"floor", "default", "bm25", "hybrid"} {
		for _, f := range []string{"keywords-1", "keywords-3"} {
			b := "StrategyIndex/query/" + st + "/" + f + "/n="
			if st == "floor" {
				b = "Floor/" + f + "/n="
			}
			r := row{group: "Growth", label: st + " · " + f, bench: b + "1000k", over: b + "100k", unit: unitRatio, target: "≤ ×12"}
			if st == "floor" {
				r.bench, r.over = r.bench+"/floor", r.over+"/floor"
			}
			rows = append(rows, r)
		}
	}
	return rows
}
