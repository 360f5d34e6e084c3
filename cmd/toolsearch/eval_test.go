package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	keywordSet  = filepath.Join("..", "..", "testdata", "quality", "keywords.json")
	demoCatalog = filepath.Join("..", "..", "internal", "demo", "catalog.json")
)

func TestEvalJSON(t *testing.T) {
	code, out, stderr := runCmd(t, "eval", "--json", "--strategy", "hybrid", "--catalog", demoCatalog, "--dataset", keywordSet)
	require.Equal(t, 0, code, stderr)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows), out)
	require.Len(t, rows, 1)
	r := rows[0]
	assert.Equal(t, "keywords", r["dataset"])
	assert.Equal(t, "hybrid", r["strategy"])
	for _, k := range []string{"recall_at_1", "recall_at_5", "mrr", "ndcg_at_5", "mean_query_us", "queries", "tools", "refused", "noted"} {
		assert.Contains(t, r, k)
	}
	assert.Greater(t, r["queries"].(float64), 0.0)
	assert.Greater(t, r["recall_at_5"].(float64), 0.5)
}

func TestEvalText(t *testing.T) {
	code, out, stderr := runCmd(t, "eval", "--catalog", demoCatalog, "--dataset", keywordSet)
	require.Equal(t, 0, code, stderr)
	for _, want := range []string{"keywords", "default", "Recall@1", "Recall@5", "MRR", "NDCG@5", "µs/query", "queries"} {
		assert.Contains(t, out, want)
	}
}

// eval reports its progress on stderr, a line per dataset and strategy
// with the query count; warns about relevant names missing from the
// catalog, and fails when none of them is there; and refuses a dataset
// without tools unless --catalog is given.
func TestEvalProgressAndWarnings(t *testing.T) {
	code, _, stderr := runCmd(t, "eval", "--strategy", "all", "--catalog", demoCatalog, keywordSet)
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	require.Len(t, lines, 4, stderr)
	for i, st := range strategyNames {
		assert.Regexp(t, `^eval: keywords `+st+`: 80 queries in \S+ \(0 refused, 0 answered with notes\)$`, lines[i])
	}

	missing := writeFile(t, "missing.json", `{"tools":[{"name":"Alpha"}],"queries":[{"query":"alpha","relevant":["Alpha","Gone"]},{"query":"beta","relevant":["Beta"]}]}`)
	code, _, stderr = runCmd(t, "eval", missing)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "eval: warning: missing: 2 relevant tool names are not in the catalog and count as not found: Beta, Gone\n")

	// The wrong catalog: no relevant tool is in it, so the figures would
	// measure nothing.
	wrong := writeFile(t, "wrong.json", `{"tools":[{"name":"Alpha"}]}`)
	code, out, stderr := runCmd(t, "eval", "--catalog", wrong, keywordSet)
	assert.Equal(t, 1, code, out)
	assert.Empty(t, out)
	assert.Regexp(t, `keywords.json: none of the \d+ relevant tool names of its queries is in the catalog \(is it the catalog they were written for\?\): \S+`, stderr)

	code, _, stderr = runCmd(t, "eval", keywordSet)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `keywords.json has no "tools": give the catalog its queries are for with --catalog`)
}

func TestEvalAllMarkdown(t *testing.T) {
	code, out, stderr := runCmd(t, "eval", "--strategy", "all", "--markdown", "--catalog", demoCatalog, keywordSet, keywordSet)
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4, out)
	assert.Equal(t, "| dataset | tools | queries | default | bm25 | regex | hybrid |", lines[0])
	assert.True(t, strings.HasPrefix(lines[2], "| keywords | 579 | "), lines[2])

	code, out, stderr = runCmd(t, "eval", "--strategy", "hybrid", "--markdown", "--metrics", "r1,r5,mrr", "--catalog", demoCatalog, keywordSet)
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `\| keywords \| 579 \| 80 \| \d\.\d\d / \d\.\d\d / \d\.\d\d \|\n\nEach cell: Recall@1 / Recall@5 / MRR.\n$`, out)
	code, _, stderr = runCmd(t, "eval", "--markdown", "--metrics", "r9", keywordSet)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `unknown metric "r9"`)
}

