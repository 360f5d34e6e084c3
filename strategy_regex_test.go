package toolsearch

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/schema"
	"github.com/toolsearch/toolsearch/internal/words"
)

func regexSearcher(t *testing.T) *Searcher {
	t.Helper()
	return NewSearcher(strategyRegistry(t), &SearchOptions{Strategy: RegexStrategy()})
}

func TestRegexPatternErrors(t *testing.T) {
	s := regexSearcher(t)
	tests := []struct {
		name, pattern, want string
	}{
		{"unclosed group", "create(issue", "not a valid RE2 regular expression (missing closing ): `create(issue`)"},
		{"bad repeat", "*issue", "not a valid RE2 regular expression (missing argument to repetition operator: `*`)"},
		{"lookahead is not RE2", "(?=x)", "not a valid RE2 regular expression"},
		{"too long", strings.Repeat("a", maxPatternLength+1), "the pattern is 201 characters long; the limit is 200"},
		{"too long in characters", strings.Repeat("é", maxPatternLength+1), "201 characters long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Search(tt.pattern, 5)
			require.ErrorIs(t, err, ErrInvalidQuery, "Search(%q)", tt.pattern)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	t.Run("200 characters are accepted", func(t *testing.T) {
		_, err := s.Search(strings.Repeat("é", maxPatternLength), 5)
		assert.NoError(t, err)
	})
}

func TestRegexMatching(t *testing.T) {
	s := regexSearcher(t)
	tests := []struct {
		name, pattern string
		want          []string
	}{
		{"case-insensitive", "SLACK", []string{"mcp__slack__list_channels", "mcp__slack__send_message"}},
		{"regex syntax", `creat(e|es)\s+a\s+new`, []string{"mcp__github__create_issue"}},
		{"argument name", "^labels$", []string{"mcp__github__create_issue"}},
		{"argument description", `channel id`, []string{"mcp__slack__send_message"}},
		{"search hint", "download", []string{"WebFetch"}},
		{"name ranks above description", "notebook|jupyter", []string{"NotebookEdit"}},
		{"more alternatives rank higher", "issue|new|title", []string{"mcp__github__create_issue", "mcp__github__list_issues"}},
		{"class with a bar is one alternative", "[|]x", nil},
		{"flags reach across bars", "(?s)zzz|fetches", []string{"WebFetch"}},
		{"non-deferred tools are not searched", "disk", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Search(tt.pattern, 10)
			require.NoError(t, err, "Search(%q)", tt.pattern)
			if tt.want == nil {
				assert.Empty(t, res.Matches)
				return
			}
			assert.Equal(t, tt.want, matchNames(res), "Search(%q)", tt.pattern)
		})
	}
}

func TestRegexScoreAndRules(t *testing.T) {
	res, err := regexSearcher(t).Search("issue|title", 10)
	require.NoError(t, err)
	require.Equal(t, "mcp__github__create_issue", res.Matches[0].Name)
	// issue: name, description and argument ("Issue title"); title:
	// argument.
	assert.Equal(t, float64(regexWeightName+regexWeightDescription+2*regexWeightArgument), res.Matches[0].Score)
	assert.Equal(t, RulePartSubstring|RuleDescription|RuleArgument, res.Matches[0].Rules)
}

func TestSplitAlternatives(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a", []string{"a"}},
		{"a|b", []string{"a", "b"}},
		{"(a|b)|c", []string{"(a|b)", "c"}},
		{`a\|b|c`, []string{`a\|b`, "c"}},
		{"[|]|x", []string{"[|]", "x"}},
		{"[]|]|x", []string{"[]|]", "x"}},
		{"[^]|]|x", []string{"[^]|]", "x"}},
		{"(?i)a|b", []string{"(?i)a|b"}},
		{"(?i:a)|b", []string{"(?i:a)", "b"}},
		{"(?P<n>a)|b", []string{"(?P<n>a)", "b"}},
		{"a|", []string{"a", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, splitAlternatives(tt.in))
		})
	}
}

