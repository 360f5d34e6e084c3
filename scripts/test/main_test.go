package main

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stream is go test -json output for three packages: one passing with a
// skipped test, one failing, one without tests.
const stream = `{"Action":"start","Package":"example.com/a"}
{"Action":"run","Package":"example.com/a","Test":"TestOK"}
{"Action":"output","Package":"example.com/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"example.com/a","Test":"TestOK","Output":"    a_test.go:3: a log line of a passing test\n"}
{"Action":"output","Package":"example.com/a","Test":"TestOK","Output":"--- PASS: TestOK (0.00s)\n"}
{"Action":"pass","Package":"example.com/a","Test":"TestOK"}
{"Action":"run","Package":"example.com/a","Test":"TestReal"}
{"Action":"output","Package":"example.com/a","Test":"TestReal","Output":"=== RUN   TestReal\n"}
{"Action":"output","Package":"example.com/a","Test":"TestReal","Output":"    a_test.go:9: skipping the real MCP server test: node is not on PATH\n"}
{"Action":"output","Package":"example.com/a","Test":"TestReal","Output":"--- SKIP: TestReal (0.00s)\n"}
{"Action":"skip","Package":"example.com/a","Test":"TestReal"}
{"Action":"run","Package":"example.com/a","Test":"TestQuiet"}
{"Action":"output","Package":"example.com/a","Test":"TestQuiet","Output":"--- SKIP: TestQuiet (0.00s)\n"}
{"Action":"skip","Package":"example.com/a","Test":"TestQuiet"}
{"Action":"output","Package":"example.com/a","Output":"PASS\n"}
{"Action":"output","Package":"example.com/a","Output":"ok  \texample.com/a\t0.01s\n"}
{"Action":"pass","Package":"example.com/a"}
{"Action":"run","Package":"example.com/b","Test":"TestBad"}
{"Action":"output","Package":"example.com/b","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"example.com/b","Test":"TestBad","Output":"    b_test.go:5: got 1, want 2\n"}
{"Action":"output","Package":"example.com/b","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"example.com/b","Test":"TestBad"}
{"Action":"output","Package":"example.com/b","Output":"FAIL\n"}
{"Action":"output","Package":"example.com/b","Output":"FAIL\texample.com/b\t0.01s\n"}
{"Action":"fail","Package":"example.com/b"}
{"Action":"output","Package":"example.com/c","Output":"?   \texample.com/c\t[no test files]\n"}
not an event
`

func TestReportIsGoTestsSummaryPlusSkips(t *testing.T) {
	var out strings.Builder
	skipped := report(strings.NewReader(stream), &out)
	assert.Equal(t, "ok  \texample.com/a\t0.01s\n"+
		"    b_test.go:5: got 1, want 2\n"+
		"--- FAIL: TestBad (0.00s)\n"+
		"FAIL\n"+
		"FAIL\texample.com/b\t0.01s\n"+
		"?   \texample.com/c\t[no test files]\n"+
		"not an event\n", out.String(), "passing tests' output is hidden, failing tests' shown")
	assert.Equal(t, []string{
		"  example.com/a TestReal: a_test.go:9: skipping the real MCP server test: node is not on PATH",
		"  example.com/a TestQuiet: (no reason given)",
	}, skipped)
}

// Every go.work of the repository but benchmarks' is one the command
// tests, so that no adapter with a workspace of its own is left out.
func TestEveryWorkspaceIsTested(t *testing.T) {
	root := filepath.Join("..", "..")
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.Name() == "go.work" {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			if rel != "benchmarks" {
				found = append(found, rel)
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.ElementsMatch(t, workspaces, found, "go.work files (benchmarks' aside) and the workspaces the command tests")
}
