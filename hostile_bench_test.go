package toolsearch

// Worst cases of the bounded classes of SECURITY.md, at 10,000 and 100,000
// tools: what a hostile model or server can make one call cost. BENCHMARKS.md
// has the figures; run them with
//
//	go test -run '^$' -bench 'Hostile' -benchtime 3x
//
// The machine is shared: compare the figures of one run with each other
// (a hostile query against a normal one), not with another run's.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/benchdata"
)

var hostileSizes = []int{10_000, 100_000}

// distinctSchemaTools returns n tools of server srv, each with a schema of
// its own (so that registering them compiles n schemas).
func distinctSchemaTools(srv string, n int) []Tool {
	tools := make([]Tool, n)
	for i := range tools {
		tools[i] = Tool{
			Name:        fmt.Sprintf("mcp__%s__tool_%d", srv, i),
			Description: fmt.Sprintf("Tool number %d of the big server: lists, creates and updates records.", i),
			Server:      srv,
			InputSchema: json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"id_%d":{"type":"string","description":"the record"},"limit":{"type":"integer","minimum":1}},"required":["id_%d"]}`, i, i)),
		}
	}
	return tools
}

// BenchmarkHostileRegistrationBlocksNoReader: while one server registers n
// tools with distinct schemas, another server's Lookup, CheckCall,
// SetServerStatus and a search go on; the metrics are the 99th percentile
// and the slowest of each (µs), next to the registration's own time (ms).
// On a machine whose cores the compilation fills, the readers' times are
// the scheduler's: none of them waits for a lock the registration holds
// (SetServerStatus, a writer, waits for the new snapshot to be published,
// not for the compilation).
func BenchmarkHostileRegistrationBlocksNoReader(b *testing.B) {
	for _, n := range hostileSizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			big := distinctSchemaTools("big", n)
			var times [4][]time.Duration
			var regTime time.Duration
			for b.Loop() {
				var r Registry
				_, err := r.SetServerTools("small", []Tool{
					NewMCPTool("small", "fetch", "Fetch a page.", json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}}}`), nil),
				})
				if err != nil {
					b.Fatal(err)
				}
				s := NewSession(&r, nil)
				searcher := NewSearcher(&r, nil)
				var done atomic.Bool
				var wg sync.WaitGroup
				wg.Go(func() {
					defer done.Store(true)
					start := time.Now()
					if skipped, err := r.SetServerTools("big", big); err != nil || len(skipped) > 0 {
						b.Error(err, skipped)
					}
					regTime = time.Since(start)
				})
				ops := []func(){
					func() { r.Lookup("mcp__small__fetch") },
					func() { _, _ = s.CheckCall("mcp__small__fetch", json.RawMessage(`{"url":"u"}`)) },
					func() { r.SetServerStatus("small", ServerConnected); r.SetServerStatus("other", ServerPending) },
					func() { _, _ = searcher.Search("fetch page", 5) },
				}
				for !done.Load() {
					for i, op := range ops {
						t := time.Now()
						op()
						times[i] = append(times[i], time.Since(t))
					}
					time.Sleep(time.Millisecond)
				}
				wg.Wait()
			}
			for i, name := range []string{"lookup", "checkcall", "setstatus", "search"} {
				slices.Sort(times[i])
				p99 := times[i][len(times[i])*99/100]
				b.ReportMetric(float64(p99.Microseconds()), "p99-"+name+"-µs")
				b.ReportMetric(float64(times[i][len(times[i])-1].Microseconds()), "max-"+name+"-µs")
			}
			b.ReportMetric(float64(regTime.Milliseconds()), "register-ms")
		})
	}
}

