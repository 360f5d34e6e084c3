package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/eval"
	"github.com/toolsearch/toolsearch/internal/vecfile"
	"github.com/toolsearch/toolsearch/semantic"
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

// semanticEval is the semantic strategy of eval, over a vectors file
// that counts the query texts it does not have.
type semanticEval struct {
	*semantic.Strategy
	misses *atomic.Int64
}

// evalStrategy is a strategy eval runs; sem is set for the semantic
// strategy over a vectors file, whose tool vectors are computed before the
// queries and whose missing query vectors are counted.
type evalStrategy struct {
	toolsearch.Strategy
	sem *semanticEval
}

// replay is a vectors file as an Embedder that counts the texts it lacks.
type replay struct {
	*vecfile.File
	misses *atomic.Int64
}

func (r replay) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	v, err := r.File.Embed(ctx, texts)
	if errors.Is(err, vecfile.ErrNoVector) && len(texts) == 1 {
		r.misses.Add(1)
	}
	return v, err
}

// semanticStrategy returns the semantic strategy over the vectors file
// path, with the weight w (0: the default).
func semanticStrategy(path string, w float64, limit int64) (*semanticEval, error) {
	if path == "" {
		return nil, usageError{errors.New("--strategy semantic needs --vectors FILE (written by toolsearch embed)")}
	}
	vf, err := readVectors(path, limit)
	if err != nil {
		return nil, err
	}
	r := replay{vf, &atomic.Int64{}}
	st, err := semantic.New(r, &semantic.Options{Weight: w})
	if err != nil {
		return nil, usageError{err}
	}
	return &semanticEval{st, r.misses}, nil
}

