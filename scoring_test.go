package toolsearch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestRuleText: every Rule value marshals and reads back as itself; the
// names are the documented ones; unknown names are an error.
func TestRuleText(t *testing.T) {
	for v := range 256 {
		r := Rule(v)
		b, err := r.MarshalText()
		require.NoError(t, err)
		var got Rule
		require.NoError(t, got.UnmarshalText(b), "%s", b)
		require.Equal(t, r, got, "%s", b)
	}
	assert.Equal(t, "none", Rule(0).String())
	assert.Equal(t, "part_exact|hint", (RulePartExact | RuleHint).String())
	assert.Equal(t, "semantic|Rule(128)", (RuleSemantic | 128).String())
	var r Rule
	require.NoError(t, r.UnmarshalText([]byte("hint|part_exact")))
	assert.Equal(t, RulePartExact|RuleHint, r, "names in any order")
	for _, bad := range []string{"", "hint|", "exact", "Rule(0)", "Rule(256)", "Rule(x)"} {
		require.ErrorIs(t, r.UnmarshalText([]byte(bad)), ErrInvalidOption, "%q", bad)
	}
}

// TestKeywordRulesFitTheAccumulator: the accumulator packs the keyword
// rules between the score and the alive bit, and reads back each one it
// credits; a keyword rule past the alive bit would not compile
// (index_scratch.go).
func TestKeywordRulesFitTheAccumulator(t *testing.T) {
	assert.Zero(t, uint32(accRules)<<accScoreBits&accAlive, "the rule bits do not reach accAlive")
	assert.Zero(t, uint32(accRules)<<accScoreBits&accScore, "nor the score")
	for i := range len(ruleNames) {
		r := Rule(1) << i
		var a accumulator
		a.begin(1, 1)
		a.credit(0, &a.acc[0], 7, r)
		got := Rule(a.acc[0].sr>>accScoreBits) & accRules
		if keywordRules&r != 0 {
			assert.Equal(t, r, got, "%s comes back", r)
		} else {
			assert.Zero(t, got, "%s is not a keyword rule: its bit is not kept", r)
		}
		assert.Equal(t, uint32(7), a.acc[0].sr&accScore)
		assert.Zero(t, a.acc[0].sr&accAlive)
	}
}
