package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/eval"
)

var agreeAll = flag.Bool("agree-all", false, "TestEvalAgreesWithBatch: every query of every dataset")

// TestEvalAgreesWithBatch proves that `toolsearch eval`, eval.Evaluate and
// `toolsearch batch` answer every query the same way, on every bench
// dataset and every strategy: the rank of the first relevant tool among
// the matches of each query, the refusals and the notes, and the figures
// eval prints. A dataset of more than 200 queries is sampled: about 20 of
// its queries, evenly spread (at least every 25th with
// TOOLSEARCH_SWEEPS=large, every query with -agree-all), with or without
// the race detector. Most of the time goes to the regex strategy, which
// scans every tool's text for each query (three times per query here),
// and to reading and registering a dataset's tools (4,000 for
// seal_tools) in each command run.
func TestEvalAgreesWithBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("eval/batch agreement: skipped with -short")
	}
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "bench", "*.json"))
	require.NoError(t, err)
	require.Len(t, paths, 4)
	for _, path := range paths {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		ds, err := eval.ParseDataset(data)
		require.NoError(t, err, path)
		qs := ds.Queries
		if len(qs) > 200 && !*agreeAll { // small datasets run whole
			stride := (len(qs) + 19) / 20
			stride = sweepSize(stride, min(stride, 25))
			qs = nil
			for i := 0; i < len(ds.Queries); i += stride {
				qs = append(qs, ds.Queries[i])
			}
		}
		name := ds.Name
		subset := writeFile(t, name+".json", mustJSON(t, map[string]any{"tools": json.RawMessage(toolsOf(t, data)), "queries": qs}))
		for i := range ds.Tools {
			ds.Tools[i].ShouldDefer = true
		}
		reg, err := toolsearch.NewRegistry(nil, ds.Tools...)
		require.NoError(t, err, path)
		// One eval run for every strategy.
		code, out, stderr := runCmd(t, "eval", "--json", "--strategy", "all", subset)
		require.Equal(t, 0, code, stderr)
		var rows []evalRow
		require.NoError(t, json.Unmarshal([]byte(out), &rows))
		require.Len(t, rows, len(strategyNames), "a row per strategy")
		for si, st := range strategyNames {
			t.Run(name+"/"+st, func(t *testing.T) {
				strategy, err := toolsearch.ParseStrategy(st)
				require.NoError(t, err)
				sent := qs
				if st == "regex" {
					sent = eval.AsPatterns(qs)
				}
				rep := eval.Evaluate(reg, &toolsearch.SearchOptions{Strategy: strategy}, sent)

				texts := make([]string, len(sent))
				for i, q := range sent {
					texts[i] = q.Query
				}
				queries := writeFile(t, "queries.json", mustJSON(t, texts))
				code, out, stderr := runCmd(t, "batch", "--strategy", st, "--catalog", subset, "--queries", queries)
				require.Equal(t, 0, code, stderr)
				var entries []batchResult
				require.NoError(t, json.Unmarshal([]byte(out), &entries))
				require.Len(t, entries, len(sent))
				refused, noted := 0, 0
				for i, e := range entries {
					first := slices.IndexFunc(e.Matches, func(m string) bool { return slices.Contains(sent[i].Relevant, m) }) + 1
					require.Equal(t, rep.PerQuery[i], first, "query %d %q: rank of the first relevant tool, Evaluate vs batch %v", i, sent[i].Query, e.Matches)
					if e.Error != "" {
						refused++
					}
					if len(e.Notes) > 0 {
						noted++
					}
				}
				assert.Equal(t, rep.Refused, refused, "refused queries")
				assert.Equal(t, rep.Noted, noted, "queries answered with notes")

				require.Equal(t, st, rows[si].Strategy, "eval's row %d", si)
				got := *rows[si].Report
				want := *rep
				got.PerQuery, want.PerQuery = nil, nil
				got.MeanQueryMicros, want.MeanQueryMicros, want.Elapsed = 0, 0, 0
				assert.Equal(t, want, got, "toolsearch eval prints what Evaluate measures")
				t.Logf("%d queries agree (Recall@5 %.4f, %d refused, %d with notes)", len(sent), rep.Recall5, rep.Refused, rep.Noted)
			})
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// toolsOf returns the raw "tools" array of a dataset file.
func toolsOf(t *testing.T, data []byte) []byte {
	t.Helper()
	var doc struct {
		Tools json.RawMessage `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	return doc.Tools
}
