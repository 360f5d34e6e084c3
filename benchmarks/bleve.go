package benchmarks

import (
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// Bleve is an in-memory bleve index (scorch, BM25, English analyzer) over
// tool names and descriptions, with the lowercased name in a keyword field
// for exact names and prefixes.
type Bleve struct{ idx bleve.Index }

type bleveDoc struct {
	Name        string `json:"name"`
	LowerName   string `json:"lname"`
	Description string `json:"description"`
}

// NewBleve indexes the tools in one batch: in-memory scorch never merges
// segments, and each batch is a segment, so a catalog indexed in many
// batches would be searched segment by segment.
func NewBleve(names, descriptions []string) (*Bleve, error) {
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = "en"
	m.ScoringModel = index.BM25Scoring
	doc := bleve.NewDocumentMapping()
	lname := bleve.NewTextFieldMapping()
	lname.Analyzer = keyword.Name
	doc.AddFieldMappingsAt("lname", lname)
	m.DefaultMapping = doc
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, err
	}
	b := idx.NewBatch()
	for i, n := range names {
		if err := b.Index(n, bleveDoc{n, strings.ToLower(n), descriptions[i]}); err != nil {
			return nil, err
		}
	}
	if err := idx.Batch(b); err != nil {
		return nil, err
	}
	return &Bleve{idx}, nil
}

// Search answers the query forms the way a bleve user would: select: by
// document ids, an mcp__ prefix by a prefix query on the lowercased name, a
// query of one word first by a term query on the lowercased name (an exact
// name, as toolsearch looks names up before it ranks), anything else as a
// match query, or a query string query when it has "+" terms.
func (b *Bleve) Search(q string, k int) ([]string, error) {
	var qu query.Query
	switch {
	case strings.HasPrefix(q, "select:"):
		ids := strings.Split(strings.TrimPrefix(q, "select:"), ",")
		qu = bleve.NewDocIDQuery(ids)
		k = len(ids)
	case strings.HasPrefix(strings.ToLower(q), "mcp__"):
		p := bleve.NewPrefixQuery(strings.ToLower(q))
		p.SetField("lname")
		qu = p
	case strings.Contains(q, "+"):
		qu = bleve.NewQueryStringQuery(q) // "+word" is required there too
	default:
		if w := strings.TrimSpace(q); w != "" && !strings.ContainsAny(w, " \t\n") {
			t := bleve.NewTermQuery(strings.ToLower(w))
			t.SetField("lname")
			if out, err := b.run(t, k); err != nil || len(out) > 0 {
				return out, err
			}
		}
		qu = bleve.NewMatchQuery(q)
	}
	return b.run(qu, k)
}

func (b *Bleve) run(qu query.Query, k int) ([]string, error) {
	res, err := b.idx.Search(bleve.NewSearchRequestOptions(qu, k, 0, false))
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(res.Hits))
	for _, h := range res.Hits {
		out = append(out, h.ID)
	}
	return out, nil
}

// Close releases the index.
func (b *Bleve) Close() error { return b.idx.Close() }
