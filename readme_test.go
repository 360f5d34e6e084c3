package toolsearch

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadmeQuickStartIsTheExample keeps the README's quick start a copy of
// Example in example_test.go, so that the README shows code that runs.
func TestReadmeQuickStartIsTheExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	ex, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	block := regexp.MustCompile("(?s)## Quick start\n\n```go\n(.*?)```").FindSubmatch(readme)
	require.NotNil(t, block, "README has a Go quick start block")
	body := regexp.MustCompile(`(?s)\nfunc Example\(\) \{\n(.*?)\t// Output:`).FindSubmatch(ex)
	require.NotNil(t, body, "example_test.go has func Example")
	norm := func(s string, indented bool) string {
		var out []string
		for _, l := range strings.Split(strings.TrimRight(s, "\n\t "), "\n") {
			if indented {
				l = strings.TrimPrefix(l, "\t")
			}
			if i := strings.Index(l, " // mcp__github"); i >= 0 { // the README shows the output inline
				l = l[:i]
			}
			out = append(out, l)
		}
		return strings.Join(out, "\n")
	}
	require.Equal(t, norm(string(body[1]), true), norm(string(block[1]), false))
}
