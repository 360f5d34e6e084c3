// Package npmtest finds the real npm MCP servers that this module's
// integration tests run over stdio. The mcpgo and gateway modules carry
// their own copies of it on purpose (mcpgo's npm_test.go,
// gateway/internal/npmtest): the modules are versioned separately, and a
// test helper is no API to share between them.
package npmtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Server returns the absolute path of the entry script of npm MCP server
// pkg (for example "server-everything"), installed by
// `npm ci --prefix mcpsdk/testdata/npm` (or in the directory named by
// $TOOLSEARCH_MCP_NPM). It skips the test, saying why, when node or the
// package is missing, except under CI=true, where that is a failure: CI must
// run these tests.
func Server(t testing.TB, pkg string) string {
	t.Helper()
	skip := func(why string) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but the real MCP server test cannot run: %s", why)
		}
		t.Skipf("skipping the real MCP server test: %s", why)
	}
	if _, err := exec.LookPath("node"); err != nil {
		skip("node is not on PATH (install Node.js 18+)")
	}
	dir := os.Getenv("TOOLSEARCH_MCP_NPM")
	if dir == "" {
		_, file, _, _ := runtime.Caller(0) // mcpsdk/internal/npmtest/npmtest.go in the repository
		dir = filepath.Join(filepath.Dir(file), "..", "..", "testdata", "npm")
	}
	script := filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		skip("@modelcontextprotocol/" + pkg + " is not installed at " + script + ": run `npm ci --prefix mcpsdk/testdata/npm`")
	}
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatalf("npmtest: %v", err)
	}
	return abs
}
