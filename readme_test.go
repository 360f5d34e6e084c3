package toolsearch

import (
	"encoding/json"
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

// TestReadmeToolReferenceMessage keeps the README's example of the message
// that answers a ToolSearch call what Result.Content gives: the tool_result
// holding only the references, the other tool's result, then the texts.
func TestReadmeToolReferenceMessage(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	block := regexp.MustCompile("(?s)For `select:Read,Nope` and a call to another tool in the same turn:\n\n```json\n(.*?)```").FindSubmatch(readme)
	require.NotNil(t, block, "README has the JSON example")

	reg, err := NewRegistry(nil, Tool{Name: "Read", Description: "Read a file."}, Tool{Name: "WebFetch", ShouldDefer: true})
	require.NoError(t, err)
	res, err := NewSearcher(reg, nil).Search("select:Read,Nope", 0)
	require.NoError(t, err)
	content, after := res.Content(FormatToolReference)
	msg := []any{
		map[string]any{"type": "tool_result", "tool_use_id": "toolu_01", "content": content},
		map[string]any{"type": "tool_result", "tool_use_id": "toolu_02", "content": []ContentBlock{{Type: "text", Text: "done"}}},
	}
	for _, b := range after {
		msg = append(msg, b)
	}
	want, err := json.Marshal(map[string]any{"role": "user", "content": msg})
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(block[1]))
}
