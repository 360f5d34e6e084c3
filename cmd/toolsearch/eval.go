package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/eval"
)

// fileList is a flag that may be given several times.
type fileList []string

func (f *fileList) String() string     { return strings.Join(*f, ",") }
func (f *fileList) Set(s string) error { *f = append(*f, s); return nil }

// evalRow is one dataset × strategy measurement.
type evalRow struct {
	Dataset string `json:"dataset"`
	Tools   int    `json:"tools"`
	*eval.Report
}

// cmdEval measures retrieval quality: every query of each dataset is ranked
// over the dataset's tools, all deferred.
func cmdEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stderr)
	var datasets fileList
	fs.Var(&datasets, "dataset", "dataset `file` (repeatable; more files may follow the flags)")
	catalog := fs.String("catalog", "", "catalog `file` for datasets without \"tools\" (default: the embedded demo catalog)")
	strategy := fs.String("strategy", "default", "ranking strategy: default, bm25, regex, hybrid, or all")
	asJSON := fs.Bool("json", false, "print JSON")
	markdown := fs.Bool("markdown", false, "print a Markdown table of Recall@5 (dataset × strategy)")
	split := fs.String("split", "", "evaluate only the `even` or odd-numbered queries (0-based), for tune/held-out checks")
	limit := inputLimit(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	datasets = append(datasets, fs.Args()...)
	if *split != "" && *split != "even" && *split != "odd" {
		return usageError{fmt.Errorf("--split must be even or odd, got %q", *split)}
	}
	if len(datasets) == 0 {
		return usageError{errors.New("--dataset is required")}
	}
	names := []string{*strategy}
	if *strategy == "all" {
		names = strategyNames
	}
	var strategies []toolsearch.Strategy
	for _, n := range names {
		st, err := toolsearch.ParseStrategy(n)
		if err != nil {
			return usageError{err}
		}
		strategies = append(strategies, st)
	}
	var rows []evalRow
	for _, path := range datasets {
		r, err := evalDataset(path, *catalog, *split, *limit, strategies)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	switch {
	case *asJSON:
		return writeJSON(stdout, rows)
	case *markdown:
		_, err := io.WriteString(stdout, markdownTable(rows, names))
		return err
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%-14s %-8s tools %5d  queries %6d  Recall@1 %.4f  Recall@5 %.4f  MRR %.4f  NDCG@5 %.4f  %.1f µs/query\n",
			r.Dataset, r.Strategy, r.Tools, r.Queries, r.Recall1, r.Recall5, r.MRR, r.NDCG5, r.MeanQueryMicros)
	}
	if len(names) > 1 || names[0] == "regex" {
		b.WriteString("regex: each query was turned into a pattern with eval.WordsPattern (its words, stop words left out, joined with |)\n")
	}
	_, err := io.WriteString(stdout, b.String())
	return err
}

// evalDataset runs the strategies over one dataset file.
func evalDataset(path, catalog, split string, limit int64, strategies []toolsearch.Strategy) ([]evalRow, error) {
	data, err := readInput(path, limit)
	if err != nil {
		return nil, err
	}
	ds, err := eval.ParseDataset(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if split != "" {
		var keep []eval.Query
		for i, q := range ds.Queries {
			if (i%2 == 0) == (split == "even") {
				keep = append(keep, q)
			}
		}
		ds.Queries = keep
	}
	tools := ds.Tools
	if tools == nil {
		reg, err := loadRegistry(catalog, limit) // "" means the demo catalog
		if err != nil {
			return nil, err
		}
		for t := range reg.Tools() {
			tools = append(tools, t)
		}
	}
	for i := range tools {
		tools[i].ShouldDefer, tools[i].AlwaysLoad = true, false
	}
	reg, err := toolsearch.NewRegistry(nil, tools...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var rows []evalRow
	for _, st := range strategies {
		queries := ds.Queries
		if st.Name() == "regex" {
			queries = make([]eval.Query, len(ds.Queries))
			for i, q := range ds.Queries {
				q.Query = eval.WordsPattern(q.Query)
				queries[i] = q
			}
		}
		rep := eval.Evaluate(reg, &toolsearch.SearchOptions{Strategy: st}, queries)
		rows = append(rows, evalRow{Dataset: name, Tools: len(tools), Report: rep})
	}
	return rows, nil
}

// markdownTable renders Recall@5 with one row per dataset and one column
// per strategy.
func markdownTable(rows []evalRow, strategies []string) string {
	var b strings.Builder
	b.WriteString("| dataset | tools | queries |")
	for _, s := range strategies {
		fmt.Fprintf(&b, " %s |", s)
	}
	b.WriteString("\n|---|---:|---:|")
	for range strategies {
		b.WriteString("---:|")
	}
	b.WriteByte('\n')
	for i := 0; i < len(rows); i += len(strategies) {
		r := rows[i]
		fmt.Fprintf(&b, "| %s | %d | %d |", r.Dataset, r.Tools, r.Queries)
		for j := range strategies {
			fmt.Fprintf(&b, " %.2f |", rows[i+j].Recall5)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
