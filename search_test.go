package toolsearch

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/words"
)

type hit struct {
	name  string
	score float64
}

func search(t *testing.T, s *Searcher, q string, k int) *Result {
	t.Helper()
	res, err := s.Search(q, k)
	require.NoError(t, err, "Search(%q, %d)", q, k)
	return res
}

func hits(res *Result) []hit {
	out := []hit{}
	for _, m := range res.Matches {
		out = append(out, hit{m.Name, m.Score})
	}
	return out
}

func matchNames(res *Result) []string {
	out := []string{}
	for _, m := range res.Matches {
		out = append(out, m.Name)
	}
	return out
}

// TestSpecCases pins the cases the issue names, on specPool.
func TestSpecCases(t *testing.T) {
	s := NewSearcher(specPool(t), nil)
	for _, tc := range []struct {
		name, query string
		form        string
		want        []hit
	}{
		{"web ranks WebSearch by hint and description", "web", "keywords", []hit{{"WebSearch", 16}, {"WebFetch", 10}}},
		{"a repeated term counts twice", "web web", "keywords", []hit{{"WebSearch", 32}, {"WebFetch", 20}}},
		{"MCP name part plus description", "slack", "keywords", []hit{{"mcp__slack__send_message", 14}, {"mcp__slack__list_channels", 12}}},
		{"two terms in name and description", "github issue", "keywords", []hit{
			{"mcp__github__create_issue", 28}, {"mcp__github__list_issues", 18}, {"mcp__github__create_pull_request", 12}}},
		{"required term", "+slack send", "keywords", []hit{{"mcp__slack__send_message", 28}, {"mcp__slack__list_channels", 12}}},
		{"required term satisfied by the description only", "+repository issue", "keywords", []hit{
			{"mcp__github__create_issue", 16}, {"mcp__github__list_issues", 8}}},
		{"exact name path, any case", "TASKLIST", "exact", []hit{{"TaskList", 0}}},
		{"exact name path trims", "  webfetch\t", "exact", []hit{{"WebFetch", 0}}},
		{"exact name path reaches tools that are not deferred", "read", "exact", []hit{{"Read", 0}}},
		{"MCP prefix path in pool order", "mcp__github", "prefix", []hit{
			{"mcp__github__create_issue", 0}, {"mcp__github__create_pull_request", 0}, {"mcp__github__list_issues", 0}}},
		{"full-name fallback", "create_issue", "keywords", []hit{{"mcp__github__create_issue", 3}}},
		{"full-name fallback without separators", "sendmessage", "keywords", []hit{{"mcp__slack__send_message", 3}}},
		{"ties keep pool order", "list", "keywords", []hit{
			{"mcp__github__list_issues", 14}, {"mcp__slack__list_channels", 14}, {"TaskList", 12}}},
		{"substring of a name part", "note", "keywords", []hit{{"NotebookEdit", 5}}},
		{"alwaysLoad MCP tool never returned by keywords", "jira ticket", "keywords", []hit{}},
		{"c++ is matched literally: no word boundary after ++ before a space", "c++", "keywords", []hit{}},
		{"mcp__ alone is a keyword query", "mcp__", "keywords", []hit{}},
		{"prefix with no match falls through to keywords", "mcp__nothing", "keywords", []hit{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := search(t, s, tc.query, 0)
			assert.Equal(t, tc.want, hits(res))
			assert.Equal(t, tc.form, res.Form)
			assert.Equal(t, tc.query, res.Query)
			assert.Equal(t, 10, res.TotalDeferredTools)
		})
	}
}

