package toolsearch

import (
	"path/filepath"
	"testing"
)

// BenchmarkStrategies measures one ToolSearch query per strategy over the
// seal_tools pool (4,076 tools), a sentence and a short keyword query.
func BenchmarkStrategies(b *testing.B) {
	reg := loadCatalog(b, filepath.Join("testdata", "bench", "seal_tools.json"))
	queries := map[string][2]string{
		"default": {"Retrieve information about the number of nurses in a specific country.", "health workforce"},
		"bm25":    {"Retrieve information about the number of nurses in a specific country.", "health workforce"},
		"hybrid":  {"Retrieve information about the number of nurses in a specific country.", "health workforce"},
		"regex":   {"retrieve|information|number|nurses|specific|country", "health.*workforce"},
	}
	for _, st := range []Strategy{DefaultStrategy(), BM25Strategy(nil), RegexStrategy(), HybridStrategy()} {
		s := NewSearcher(reg, &SearchOptions{Strategy: st})
		for i, kind := range []string{"sentence", "keywords"} {
			q := queries[st.Name()][i]
			b.Run(st.Name()+"/"+kind, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := s.Search(q, 5); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