// hostileCatalog returns n deferred MCP tools with 2 KB descriptions in
// which every punctuation and word run of the hostile queries below occurs,
// so that each of them has every tool as a candidate.
func hostileCatalog(b *testing.B, n int) *Registry {
	b.Helper()
	desc := strings.Repeat("a.b c++x e.g. x-y f(z) a---b read file ", 60)[:2000]
	tools := make([]Tool, n)
	for i := range tools {
		tools[i] = Tool{
			Name:        fmt.Sprintf("mcp__srv%d__read_file_%d", i%50, i),
			Description: desc,
			Server:      fmt.Sprintf("srv%d", i%50),
		}
	}
	r, err := NewRegistry(nil, tools...)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkHostileQueries: the queries whose work a model controls, on a
// catalog where they find the most to do, next to plain queries of the
// same forms. Each op is one query.
func BenchmarkHostileQueries(b *testing.B) {
	var near, exist []string
	for i := range 32 {
		near = append(near, fmt.Sprintf("mcp__srv%d__read_fil_%d", i, i*7))
		exist = append(exist, fmt.Sprintf("mcp__srv%d__read_file_%d", i, i+50*i))
	}
	queries := []struct{ name, strategy, query string }{
		{"keywords/plain", "default", "read file"},
		{"keywords/32-punctuation-terms", "default", strings.Repeat("--- . ( - ", 8)},
		{"keywords/32-mixed-terms", "default", strings.Repeat("a.b c++ e.g x-y ", 8)},
		{"keywords/32-absent-punctuation-terms", "default", strings.Repeat("%% ", 32)},
		{"keywords/32-absent-mixed-terms", "default", strings.Repeat("b.c e.x a-b c.e ", 8)},
		{"keywords/one-8KB-term", "default", strings.Repeat("ab", 4000)},
		{"keywords/32-words-every-tool-has", "default", strings.Repeat("read file ", 16)},
		{"regex/plain", "regex", "read|file"},
		{"regex/absent-word", "regex", "zzz"},
		{"regex/costliest-allowed-pattern", "regex", `[^x]{900}y`},
		{"select/32-names", "default", "select:" + strings.Join(exist, ",")},
		{"select/32-near-misses", "default", "select:" + strings.Join(near, ",")},
		{"hybrid/plain", "hybrid", "read file"},
	}
	// One long term and 128 long terms in each strategy that ranks terms
	// (the hybrid typo rule built every one-letter deletion of a term).
	var long []string
	for i := range 128 {
		long = append(long, fmt.Sprintf("%060d", i))
	}
	for _, st := range []string{"default", "bm25", "hybrid"} {
		queries = append(queries,
			struct{ name, strategy, query string }{st + "/one-8KB-term-of-İ", st, strings.Repeat("İ", 4000)},
			struct{ name, strategy, query string }{st + "/128-terms-of-60-bytes", st, strings.Join(long, " ")})
	}
	for _, n := range hostileSizes {
		r := hostileCatalog(b, n)
		for _, q := range queries {
			st, err := ParseStrategy(q.strategy)
			if err != nil {
				b.Fatal(err)
			}
			s := NewSearcher(r, &SearchOptions{Strategy: st})
			if _, err := s.Search(q.query, 5); err != nil { // builds the indexes
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("tools=%d/%s", n, q.name), func(b *testing.B) {
				b.ReportAllocs()
				cut := 0
				for b.Loop() {
					res, err := s.Search(q.query, 5)
					if err != nil {
						b.Fatal(err)
					}
					if len(res.Notes) > 0 {
						cut = 1
					}
				}
				b.ReportMetric(float64(cut), "cut")
			})
		}
	}
}

// BenchmarkHostileNearMisses: 32 names not found, each a typo of a real
// tool's name, on the real catalogs of 10k and 100k tools (their close
// names are looked up).
func BenchmarkHostileNearMisses(b *testing.B) {
	data, err := benchdata.Load(".")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range hostileSizes {
		cat := data.Catalog(n)
		tools := make([]Tool, len(cat))
		for i, t := range cat {
			tools[i] = Tool{Name: t.Name, Description: t.Description, ShouldDefer: t.ShouldDefer, Server: t.Server}
		}
		r, err := NewRegistry(nil, tools...)
		if err != nil {
			b.Fatal(err)
		}
		var near []string
		for i := range 32 {
			name := tools[(i*7919)%len(tools)].Name
			j := len(name) / 2
			near = append(near, name[:j]+name[j+1:]) // one character dropped
		}
		s := NewSearcher(r, nil)
		q := "select:" + strings.Join(near, ",")
		if _, err := s.Search(q, 0); err != nil { // builds the index of names
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := s.Search(q, 0)
				if err != nil || len(res.Notes) > 0 {
					b.Fatal(err, res.Notes)
				}
			}
		})
	}
}

// BenchmarkHostileCalls: the calls whose validation a model controls, at
// the bounds (catalog size plays no part: one tool is looked up).
func BenchmarkHostileCalls(b *testing.B) {
	calls := []struct{ name, schema, args string }{
		{"plain", `{"type":"object","properties":{"path":{"type":"string"}}}`, `{"path":"/tmp/x"}`},
		{"1MiB-string-small-pattern", `{"properties":{"a":{"type":"string","pattern":"^[a-z]*$"}}}`, `{"a":"` + strings.Repeat("a", 1<<20-16) + `"}`},
		{"100KB-string-pattern-1003-refused", `{"properties":{"a":{"type":"string","pattern":"[^x]{1000}y"}}}`, `{"a":"` + strings.Repeat("a", 100_000) + `"}`},
		{"30k-values", `{"properties":{"a":{"type":"array","items":{"type":"string"}}}}`, `{"a":[` + strings.TrimSuffix(strings.Repeat(`"abc",`, 30_000), ",") + `]}`},
		{"huge-exponents-refused", `{"properties":{"a":{"type":"array","items":{"type":"integer"}}}}`, `{"a":[` + strings.TrimSuffix(strings.Repeat(`1e999999,`, 100), ",") + `]}`},
		{"unknown-1MiB-name", `{"type":"object"}`, ""},
	}
	for _, c := range calls {
		reg, err := NewRegistry(nil, Tool{Name: "T", InputSchema: json.RawMessage(c.schema)})
		if err != nil {
			b.Fatal(err)
		}
		s := NewSession(reg, &SessionOptions{MaxArgumentBytes: 2 << 20})
		name := "T"
		if c.args == "" {
			name = strings.Repeat("x", 1<<20)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = s.CheckCall(name, json.RawMessage(c.args))
			}
		})
	}
}
