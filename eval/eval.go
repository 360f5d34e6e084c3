// Package eval measures how well a toolsearch strategy finds the right
// tools: a dataset of queries, each with the names of the tools that answer
// it, is searched through a toolsearch.Searcher, and Recall@1, Recall@5,
// MRR and NDCG@5 are computed over the ranking.
//
// `toolsearch eval` (cmd/toolsearch) runs it on dataset files.
package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/toolsearch/toolsearch"
)

// Query is one query of a retrieval dataset and the names of the tools
// that answer it.
type Query struct {
	ID       string   `json:"id,omitempty"`
	Query    string   `json:"query"`
	Relevant []string `json:"relevant"`
}

// Dataset is a tool-retrieval dataset: a tool pool and queries with their
// relevant tools.
type Dataset struct {
	Name    string
	Tools   []toolsearch.Tool // nil when the file has no "tools": the caller supplies them
	Queries []Query
}

// ErrInvalidDataset is returned (wrapped) for a dataset file that cannot be
// used.
var ErrInvalidDataset = errors.New("eval: invalid dataset")

// ParseDataset decodes a dataset file: a catalog (see
// toolsearch.ParseCatalog) with a "queries" array of {"query": string,
// "relevant": [names]} (and an optional "id"), plus an optional "name".
// "tools" may be left out when the queries are meant for a catalog given
// separately. Every query needs a non-empty query and at least one relevant
// name; an error names the first query that does not have them.
func ParseDataset(data []byte) (*Dataset, error) {
	var doc struct {
		Name    string          `json:"name"`
		Tools   json.RawMessage `json:"tools"`
		Queries *[]Query        `json:"queries"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidDataset, err)
	}
	if doc.Queries == nil {
		return nil, fmt.Errorf(`%w: no "queries" array`, ErrInvalidDataset)
	}
	ds := &Dataset{Name: doc.Name, Queries: *doc.Queries}
	for i, q := range ds.Queries {
		if q.Query == "" {
			return nil, fmt.Errorf("%w: queries[%d]: empty query", ErrInvalidDataset, i)
		}
		if len(q.Relevant) == 0 {
			return nil, fmt.Errorf("%w: queries[%d] (%q): no relevant tools", ErrInvalidDataset, i, q.Query)
		}
	}
	if len(doc.Tools) > 0 && string(doc.Tools) != "null" {
		tools, err := toolsearch.ParseCatalog(data)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidDataset, err)
		}
		ds.Tools = tools
	}
	return ds, nil
}

// Report holds retrieval metrics over a set of queries (see Evaluate).
type Report struct {
	Strategy string  `json:"strategy"`
	Queries  int     `json:"queries"`
	Recall1  float64 `json:"recall_at_1"`
	Recall5  float64 `json:"recall_at_5"`
	MRR      float64 `json:"mrr"`
	NDCG5    float64 `json:"ndcg_at_5"`
	// Elapsed is the time spent searching, all queries together.
	Elapsed time.Duration `json:"-"`
	// MeanQueryMicros is Elapsed per query, in microseconds.
	MeanQueryMicros float64 `json:"mean_query_us"`
	// PerQuery is the rank (1-based) of each query's first relevant tool in
	// the full ranking, 0 when no relevant tool was ranked; in query order.
	PerQuery []int `json:"-"`
}

// Evaluate searches reg for each query with the options opts (nil: the
// defaults; its Strategy and Scope are used) and measures how well the
// relevant tools are found (binary relevance, R = a query's relevant
// tools):
//
//   - Recall@k: the fraction of queries with a tool of R in the top k;
//   - MRR: the mean of 1/rank of the first tool of R in the full ranking
//     (0 when none is ranked);
//   - NDCG@5: DCG@5 / IDCG@5, DCG@5 = Σ_{i≤5, tool_i ∈ R} 1/log2(i+1),
//     IDCG@5 = Σ_{i ≤ min(|R|,5)} 1/log2(i+1).
//
// Each query goes through Searcher.Search, the query pipeline a model's
// ToolSearch call goes through (select:, exact name, MCP prefix, then the
// strategy), with every limit of opts lifted so that the result is the full
// ranking: max_results, its cap, the query and select: limits and the
// result's schema budget. A query the search refuses (an invalid regex
// pattern) counts as finding nothing. Relevant names that are not
// registered count as not found.
func Evaluate(reg *toolsearch.Registry, opts *toolsearch.SearchOptions, queries []Query) *Report {
	var o toolsearch.SearchOptions
	if opts != nil {
		o = *opts
	}
	o.MaxResults, o.MaxResultsCap = math.MaxInt, math.MaxInt
	o.MaxQueryBytes, o.MaxQueryTerms, o.MaxSelectNames, o.MaxResultSchemaBytes = math.MaxInt, math.MaxInt, math.MaxInt, math.MaxInt
	s := toolsearch.NewSearcher(reg, &o)
	name := "default"
	if o.Strategy != nil {
		name = o.Strategy.Name()
	}
	rep := &Report{Strategy: name, Queries: len(queries), PerQuery: make([]int, len(queries))}
	if len(queries) == 0 {
		return rep
	}
	var elapsed time.Duration
	for qi, q := range queries {
		start := time.Now()
		res, err := s.Search(q.Query, 0)
		elapsed += time.Since(start)
		var ranked []toolsearch.Match
		if err == nil {
			ranked = res.Matches
		}
		relevant := make(map[string]bool, len(q.Relevant))
		for _, r := range q.Relevant {
			relevant[r] = true
		}
		first := 0
		dcg := 0.0
		for i, m := range ranked {
			if !relevant[m.Name] {
				continue
			}
			if first == 0 {
				first = i + 1
			}
			if i < 5 {
				dcg += 1 / math.Log2(float64(i+2))
			}
		}
		idcg := 0.0
		for i := range min(len(relevant), 5) {
			idcg += 1 / math.Log2(float64(i+2))
		}
		rep.PerQuery[qi] = first
		if first == 1 {
			rep.Recall1++
		}
		if first >= 1 && first <= 5 {
			rep.Recall5++
		}
		if first > 0 {
			rep.MRR += 1 / float64(first)
		}
		rep.NDCG5 += dcg / idcg
	}
	n := float64(len(queries))
	rep.Recall1 /= n
	rep.Recall5 /= n
	rep.MRR /= n
	rep.NDCG5 /= n
	rep.Elapsed = elapsed
	rep.MeanQueryMicros = float64(elapsed.Microseconds()) / n
	return rep
}
