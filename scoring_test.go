package toolsearch

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNameParts(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []string
		mcp  bool
	}{
		{"WebSearch", []string{"web", "search"}, false},
		{"getURLFor", []string{"get", "urlfor"}, false},
		{"HTTPRequest", []string{"httprequest"}, false},
		{"read_file-v2.x", []string{"read", "file-v2.x"}, false},
		{"get2Fa", []string{"get2fa"}, false},
		{"mcp__github__create_issue", []string{"github", "create", "issue"}, true},
		{"mcp__my-srv__getItems", []string{"my-srv", "getitems"}, true},
		{"mcp__a___b", []string{"a", "b"}, true},
	} {
		got, mcp := nameParts(tc.name)
		assert.Equal(t, tc.want, got, "nameParts(%q)", tc.name)
		assert.Equal(t, tc.mcp, mcp, "nameParts(%q) MCP", tc.name)
	}
}

func TestTerms(t *testing.T) {
	got := parseTerms("send +slack + +x send")
	assert.Equal(t, []string{"slack", "x"}, got.required)
	assert.Equal(t, []string{"slack", "x", "send", "+", "send"}, got.all, "required first, then the others with duplicates")

}

func TestSpansParts(t *testing.T) {
	parts := []string{"github", "create", "issue"}
	for term, want := range map[string]bool{
		"create_issue": true, "createissue": true, "githubcreate": true, "github-create.issue": true,
		"create": false, "issuecreate": false, "createiss": false, "_": false, "createissuex": false,
	} {
		assert.Equal(t, want, spansParts(term, parts), "spansParts(%q)", term)
	}
}