func TestSelect(t *testing.T) {
	r := specPool(t)
	require.NoError(t, r.Register(
		Tool{Name: "Grep", Aliases: []string{"Search"}},
		Tool{Name: "CaseA", ShouldDefer: true}, Tool{Name: "casea", ShouldDefer: true},
	))
	s := NewSearcher(r, nil)
	for _, tc := range []struct {
		name, query string
		want        []string
		notFound    []string
	}{
		{"the issue's case", "select:Read,WebFetch,Nope", []string{"Read", "WebFetch"}, []string{"Nope"}},
		{"prefix in any case, pieces trimmed, empties dropped", "SeLeCt: WebFetch , ,TaskList,", []string{"WebFetch", "TaskList"}, nil},
		{"request order, no duplicates", "select:TaskList,WebFetch,TaskList", []string{"TaskList", "WebFetch"}, nil},
		{"non-deferred and alwaysLoad tools are returned", "select:mcp__jira__create_ticket,Read", []string{"mcp__jira__create_ticket", "Read"}, nil},
		{"case-insensitive fallback when unique", "select:webfetch,TASKLIST", []string{"WebFetch", "TaskList"}, nil},
		{"ambiguous case-insensitive name is not found", "select:CASEA", nil, []string{"CASEA"}},
		{"exact case wins over ambiguity", "select:casea", []string{"casea"}, nil},
		{"alias", "select:Search", []string{"Grep"}, nil},
		{"max_results does not apply", "select:Read,WebFetch,TaskList,NotebookEdit,WebSearch,CodeRunner", []string{"Read", "WebFetch", "TaskList", "NotebookEdit", "WebSearch", "CodeRunner"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := search(t, s, tc.query, 2)
			assert.Equal(t, "select", res.Form)
			if tc.want == nil {
				tc.want = []string{}
			}
			assert.Equal(t, tc.want, matchNames(res))
			assert.Equal(t, tc.notFound, res.NotFound)
		})
	}
	for _, q := range []string{" select:Read", "select:Read\nWebFetch", "select:", "selec:Read"} {
		assert.NotEqual(t, "select", search(t, s, q, 0).Form, "%q is not a select query", q)
	}
}

// After the exact and case-insensitive lookups, a name that matches one
// tool with '_', '-' and '.' taken as one character loads it, with a note;
// one that matches several, or only tools out of scope, is not found.
func TestSelectSeparatorFallback(t *testing.T) {
	r := specPool(t)
	require.NoError(t, r.Register(
		Tool{Name: "mcp__todo__add-task", Server: "todo"},
		Tool{Name: "a.b_c", ShouldDefer: true}, Tool{Name: "a-b.c", ShouldDefer: true},
		Tool{Name: "x_y", ShouldDefer: true}, Tool{Name: "X-Y2", ShouldDefer: true},
	))
	note := func(asked, name string) string {
		return "select: no tool is named " + asked + "; " + name + ` was loaded, the one tool whose name differs from it only in "_", "-" or "." (or case).`
	}
	for _, tc := range []struct {
		name, query string
		scope       *Scope
		want        []string
		notFound    []string
		notes       []string
	}{
		{name: "the issue's case", query: "select:mcp__todo__add_task", want: []string{"mcp__todo__add-task"},
			notes: []string{note("mcp__todo__add_task", "mcp__todo__add-task")}},
		{name: "separators and case", query: "select:MCP__TODO__ADD.TASK,Read", want: []string{"mcp__todo__add-task", "Read"},
			notes: []string{note("MCP__TODO__ADD.TASK", "mcp__todo__add-task")}},
		{name: "ambiguous is not found", query: "select:a_b_c", want: []string{}, notFound: []string{"a_b_c"}},
		{name: "one character for one character", query: "select:mcp__todo__addtask", want: []string{}, notFound: []string{"mcp__todo__addtask"}},
		{name: "exact names need no note", query: "select:x_y", want: []string{"x_y"}},
		{name: "unique within the scope", query: "select:a_b_c", scope: &Scope{Allow: []string{"a-b.c"}}, want: []string{"a-b.c"},
			notes: []string{note("a_b_c", "a-b.c")}},
		{name: "nothing out of scope", query: "select:mcp__todo__add_task", scope: &Scope{Allow: []string{"Read"}}, want: []string{}, notFound: []string{"mcp__todo__add_task"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := search(t, NewSearcher(r, &SearchOptions{Scope: tc.scope}), tc.query, 0)
			assert.Equal(t, tc.want, matchNames(res), "select %q", tc.query)
			assert.Equal(t, tc.notFound, res.NotFound, "select %q", tc.query)
			assert.Equal(t, tc.notes, res.Notes, "select %q", tc.query)
		})
	}
}

