package toolsearch

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// update rewrites golden files: go test -run TestName -update.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// checkGolden compares got with testdata/<name>, or rewrites it with
// -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden file %s (run with -update to create it)", path)
	require.Equal(t, string(want), string(got), "output differs from %s (run with -update if the change is intended)", path)
}

// smallRegistry returns a Registry holding testdata/pool_small.json: Read
// and mcp__jira__create_ticket are loaded, the ten others deferred.
func smallRegistry(t testing.TB) *Registry {
	t.Helper()
	return loadCatalog(t, filepath.Join("testdata", "pool_small.json"))
}

// toolNames returns the names of defs, in order.
func toolNames(defs []ToolDefinition) []string {
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = d.Name
	}
	return out
}

// mustTools returns s.Tools(), failing the test on an error.
func mustTools(t testing.TB, s *Session) []ToolDefinition {
	t.Helper()
	defs, skipped := s.Tools()
	require.Empty(t, skipped, "Tools()")
	return defs
}

// toolsJSON returns s.Tools() encoded as JSON.
func toolsJSON(t testing.TB, s *Session) []byte {
	t.Helper()
	b, err := json.Marshal(mustTools(t, s))
	require.NoError(t, err)
	return b
}

// sessionSearch runs a ToolSearch call with query on s and fails the test on an
// error.
func sessionSearch(t testing.TB, s *Session, query string) *Result {
	t.Helper()
	args, err := json.Marshal(map[string]string{"query": query})
	require.NoError(t, err)
	res, err := s.Call(args)
	require.NoError(t, err, "Call(%s)", args)
	return res
}

// discovered returns the names discovered in s, sorted.
func discovered(s *Session) []string { return s.Snapshot().Discovered }

// handle answers a ToolSearch call on s as an adapter does: the result in
// s's Format (the tool result's content and the texts after it), or the
// error's text as an error result.
func handle(s *Session, args json.RawMessage) (content, after []ContentBlock, isError bool) {
	res, err := s.Call(args)
	if err != nil {
		return []ContentBlock{{Type: "text", Text: err.Error()}}, nil, true
	}
	content, after = res.Content(s.Format())
	return content, after, false
}
