package main

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
{"Action":"skip","Package":"example.com/c"}
not an event
`

func TestReportIsGoTestsSummaryPlusSkips(t *testing.T) {
	var out strings.Builder
	packages := 0
	skipped := report(strings.NewReader(stream), &out, func() { packages++ })
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
	assert.Equal(t, 3, packages, "packages done: passed, failed, without tests")
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

// clock is a time that a test moves on.
type clock struct{ t time.Time }

func (c *clock) now() time.Time       { return c.t }
func (c *clock) pass(d time.Duration) { c.t = c.t.Add(d) }

// The command says when each step starts, and what still runs once it
// was silent for 30 s, with the packages done so far in a test step.
func TestProgress(t *testing.T) {
	c := &clock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	var out strings.Builder
	p := newProgress(&out, c.now)
	p.begin("go.work: go vet -race, 3 packages", 0)
	c.pass(29 * time.Second)
	p.beat()
	assert.Empty(t, out.String()[len("test: [0s] go.work: go vet -race, 3 packages\n"):], "nothing said before 30 s of silence")
	c.pass(time.Second)
	p.beat()
	c.pass(10 * time.Second)
	p.beat()
	p.begin("go.work: go test -race, 3 packages", 3)
	p.packageDone()
	c.pass(5 * time.Second)
	_, err := p.Write([]byte("ok  \texample.com/a\t0.01s\n"))
	require.NoError(t, err)
	c.pass(29 * time.Second)
	p.beat()
	c.pass(time.Second)
	p.beat()
	var stderr strings.Builder
	c.pass(29 * time.Second)
	_, err = p.writer(&stderr).Write([]byte("a build error\n"))
	require.NoError(t, err)
	c.pass(29 * time.Second)
	p.beat()
	assert.Equal(t, "a build error\n", stderr.String())
	assert.Equal(t, "test: [0s] go.work: go vet -race, 3 packages\n"+
		"test: [30s] still running: go.work: go vet -race, 3 packages\n"+
		"test: [40s] go.work: go test -race, 3 packages\n"+
		"ok  \texample.com/a\t0.01s\n"+
		"test: [1m15s] still running: go.work: go test -race, 3 packages (1 of 3 packages done; the others are being built or tested)\n",
		out.String(), "a write to stderr counts as output too")
}

// A build error and a test that never ended (a -timeout panic: no fail
// event for the test, only for its package) are shown, not only their
// packages' FAIL lines; a passing package's unfinished test (none in
// practice) prints nothing.
func TestReportShowsBuildErrorsAndUnfinishedTests(t *testing.T) {
	const stream = `{"ImportPath":"example.com/d [example.com/d.test]","Action":"build-output","Output":"# example.com/d [example.com/d.test]\n"}
{"ImportPath":"example.com/d [example.com/d.test]","Action":"build-output","Output":"./d_test.go:3:28: undefined: nothing\n"}
{"ImportPath":"example.com/d [example.com/d.test]","Action":"build-fail"}
{"Action":"start","Package":"example.com/d"}
{"Action":"output","Package":"example.com/d","Output":"FAIL\texample.com/d [build failed]\n"}
{"Action":"fail","Package":"example.com/d","FailedBuild":"example.com/d [example.com/d.test]"}
{"Action":"start","Package":"example.com/e"}
{"Action":"run","Package":"example.com/e","Test":"TestFast"}
{"Action":"output","Package":"example.com/e","Test":"TestFast","Output":"=== RUN   TestFast\n"}
{"Action":"output","Package":"example.com/e","Test":"TestFast","Output":"--- PASS: TestFast (0.00s)\n"}
{"Action":"pass","Package":"example.com/e","Test":"TestFast"}
{"Action":"run","Package":"example.com/e","Test":"TestHang"}
{"Action":"output","Package":"example.com/e","Test":"TestHang","Output":"=== RUN   TestHang\n"}
{"Action":"output","Package":"example.com/e","Test":"TestHang","Output":"panic: test timed out after 2s\n"}
{"Action":"output","Package":"example.com/e","Test":"TestHang","Output":"\trunning tests:\n"}
{"Action":"output","Package":"example.com/e","Test":"TestHang","Output":"\t\tTestHang (2s)\n"}
{"Action":"output","Package":"example.com/e","Output":"FAIL\texample.com/e\t2.081s\n"}
{"Action":"fail","Package":"example.com/e"}
{"Action":"run","Package":"example.com/f","Test":"TestOdd"}
{"Action":"output","Package":"example.com/f","Test":"TestOdd","Output":"a line\n"}
{"Action":"output","Package":"example.com/f","Output":"ok  \texample.com/f\t0.01s\n"}
{"Action":"pass","Package":"example.com/f"}
`
	var out strings.Builder
	packages := 0
	skipped := report(strings.NewReader(stream), &out, func() { packages++ })
	assert.Equal(t, "# example.com/d [example.com/d.test]\n"+
		"./d_test.go:3:28: undefined: nothing\n"+
		"FAIL\texample.com/d [build failed]\n"+
		"--- DID NOT FINISH: TestHang (example.com/e)\n"+
		"panic: test timed out after 2s\n"+
		"\trunning tests:\n"+
		"\t\tTestHang (2s)\n"+
		"FAIL\texample.com/e\t2.081s\n"+
		"ok  \texample.com/f\t0.01s\n", out.String())
	assert.Empty(t, skipped)
	assert.Equal(t, 3, packages)
}