func TestSelectSuggestions(t *testing.T) {
	s := NewSearcher(specPool(t), nil)
	res := search(t, s, "select:web_fetch,WebFetchh,mcp__github__create_issues,Zzz", 0)
	assert.Equal(t, []string{"web_fetch", "WebFetchh", "mcp__github__create_issues", "Zzz"}, res.NotFound)
	assert.Equal(t, map[string][]string{
		"web_fetch":                  {"WebFetch"},
		"WebFetchh":                  {"WebFetch"},
		"mcp__github__create_issues": {"mcp__github__create_issue", "mcp__github__list_issues"},
	}, res.Suggestions)
	assert.Contains(t, string(res.JSON()), `"suggestions":{"WebFetchh":["WebFetch"]`)
}

func TestExactNamePrefersDeferredTools(t *testing.T) {
	r, err := NewRegistry(nil, Tool{Name: "Foo"}, Tool{Name: "foo", ShouldDefer: true}, Tool{Name: "Bar"}, Tool{Name: "bar"})
	require.NoError(t, err)
	s := NewSearcher(r, nil)
	assert.Equal(t, []string{"foo"}, matchNames(search(t, s, "FOO", 0)), "the deferred tool wins over an earlier tool in pool order")
	assert.Equal(t, []string{"Bar"}, matchNames(search(t, s, "BAR", 0)), "with none deferred, the first in pool order")
}

func TestOnlyDeferredToolsAreKeywordSearched(t *testing.T) {
	s := NewSearcher(specPool(t), nil)
	res := search(t, s, "file disk", 0)
	assert.Empty(t, res.Matches, "Read is not deferred: keywords never return it")
}

func TestMaxResults(t *testing.T) {
	var r Registry
	for i := range 30 {
		require.NoError(t, r.Register(Tool{Name: "mcp__s__tool" + string(rune('a'+i%26)) + strings.Repeat("x", i/26), Description: "thing"}))
	}
	s := NewSearcher(&r, nil)
	assert.Len(t, search(t, s, "thing", 0).Matches, defaultMaxResults)
	assert.Len(t, search(t, s, "thing", 7).Matches, 7)
	assert.Len(t, search(t, s, "mcp__s__", 0).Matches, defaultMaxResults, "max_results applies to the MCP prefix path")
	res := search(t, s, "thing", 25)
	assert.Len(t, res.Matches, defaultMaxResultsCap)
	assert.Equal(t, []string{"max_results 25 was lowered to the limit 20"}, res.Notes)
	_, err := s.Search("thing", -1)
	require.ErrorIs(t, err, ErrInvalidQuery)

	s8 := NewSearcher(&r, &SearchOptions{MaxResults: 8, MaxResultsCap: 10})
	assert.Len(t, search(t, s8, "thing", 0).Matches, 8)
	assert.Len(t, search(t, s8, "thing", 12).Matches, 10)
}

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

// randomText returns a generator of texts of n pieces drawn from alphabet.
func randomText(rng *rand.Rand, alphabet ...string) func(n int) string {
	return func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
}

// TestHasWordEqualsRegexp checks hasWord against Go's regexp \b (ASCII word
// characters, as in JavaScript) on random texts and terms.
func TestHasWordEqualsRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := randomText(rng, "a", "b", "_", "1", " ", "-", "+", ".", "é", "(", "ab", "c++")
	for range 20000 {
		text, term := gen(rng.IntN(12)), gen(1+rng.IntN(3))
		want := regexp.MustCompile(`\b` + regexp.QuoteMeta(term) + `\b`).MatchString(text)
		require.Equal(t, want, hasWord(text, term), "hasWord(%q, %q)", text, term)
	}
}

// TestTermRunsAreIndexed checks what the keyword index relies on: where
// \bterm\b matches a text, every run of the term is one of the text's
// runs (textRuns), so the tools that have them all are the only
// candidates; and for a term of one run, being one of the text's runs is
// the same as matching.
func TestTermRunsAreIndexed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	gen := randomText(rng, "a", "b", "_", "1", " ", "-", "+", ".", "é", "(", "ab", "c++", "--", "\u00a0", "\x00")
	oneRunTerms := 0
	for range 50000 {
		text, term := gen(rng.IntN(12)), gen(1+rng.IntN(3))
		if words.TrimSpace(term) != term || len(words.Fields(term)) != 1 {
			continue // terms hold no whitespace
		}
		runs := map[string]bool{}
		textRuns(text, func(r string) { runs[r] = true })
		match := hasWord(text, term)
		all := true
		termRuns(term, func(r string) { all = all && runs[r] })
		if match {
			require.True(t, all, "hasWord(%q, %q) but a run of the term is not one of the text's runs %q", text, term, runs)
		}
		if oneRun(term) {
			oneRunTerms++
			require.Equal(t, match, runs[term], "hasWord(%q, %q) against the runs %q", text, term, runs)
		}
	}
	assert.Greater(t, oneRunTerms, 5000)
}

