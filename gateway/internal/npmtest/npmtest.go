// Package npmtest finds what the gateway's end-to-end tests run with node:
// the npm MCP reference servers put behind the gateway and the official
// TypeScript SDK used as a client in front of it, all pinned in
// gateway/testdata/npm.
package npmtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir returns the absolute path of the npm folder the tests use:
// $TOOLSEARCH_GATEWAY_NPM when set, else gateway/testdata/npm of this
// checkout. It skips the test, saying why, when node or the folder's
// node_modules is missing, except under CI=true, where that is a failure:
// CI must run these tests.
func Dir(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		missing(t, "node is not on PATH (install Node.js 18+)")
	}
	dir := os.Getenv("TOOLSEARCH_GATEWAY_NPM")
	if dir == "" {
		_, file, _, _ := runtime.Caller(0) // gateway/internal/npmtest/npmtest.go in the repository
		dir = filepath.Join(filepath.Dir(file), "..", "..", "testdata", "npm")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatalf("npmtest: %v", err)
	}
	if _, err := os.Stat(filepath.Join(abs, "node_modules")); err != nil {
		missing(t, "the npm packages are not installed in "+abs+": run `npm ci --prefix gateway/testdata/npm`")
	}
	return abs
}

// Server returns the absolute path of the entry script of npm MCP server
// pkg (for example "server-everything"), skipping or failing as Dir does
// when it is not installed.
func Server(t testing.TB, pkg string) string {
	t.Helper()
	script := filepath.Join(Dir(t), "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		missing(t, "@modelcontextprotocol/"+pkg+" is not installed at "+script+": run `npm ci --prefix gateway/testdata/npm`")
	}
	return script
}

// missing skips the test with why, or fails it under CI=true.
func missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but the test needs what is missing: %s", why)
	}
	t.Skipf("skipping: %s", why)
}
