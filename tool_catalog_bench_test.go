package toolsearch_test

import (
	"encoding/json"
	"testing"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/demo"
)

// benchCatalog returns the n-tool bench catalog (internal/benchdata) in the
// catalog-file format, as scripts/clibench/gen writes it.
func benchCatalog(b *testing.B, n int) []byte {
	type catTool struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
		Server      string          `json:"server,omitempty"`
		SearchHint  string          `json:"search_hint,omitempty"`
		ShouldDefer bool            `json:"should_defer"`
	}
	var doc struct {
		Tools []catTool `json:"tools"`
	}
	for _, t := range benchData(b).Catalog(n) {
		doc.Tools = append(doc.Tools, catTool{t.Name, t.Description, t.Schema, t.Server, t.SearchHint, t.ShouldDefer})
	}
	data, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkParseCatalog decodes a catalog file: the demo catalog and the
// bench catalogs of 10k and 100k tools (MB/s is the file's bytes).
func BenchmarkParseCatalog(b *testing.B) {
	cases := []struct {
		name string
		data func(*testing.B) []byte
	}{
		{"demo", func(*testing.B) []byte { return demo.Catalog }},
		{"n=10k", func(b *testing.B) []byte { return benchCatalog(b, 10_000) }},
		{"n=100k", func(b *testing.B) []byte { return benchCatalog(b, 100_000) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			data := c.data(b)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := toolsearch.ParseCatalog(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCatalogFirstAnswer is what a process does before its first
// answer: parse the catalog file, register its tools, answer one keyword
// query.
func BenchmarkCatalogFirstAnswer(b *testing.B) {
	cases := []struct {
		name string
		data func(*testing.B) []byte
	}{
		{"demo", func(*testing.B) []byte { return demo.Catalog }},
		{"n=100k", func(b *testing.B) []byte { return benchCatalog(b, 100_000) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			data := c.data(b)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				tools, err := toolsearch.ParseCatalog(data)
				if err != nil {
					b.Fatal(err)
				}
				reg, err := toolsearch.NewRegistry(nil, tools...)
				if err != nil {
					b.Fatal(err)
				}
				res, err := toolsearch.NewSearcher(reg, nil).Search("create github issue", 0)
				if err != nil || len(res.Matches) == 0 {
					b.Fatalf("search: %v, %d matches", err, len(res.Matches))
				}
			}
		})
	}
}
