package toolsearch

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// EvalQuery is one query of a retrieval dataset and the names of the tools
// that answer it.
type EvalQuery struct {
	ID       string   `json:"id,omitempty"`
	Query    string   `json:"query"`
	Relevant []string `json:"relevant"`
}

// Dataset is a tool-retrieval dataset: a tool pool and queries with their
// relevant tools.
type Dataset struct {
	Name    string
	Tools   []Tool // nil when the file has no "tools": the caller supplies them
	Queries []EvalQuery
}

// ErrInvalidDataset is returned (wrapped) for a dataset file that cannot be
// used.
var ErrInvalidDataset = errors.New("toolsearch: invalid dataset")

// ParseDataset decodes a dataset file: a catalog (see ParseCatalog) with a
// "queries" array of {"query": string, "relevant": [names]} (and an
// optional "id"), plus an optional "name". "tools" may be left out when the
// queries are meant for a catalog given separately. Every query needs a
// non-empty query and at least one relevant name; an error names the first
// query that does not have them.
func ParseDataset(data []byte) (*Dataset, error) {
	var doc struct {
		Name    string          `json:"name"`
		Tools   json.RawMessage `json:"tools"`
		Queries *[]EvalQuery    `json:"queries"`
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
		tools, err := ParseCatalog(data)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidDataset, err)
		}
		ds.Tools = tools
	}
	return ds, nil
}

// EvalReport holds retrieval metrics over a set of queries (see Evaluate).
type EvalReport struct {
	Strategy string  `json:"strategy"`
	Queries  int     `json:"queries"`
	Recall1  float64 `json:"recall_at_1"`
	Recall5  float64 `json:"recall_at_5"`
	MRR      float64 `json:"mrr"`
	NDCG5    float64 `json:"ndcg_at_5"`
	// Elapsed is the time spent ranking, all queries together.
	Elapsed time.Duration `json:"-"`
	// MeanQueryMicros is Elapsed per query, in microseconds.
	MeanQueryMicros float64 `json:"mean_query_us"`
	// PerQuery is the rank (1-based) of each query's first relevant tool in
	// the full ranking, 0 when no relevant tool was ranked; in query order.
	PerQuery []int `json:"-"`
}

// Evaluate ranks every deferred tool the Searcher sees for each query with
// the Searcher's strategy and measures how well the relevant tools are
// found (binary relevance, R = a query's relevant tools):
//
//   - Recall@k: the fraction of queries with a tool of R in the top k;
//   - MRR: the mean of 1/rank of the first tool of R in the full ranking
//     (0 when none is ranked);
//   - NDCG@5: DCG@5 / IDCG@5, DCG@5 = Σ_{i≤5, tool_i ∈ R} 1/log2(i+1),
//     IDCG@5 = Σ_{i ≤ min(|R|,5)} 1/log2(i+1).
//
// Queries go through the same forms as Search (select:, exact name, MCP
// prefix, then the strategy), without a max_results limit. A query the
// strategy refuses (an invalid regex pattern) counts as finding nothing.
// Relevant names that are not registered count as not found.
func Evaluate(s *Searcher, queries []EvalQuery) *EvalReport {
	name := "default"
	if s.opts.Strategy != nil {
		name = s.opts.Strategy.Name()
	}
	rep := &EvalReport{Strategy: name, Queries: len(queries), PerQuery: make([]int, len(queries))}
	if len(queries) == 0 {
		return rep
	}
	var ranked []string
	var elapsed time.Duration
	for qi, q := range queries {
		start := time.Now()
		ranked = s.rankNames(q.Query, ranked[:0])
		elapsed += time.Since(start)
		relevant := make(map[string]bool, len(q.Relevant))
		for _, r := range q.Relevant {
			relevant[r] = true
		}
		first := 0
		dcg := 0.0
		for i, n := range ranked {
			if !relevant[n] {
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

// rankNames appends the names of the full ranking for query to dst.
func (s *Searcher) rankNames(query string, dst []string) []string {
	snap := s.reg.load()
	if arg, ok := selectArg(query); ok {
		found, _ := snap.selectTools(selectNames(arg), s.in)
		for _, e := range found {
			dst = append(dst, e.tool.Name)
		}
		return dst
	}
	_, found, top, err := s.keyword(snap, query, -1)
	if err != nil {
		return dst
	}
	for _, e := range found {
		dst = append(dst, e.tool.Name)
	}
	for _, c := range top {
		dst = append(dst, c.e.tool.Name)
	}
	return dst
}
