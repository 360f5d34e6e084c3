package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTableIsCurrent: every entry of the table points at code that exists
// once and at tests that exist, so that the mutation check runs.
func TestTableIsCurrent(t *testing.T) {
	require.NoError(t, check(filepath.Join("..", ".."), mutations))
}

// TestEveryRowIsChecked: every row of SECURITY.md's bad-input matrix that
// names a test of the root module (its root package, internal packages or
// command) has an entry whose tests include one of
// them (the rows of the MCP adapters are checked in their own modules, and
// rows that only name fuzz targets are checked by fuzzing).
func TestEveryRowIsChecked(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "SECURITY.md"))
	require.NoError(t, err)
	var rootTests strings.Builder
	internal, err := filepath.Glob(filepath.Join("..", "..", "internal", "*"))
	require.NoError(t, err)
	for _, dir := range append([]string{"../..", "../../cmd/toolsearch"}, internal...) {
		src, err := testSources(dir)
		require.NoError(t, err)
		rootTests.WriteString(src)
	}
	covered := map[string]bool{}
	for _, m := range mutations {
		for _, name := range strings.Split(m.Tests, "|") {
			covered[name] = true
		}
	}
	text := string(doc)
	start, end := strings.Index(text, "## Bad-input matrix"), strings.Index(text, "## Fuzzing")
	require.True(t, start > 0 && end > start)
	testName := regexp.MustCompile("`(Test[A-Za-z0-9_]+)`")
	rows := 0
	for _, line := range strings.Split(text[start:end], "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| input") {
			continue
		}
		var inRoot []string
		for _, m := range testName.FindAllStringSubmatch(line, -1) {
			if strings.Contains(rootTests.String(), "func "+m[1]+"(") {
				inRoot = append(inRoot, m[1])
			}
		}
		if len(inRoot) == 0 {
			continue
		}
		rows++
		ok := false
		for _, name := range inRoot {
			ok = ok || covered[name]
		}
		assert.True(t, ok, "no mutation checks the row %.80s… (tests %v)", line, inRoot)
	}
	assert.Greater(t, rows, 40)
}