// readVectors reads the vectors file path (at most limit bytes).
func readVectors(path string, limit int64) (*vecfile.File, error) {
	data, err := readInput(path, limit)
	if err != nil {
		return nil, err
	}
	vf, err := vecfile.Read(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return vf, nil
}

// cmdEval measures retrieval quality: every query of each dataset is ranked
// over the dataset's tools, all deferred.
func cmdEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stderr)
	var datasets fileList
	fs.Var(&datasets, "dataset", "dataset `file` (repeatable; more files may follow the flags)")
	catalog := fs.String("catalog", "", "catalog `file` for datasets without \"tools\" (required by them)")
	strategy := fs.String("strategy", "default", strategyHelp+", semantic (with --vectors), or all")
	asJSON := fs.Bool("json", false, "print JSON")
	markdown := fs.Bool("markdown", false, "print a Markdown table (dataset × strategy) of the --metrics")
	metrics := fs.String("metrics", "r5", "with --markdown, the `list` of metrics in each cell, comma-separated: r1, r5, mrr, ndcg")
	split := fs.String("split", "", "evaluate only the `even` or odd-numbered queries (0-based), for tune/held-out checks")
	limit := inputLimit(fs)
	vectors := fs.String("vectors", "", "vectors `file` written by toolsearch embed, for the semantic strategy (offline)")
	weight := fs.Float64("semantic-weight", 0, "the semantic strategy's largest `weight` of the embedding ranking, at most 1; 0 or less: its default; 1: the embedding ranking alone")
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
	cells, err := parseMetrics(*metrics)
	if err != nil {
		return usageError{err}
	}
	names := []string{*strategy}
	if *strategy == "all" {
		names = strategyNames
		if *vectors != "" {
			names = append(slices.Clone(names), "semantic")
		}
	}
	var strategies []evalStrategy
	for _, n := range names {
		if n == "semantic" {
			sem, err := semanticStrategy(*vectors, *weight, *limit)
			if err != nil {
				return err
			}
			defer sem.Close()
			strategies = append(strategies, evalStrategy{sem.Strategy, sem})
			continue
		}
		st, err := toolsearch.ParseStrategy(n)
		if err != nil {
			return usageError{fmt.Errorf("%w, or semantic with --vectors", err)}
		}
		strategies = append(strategies, evalStrategy{Strategy: st})
	}
	var rows []evalRow
	for _, path := range datasets {
		r, err := evalDataset(path, *catalog, *split, *limit, strategies, stderr)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	switch {
	case *asJSON:
		return writeJSON(stdout, rows)
	case *markdown:
		_, err := io.WriteString(stdout, markdownTable(rows, names, cells))
		return err
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%-14s %-8s tools %5d  queries %6d  Recall@1 %.4f  Recall@5 %.4f  MRR %.4f  NDCG@5 %.4f  %.1f µs/query\n",
			r.Dataset, r.Strategy, r.Tools, r.Queries, r.Recall1, r.Recall5, r.MRR, r.NDCG5, r.MeanQueryMicros)
	}
	if len(names) > 1 || names[0] == "regex" {
		b.WriteString("regex: each query of several words was turned into a pattern with eval.WordsPattern (its words, stop words left out, joined with |)\n")
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

// dataset is a dataset file loaded for evaluation: its queries, and a
// registry of its tools (or of the catalog's), all deferred.
type dataset struct {
	name  string
	ds    *eval.Dataset
	reg   *toolsearch.Registry
	tools int
}

// loadDataset reads the dataset file path (at most limit bytes), keeping
// the even or odd queries when split says so, and registers its tools, or
// the catalog's when it has none, all deferred.
func loadDataset(path, catalog, split string, limit int64) (*dataset, error) {
	data, err := readInput(path, limit)
	if err != nil {
		return nil, err
	}
	ds, err := eval.ParseDataset(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
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
		if catalog == "" {
			return nil, fmt.Errorf(`%s has no "tools": give the catalog its queries are for with --catalog`, path)
		}
		reg, err := loadRegistry(catalog, limit)
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
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return &dataset{name: name, ds: ds, reg: reg, tools: len(tools)}, nil
}

// evalDataset runs the strategies over one dataset file, with a line on
// progress for each strategy and a warning for relevant names that are not
// in the catalog; it fails when none is, since its figures would measure
// nothing.
func evalDataset(path, catalog, split string, limit int64, strategies []evalStrategy, progress io.Writer) ([]evalRow, error) {
	d, err := loadDataset(path, catalog, split, limit)
	if err != nil {
		return nil, err
	}
	missing := eval.Missing(d.reg, d.ds.Queries)
	if n := relevantNames(d.ds.Queries); len(missing) > 0 && len(missing) == n {
		return nil, fmt.Errorf("%s: none of the %d relevant tool names of its queries is in the catalog (is it the catalog they were written for?): %s",
			path, n, listSome(missing, 10))
	}
	if len(missing) > 0 {
		fmt.Fprintf(progress, "eval: warning: %s: %d relevant tool names are not in the catalog and count as not found: %s\n",
			d.name, len(missing), listSome(missing, 10))
	}
	var rows []evalRow
	for _, es := range strategies {
		st, sem := es.Strategy, es.sem
		isSem := sem != nil
		queries := d.ds.Queries
		if st.Name() == "regex" {
			queries = eval.AsPatterns(queries)
		}
		opts := &toolsearch.SearchOptions{Strategy: st}
		// keep holds the index of the tools' vectors until the queries are
		// answered: the registry holds a strategy's index only while a
		// Searcher using it is reachable, and one built again after a
		// collection would rank by keywords until its tools were embedded
		// again.
		var keep *toolsearch.Searcher
		if isSem {
			sem.misses.Store(0)
			// Every tool's vector first, as after the background work.
			keep = toolsearch.NewSearcher(d.reg, opts)
			keep.Prepare()
			if err := sem.Wait(context.Background()); err != nil {
				return nil, fmt.Errorf("%s: the vectors of its tools: %w", path, err)
			}
		}
		beforeEvaluate()
		rep := eval.Evaluate(d.reg, opts, queries)
		runtime.KeepAlive(keep)
		fmt.Fprintf(progress, "eval: %s %s: %d queries in %s (%d refused, %d answered with notes)\n",
			d.name, st.Name(), rep.Queries, rep.Elapsed.Round(time.Millisecond), rep.Refused, rep.Noted)
		if isSem {
			if n := sem.misses.Load(); n > 0 {
				fmt.Fprintf(progress, "eval: warning: %s: the vectors file has no vector for %d queries: they, and the queries of the pause that follows a failed embedding, were ranked by keywords only\n", d.name, n)
			}
		}
		rows = append(rows, evalRow{Dataset: d.name, Tools: d.tools, Report: rep})
	}
	return rows, nil
}

// beforeEvaluate runs after the tools are embedded and before the
// queries of a dataset: a test makes it collect garbage, as a busy process
// may at that moment.
var beforeEvaluate = func() {}

// relevantNames returns the number of distinct relevant names of queries.
func relevantNames(queries []eval.Query) int {
	seen := map[string]bool{}
	for _, q := range queries {
		for _, n := range q.Relevant {
			seen[n] = true
		}
	}
	return len(seen)
}

// listSome joins the first n names, and says how many more there are.
func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// metric is one metric of a Markdown cell.
type metric struct {
	name string
	get  func(*eval.Report) float64
}

var metricsByName = map[string]metric{
	"r1":   {"Recall@1", func(r *eval.Report) float64 { return r.Recall1 }},
	"r5":   {"Recall@5", func(r *eval.Report) float64 { return r.Recall5 }},
	"mrr":  {"MRR", func(r *eval.Report) float64 { return r.MRR }},
	"ndcg": {"NDCG@5", func(r *eval.Report) float64 { return r.NDCG5 }},
}

// parseMetrics reads the --metrics list.
func parseMetrics(list string) ([]metric, error) {
	var out []metric
	for _, name := range strings.Split(list, ",") {
		m, ok := metricsByName[strings.TrimSpace(name)]
		if !ok {
			return nil, fmt.Errorf("--metrics: unknown metric %q (want r1, r5, mrr or ndcg)", name)
		}
		out = append(out, m)
	}
	return out, nil
}

// markdownTable renders the metrics with one row per dataset and one
// column per strategy; a cell holds the metrics separated by " / ".
func markdownTable(rows []evalRow, strategies []string, metrics []metric) string {
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
			b.WriteByte(' ')
			for k, m := range metrics {
				if k > 0 {
					b.WriteString(" / ")
				}
				fmt.Fprintf(&b, "%.2f", m.get(rows[i+j].Report))
			}
			b.WriteString(" |")
		}
		b.WriteByte('\n')
	}
	if len(metrics) > 1 {
		names := make([]string, len(metrics))
		for i, m := range metrics {
			names[i] = m.name
		}
		fmt.Fprintf(&b, "\nEach cell: %s.\n", strings.Join(names, " / "))
	}
	return b.String()
}
