package toolsearch

import (
	"path/filepath"
	"testing"
)

// BenchmarkStrategies measures one ToolSearch query per strategy over the
// seal_tools pool (4,076 tools): a sentence, a short keyword query and a
// 200-term request (cut to the strategy's term budget).
func BenchmarkStrategies(b *testing.B) {
	reg := loadCatalog(b, filepath.Join("testdata", "bench", "seal_tools.json"))
	queries := map[string][2]string{
		"default": {"Retrieve information about the number of nurses in a specific country.", "health workforce"},
		"bm25":    {"Retrieve information about the number of nurses in a specific country.", "health workforce"},
		"hybrid":  {"Retrieve information about the number of nurses in a specific country.", "health workforce"},
		"regex":   {"retrieve|information|number|nurses|specific|country", "health.*workforce"},
	}
	// The longest seal_tools query: 200 terms, over every budget.
	const long = "I need your assistance in gathering information for my research in the field of Library Science/Library Digital Governance. Please retrieve the digital access policy of the New York Public Library. Next, I would like to gather information about a specific artwork with the ID 'xyz123' in the field of Entertainment/Visual Arts. Can you provide me with the title, artist's name, year of creation, and a brief description of the artwork? Additionally, I need to get the business valuation of a company called Elite Solutions. Please calculate the business valuation using the income approach method as of the valuation date '2022-01-31'. It would be helpful if you can provide the estimated value of the company in the given currency. Moving on, I require the financial statement of Apple Inc. for the year 2020 in the field of Finance/Corporate Finance. Please provide the revenue, total expenses, and net income of the company for that financial statement. Lastly, I am looking for marketing analysis information for a hospitality establishment named City Lights Boutique Hotel in the field of Hospitality Management/Hospitality Marketing. Can you provide me with details about the target audience, current market trends, and competitor analysis? Your assistance will be highly appreciated."
	for _, st := range []Strategy{DefaultStrategy(), BM25Strategy(nil), RegexStrategy(), HybridStrategy()} {
		s := NewSearcher(reg, &SearchOptions{Strategy: st})
		kinds := []string{"sentence", "keywords", "long"}
		if st.Name() == "regex" {
			kinds = kinds[:2]
		}
		for i, kind := range kinds {
			q := long
			if i < 2 {
				q = queries[st.Name()][i]
			}
			b.Run(st.Name()+"/"+kind, func(b *testing.B) {
				if _, err := s.Search(q, 5); err != nil { // builds the index
					b.Fatal(err)
				}
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