// TestLowerTextEqualsLowered checks that a description kept as it is and
// compared with ASCII case folding (an ASCII text) answers every word
// question as its lowercased copy would, and yields the same words.
func TestLowerTextEqualsLowered(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gen := randomText(rng, "a", "B", "b", "A", "_", "1", " ", "-", "+", ".", "é", "É", "(", "aB", "C++", "İ", "K", "Σ")
	runs := func(lt lowerText) []string {
		var out []string
		lt.runs(func(w string) { out = append(out, w) })
		return out
	}
	folded := 0
	for range 50000 {
		s, term := gen(rng.IntN(14)), words.Lower(gen(1+rng.IntN(3)))
		lt := newText(s)
		if lt.fold {
			folded++
		}
		low := words.Lower(s)
		require.Equal(t, hasWord(low, term), lt.has(term), "newText(%q).has(%q)", s, term)
		var want []string
		textRuns(low, func(w string) { want = append(want, w) })
		require.Equal(t, want, runs(lt), "newText(%q).runs", s)
	}
	assert.Greater(t, folded, 1000, "the ASCII (folded) case is exercised")
	assert.Less(t, folded, 49000, "the non-ASCII (lowered) case is exercised")
	assert.Equal(t, lowerText{s: "Create an Issue", fold: true}, newText("Create an Issue"), "an ASCII text is not copied")
	assert.Equal(t, lowerText{s: "créer"}, newText("Créer"))
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

func TestDescriptionAndSchemaInMatches(t *testing.T) {
	r, err := NewRegistry(nil,
		Tool{Name: "A", Description: "Alpha tool.", InputSchema: json.RawMessage("{\n  \"type\": \"object\"\n}"), ShouldDefer: true},
		Tool{Name: "B", Description: "Beta tool.", ShouldDefer: true},
	)
	require.NoError(t, err)
	res := search(t, NewSearcher(r, nil), "select:A,B", 0)
	require.Len(t, res.Matches, 2)
	assert.Equal(t, `{"type":"object"}`, string(res.Matches[0].Schema), "schemas are compacted")
	assert.Equal(t, `{"type":"object"}`, string(res.Matches[1].Schema), "a missing schema is an empty object schema")
	assert.Equal(t, "Alpha tool.", res.Matches[0].Description)
	assert.True(t, res.Matches[0].Deferred)
}

// TestCaseOnlyDuplicates: tools whose names differ only in case are all
// kept; the exact-name form picks the first in pool order (as Claude Code
// does), select: finds each by its exact name, and an ambiguous
// case-insensitive name is not found, with every candidate suggested.
func TestCaseOnlyDuplicates(t *testing.T) {
	var r Registry
	for _, n := range []string{"read", "Read", "READ"} {
		require.NoError(t, r.Register(Tool{Name: n, Description: "reads " + n, ShouldDefer: true}))
	}
	s := NewSearcher(&r, nil)
	res := search(t, s, "read", 0)
	assert.Equal(t, "exact", res.Form)
	assert.Equal(t, []string{"READ"}, matchNames(res), "the first in pool order")
	res = search(t, s, "select:read,Read,READ", 0)
	assert.Equal(t, []string{"read", "Read", "READ"}, matchNames(res), "select: finds each by its exact name")
	res = search(t, s, "select:rEaD", 0)
	assert.Empty(t, res.Matches)
	assert.Equal(t, []string{"rEaD"}, res.NotFound)
	assert.Equal(t, map[string][]string{"rEaD": {"READ", "Read", "read"}}, res.Suggestions, "the model is told which tools match ignoring case")
	assert.Equal(t, "No tool named rEaD (did you mean READ, Read, read?).", notFoundText(res.NotFound, res.Suggestions))
	require.Equal(t, 2, r.Remove("READ", "read"))
	res = search(t, s, "select:rEaD", 0)
	assert.Equal(t, []string{"Read"}, matchNames(res), "a unique case-insensitive match is found")
}