// The dataset's own tools are used when it has them, all deferred.
func TestEvalDatasetWithTools(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"tools":[{"name":"Alpha","should_defer":false},{"name":"beta","always_load":true}],
		"queries":[{"query":"alpha","relevant":["Alpha"]},{"query":"beta","relevant":["beta"]}]}`), 0o600))
	code, out, stderr := runCmd(t, "eval", "--json", "--dataset", path)
	require.Equal(t, 0, code, stderr)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	assert.Equal(t, 2.0, rows[0]["tools"])
	assert.Equal(t, 1.0, rows[0]["recall_at_1"], "tools marked not deferred are deferred for eval")
}

func TestEvalErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"queries":[{"query":"x","relevant":[]}]}`), 0o600))
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no dataset", []string{"eval"}, 2, "--dataset is required"},
		{"unknown strategy", []string{"eval", "--strategy", "fuzzy", keywordSet}, 2, `unknown strategy "fuzzy"`},
		{"missing file", []string{"eval", "--dataset", "nope.json"}, 1, "nope.json"},
		{"invalid dataset", []string{"eval", bad}, 1, "no relevant tools"},
		{"bad split", []string{"eval", "--split", "half", keywordSet}, 2, "--split must be even or odd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			assert.Equal(t, tt.code, code, stderr)
			assert.Contains(t, stderr, tt.want)
		})
	}
}

func TestSearchStrategyFlag(t *testing.T) {
	code, out, stderr := runCmd(t, "search", "--strategy", "hybrid", "--format", "json", "send", "a", "slack", "message")
	require.Equal(t, 0, code, stderr)
	var res struct {
		Matches []struct{ Name string } `json:"matches"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.NotEmpty(t, res.Matches)
	assert.Equal(t, "mcp__slack__send_message", res.Matches[0].Name)

	code, out, stderr = runCmd(t, "search", "--strategy", "regex", "slack.*send|send.*slack")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "mcp__slack__send_message")
	assert.Contains(t, out, "in name part")

	code, _, stderr = runCmd(t, "search", "--strategy", "regex", "(slack")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "not a valid RE2 regular expression")

	code, _, stderr = runCmd(t, "search", "--strategy", "nope", "x")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "unknown strategy")
}

func TestBatchStrategyFlag(t *testing.T) {
	dir := t.TempDir()
	catalog := filepath.Join(dir, "catalog.json")
	queries := filepath.Join(dir, "queries.json")
	require.NoError(t, os.WriteFile(catalog, []byte(`{"tools":[{"name":"create_issue","description":"Opens a ticket"},{"name":"send_mail"}]}`), 0o600))
	require.NoError(t, os.WriteFile(queries, []byte(`["creating issues", "(bad"]`), 0o600))

	code, out, stderr := runCmd(t, "batch", "--strategy", "hybrid", "--catalog", catalog, "--queries", queries)
	require.Equal(t, 0, code, stderr)
	var res []struct {
		Matches []string `json:"matches"`
		Error   string   `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.Equal(t, []string{"create_issue"}, res[0].Matches, "hybrid normalises creating/issues")

	code, out, stderr = runCmd(t, "batch", "--strategy", "regex", "--catalog", catalog, "--queries", queries)
	require.Equal(t, 0, code, stderr)
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.Contains(t, res[1].Error, "not a valid RE2 regular expression", "a bad pattern is reported for its item")
}

func TestEvalSplit(t *testing.T) {
	count := func(args ...string) float64 {
		code, out, stderr := runCmd(t, append([]string{"eval", "--json", "--catalog", demoCatalog}, args...)...)
		require.Equal(t, 0, code, stderr)
		var rows []map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &rows))
		return rows[0]["queries"].(float64)
	}
	all, even, odd := count(keywordSet), count("--split", "even", keywordSet), count("--split", "odd", keywordSet)
	assert.Equal(t, all, even+odd)
	assert.Equal(t, float64(int(all+1)/2), even)
}