// The literal fast path and the prefilter never change whether a pattern
// matches: each alternative matches a text exactly when the regular
// expression, case-insensitive, matches the original text.
func TestRegexAlternativesAgreeWithRegexp(t *testing.T) {
	patterns := []string{
		"slack", "SLACK", "Send|message", "sen.*age", "(create|list)_issue", `\bissue\b`, "is+ue", "x{2,}",
		"^mcp", "channel$", `\d+`, `[A-Z]\w+`, "(?:git)?hub", "a|", "é", "ÉTÉ", "(?s)a.b", `\D`, "(a|b)+c", "ue|x*",
		"chan(nel)?", "k", "[[:upper:]]", "mcp__[a-z]+__send",
	}
	texts := []string{
		"", "Slack", "mcp__slack__send_message", "Sends a message to a Slack channel.", "Creates a new issue",
		"list_issue", "ISSUE 42", "xx", "Été chaud", "a\nb", "channels", "GitHub", "C0123", "KELVIN",
	}
	for _, p := range patterns {
		alts, err := compilePattern(p)
		require.NoError(t, err, p)
		ref := regexp.MustCompile("(?i)" + p)
		for _, text := range texts {
			got := false
			for i := range alts {
				m, ok := alts[i].match(words.Lower(text), querywork.New(1<<30))
				require.True(t, ok)
				got = got || m
			}
			assert.Equal(t, ref.MatchString(text), got, "pattern %q on %q", p, text)
		}
	}
}

func TestRegexCall(t *testing.T) {
	s := regexSearcher(t)
	res, err := s.Call(json.RawMessage(`{"pattern":"slack.*send|send.*slack","max_results":1}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"mcp__slack__send_message"}, matchNames(res))

	res, err = s.Call(json.RawMessage(`{"pattern":"select:WebFetch"}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"WebFetch"}, matchNames(res))

	for _, tt := range []struct{ name, args, want string }{
		{"query instead of pattern", `{"query":"slack"}`, `expected {"pattern": string`},
		{"invalid pattern", `{"pattern":"(slack"}`, "not a valid RE2 regular expression"},
		{"pattern not a string", `{"pattern":3}`, "pattern"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Call(json.RawMessage(tt.args))
			require.ErrorIs(t, err, ErrInvalidQuery, "Call(%s)", tt.args)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	t.Run("default strategy still takes query", func(t *testing.T) {
		_, err := NewSearcher(strategyRegistry(t), nil).Call(json.RawMessage(`{"pattern":"slack"}`))
		require.ErrorIs(t, err, ErrInvalidQuery)
		assert.Contains(t, err.Error(), `expected {"query": string`)
	})
}

func TestArgumentTexts(t *testing.T) {
	names, descs := schema.ArgumentTexts(json.RawMessage(`{"type":"object","properties":{"b":{"type":"string","description":"Bee"},"a":{"type":"object","properties":{"inner":{"description":"Deep"}}},"list":{"type":"array","items":{"type":"object","properties":{"item_id":{}}}}}}`))
	assert.Equal(t, []string{"a", "b", "list", "inner", "item_id"}, names)
	assert.Equal(t, []string{"Bee", "Deep"}, descs)
	n, d := schema.ArgumentTexts(json.RawMessage(`not json`))
	assert.Empty(t, n)
	assert.Empty(t, d)
}

// TestRegexWorkIsBounded: a pattern whose program is large (counted
// repeats: 13 characters used to cost seconds at 1,000 tools) is refused;
// one just within the program bound stops at MaxQueryWork, checked in pool
// order, with a note, whatever the catalog's size.
func TestRegexWorkIsBounded(t *testing.T) {
	for _, p := range []string{`[^x]{1000}y`, `.{500}.{501}`, `(a|b){999}`, `\pL{1000}`} {
		_, err := NewSearcher(smallRegistry(t), &SearchOptions{Strategy: RegexStrategy()}).Search(p, 0)
		require.ErrorIs(t, err, ErrInvalidQuery, p)
		assert.Contains(t, err.Error(), "the pattern is too costly to match: its program has")
		assert.Contains(t, err.Error(), "the limit is 1000")
	}

	r := punctuationCatalog(t, 500) // 2 KB descriptions
	s := NewSearcher(r, &SearchOptions{Strategy: RegexStrategy()})
	res, err := s.Search(`[^x]{900}y`, 5)
	require.NoError(t, err, "within the program bound")
	assert.Equal(t, []string{matchingCut()}, res.Notes, "a costly pattern stops at the budget and says so")

	res, err = s.Search(`a\.b`, 5)
	require.NoError(t, err)
	assert.Empty(t, res.Notes, "a plain pattern over 500 tools is far within the budget")
	assert.Len(t, res.Matches, 5)
	small := NewSearcher(r, &SearchOptions{Strategy: RegexStrategy(), MaxQueryWork: 50_000})
	res, err = small.Search(`nowhere|tool_1\d`, 20)
	require.NoError(t, err)
	assert.Equal(t, []string{matchingCut()}, res.Notes, "the option is honoured")
	assert.NotEmpty(t, res.Matches, "what was matched before the cut is returned")
}
