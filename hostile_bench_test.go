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
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
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

// hostileCatalog returns n deferred MCP tools with 2 KB descriptions whose
// words and punctuation every hostile query below finds everywhere.
func hostileCatalog(b *testing.B, n int) *Registry {
	b.Helper()
	desc := strings.Repeat("a.b c++ e.g. x-y (z) --- ", 80)[:2000]
	tools := make([]Tool, n)
	for i := range tools {
		tools[i] = Tool{
			Name:        fmt.Sprintf("mcp__srv%d__read_file_%d", i%50, i),
			Description: desc,
			Server:      fmt.Sprintf("srv%d", i%50),
		}
	}
	var r Registry
	if err := r.Register(tools...); err != nil {
		b.Fatal(err)
	}
	return &r
}

// benchQueries runs each query against s, reporting ns per query under
// each name.
func benchQueries(b *testing.B, s *Searcher, queries map[string]string) {
	for _, name := range slices.Sorted(maps.Keys(queries)) {
		q := queries[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Search(q, 5); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
