// Package eval measures how well a toolsearch strategy finds the right
// tools: each query of a dataset, with the names of the tools that answer
// it, is sent to a toolsearch.Searcher as a model's ToolSearch call, and
// Recall@1, Recall@5, MRR and NDCG@5 are computed over the matches the
// call returns.
//
// `toolsearch eval` (cmd/toolsearch) runs it on dataset files.
package eval

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
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
	// Refused is the number of queries the call refused with an error
	// (each counts as finding nothing): a query over the byte limit, an
	// invalid regex pattern.
	Refused int `json:"refused"`
	// Noted is the number of queries answered with notes (Result.Notes):
	// terms left out over the term budget, a select: name matched loosely.
	Noted int `json:"noted"`
	// Elapsed is the time spent in the calls, all queries together.
	Elapsed time.Duration `json:"-"`
	// MeanQueryMicros is Elapsed per query, in microseconds.
	MeanQueryMicros float64 `json:"mean_query_us"`
	// PerQuery is the rank (1-based) of each query's first relevant tool
	// among the matches its call returned, 0 when none was returned or the
	// call was refused; in query order.
	PerQuery []int `json:"-"`
}

// Evaluate sends each query to reg as a model's ToolSearch call would be
// sent, and measures how well the relevant tools are found. The call is
// Searcher.Call with the arguments {"query": q} (the strategy's query
// field), through a Searcher with the options opts (nil: the defaults), so
// every query is answered exactly as a model's would be: the same query
// forms, limits, term budget and number of matches (opts.MaxResults,
// default 5). The metrics are computed over the matches the call returns,
// with binary relevance (R = a query's relevant tools):
//
//   - Recall@k: the fraction of queries with a tool of R among the first
//     k matches;
//   - MRR: the mean of 1/rank of the first tool of R among the matches,
//     0 when none is returned (so, with 5 matches, MRR@5);
//   - NDCG@5: DCG@5 / IDCG@5, DCG@5 = Σ_{i≤5, tool_i ∈ R} 1/log2(i+1),
//     IDCG@5 = Σ_{i ≤ min(|R|,5)} 1/log2(i+1).
//
// A refused call counts as finding nothing and is counted in Refused.
// Relevant names that are not registered count as not found (Missing lists
// them).
func Evaluate(reg *toolsearch.Registry, opts *toolsearch.SearchOptions, queries []Query) *Report {
	s := toolsearch.NewSearcher(reg, opts)
	name, field := "default", "query"
	if opts != nil && opts.Strategy != nil {
		name = opts.Strategy.Name()
		field = cmp.Or(opts.Strategy.Input().Field, field)
	}
	rep := &Report{Strategy: name, Queries: len(queries), PerQuery: make([]int, len(queries))}
	if len(queries) == 0 {
		return rep
	}
	var elapsed time.Duration
	for qi, q := range queries {
		args, _ := json.Marshal(map[string]string{field: q.Query}) // strings always encode
		start := time.Now()
		res, err := s.Call(args)
		elapsed += time.Since(start)
		var ranked []toolsearch.Match
		if err != nil {
			rep.Refused++
		} else {
			ranked = res.Matches
			if len(res.Notes) > 0 {
				rep.Noted++
			}
		}
		first, ndcg := rank(ranked, q.Relevant)
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
		rep.NDCG5 += ndcg
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

// rank returns the 1-based position of the first relevant tool among
// ranked (0 if none) and NDCG@5.
func rank(ranked []toolsearch.Match, relevant []string) (first int, ndcg float64) {
	dcg := 0.0
	for i, m := range ranked {
		if !slices.Contains(relevant, m.Name) {
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
	for i := range min(len(distinct(relevant)), 5) {
		idcg += 1 / math.Log2(float64(i+2))
	}
	return first, dcg / idcg
}

func distinct(names []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(names)))
}

// Missing returns the relevant names of queries that no tool of reg has,
// sorted, each once. Evaluate counts them as not found.
func Missing(reg *toolsearch.Registry, queries []Query) []string {
	var out []string
	for _, q := range queries {
		for _, n := range q.Relevant {
			if _, ok := reg.Lookup(n); !ok {
				out = append(out, n)
			}
		}
	}
	return distinct(out)
}
