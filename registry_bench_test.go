package toolsearch_test

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch"
)

// distinctSchemaCatalog returns the n-tool bench catalog with every schema
// made distinct: the tool's real schema with a "$comment" naming the tool
// added first, so that no two tools share one (as when every tool of many
// servers has a schema of its own) and the registry's schema cache never
// hits.
func distinctSchemaCatalog(b *testing.B, n int) []toolsearch.Tool {
	tools := benchTools(b, n, true)
	for i := range tools {
		raw := bytes.TrimSpace(tools[i].InputSchema)
		if len(raw) < 2 || raw[0] != '{' {
			b.Fatalf("schema of %s is not an object: %s", tools[i].Name, raw)
		}
		comment := `{"$comment":"tool ` + strconv.Itoa(i) + `"`
		rest := bytes.TrimSpace(raw[1:])
		if rest[0] != '}' {
			comment += ","
		}
		tools[i].InputSchema = json.RawMessage(comment + string(rest))
	}
	return tools
}

// BenchmarkRegisterDistinct registers n tools with n distinct schemas in a
// new registry: every schema is checked (none is known yet).
func BenchmarkRegisterDistinct(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(sizeName(n), func(b *testing.B) {
			tools := distinctSchemaCatalog(b, n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := toolsearch.NewRegistry(nil, tools...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tool")
		})
	}
}

// BenchmarkRegisterGrowth registers 10k, 100k and 1M tools without schemas
// in a new registry, one registration per iteration (run it with
// -benchtime 1x), and reports the time per tool and the live heap the
// registry keeps per tool beyond the tools' own text (name, description,
// hint, server: freshly copied, so that all the registry keeps is counted).
func BenchmarkRegisterGrowth(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(sizeName(n), func(b *testing.B) {
			src := benchTools(b, n, false)
			var over, text float64
			for b.Loop() {
				b.StopTimer()
				before := liveHeap()
				tools := make([]toolsearch.Tool, len(src))
				txt := 0
				for i, t := range src {
					t.Name, t.Description, t.SearchHint = strings.Clone(t.Name), strings.Clone(t.Description), strings.Clone(t.SearchHint)
					if t.Server != "" {
						t.Server = strings.Clone(t.Server)
					}
					txt += len(t.Name) + len(t.Description) + len(t.SearchHint)
					tools[i] = t
				}
				b.StartTimer()
				r, err := toolsearch.NewRegistry(nil, tools...)
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				tools = nil
				after := liveHeap()
				runtime.KeepAlive(r)
				over, text = float64(after-before)/float64(n)-float64(txt)/float64(n), float64(txt)/float64(n)
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tool")
			b.ReportMetric(over, "overB/tool")
			b.ReportMetric(text, "textB/tool")
		})
	}
}
