package toolsearch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
			assert.Equal(t, FormSelect, res.Form)
			if tc.want == nil {
				tc.want = []string{}
			}
			assert.Equal(t, tc.want, matchNames(res))
			assert.Equal(t, tc.notFound, res.NotFound)
		})
	}
	for _, q := range []string{" select:Read", "select:Read\nWebFetch", "select:", "selec:Read"} {
		assert.NotEqual(t, FormSelect, search(t, s, q, 0).Form, "%q is not a select query", q)
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
		return "select: no tool is named \"" + asked + "\"; " + name + ` was loaded, the one tool whose name differs from it only in "_", "-" or "." (or case).`
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
		"mcp__github__create_issues": {"mcp__github__create_issue", "mcp__github__list_issues", "mcp__github__create_pull_request"},
	}, res.Suggestions, "the server's tools sharing a word (create, issue) first, most shared first, then the close names")
	assert.Contains(t, string(res.JSON()), `"suggestions":{"WebFetchh":["WebFetch"]`)
}

// A near-miss name of an MCP tool suggests the tools of its server whose
// names share its words before closer spellings of other names.
func TestSelectSuggestionsSameServer(t *testing.T) {
	reg, err := NewRegistry(nil,
		NewMCPTool("everything", "echo", "Echo a message.", nil, nil),
		NewMCPTool("everything", "get_sum", "Add two numbers.", nil, nil),
		NewMCPTool("everything", "add", "Add two numbers.", nil, nil),
		NewMCPTool("math", "add_numbers", "Add numbers.", nil, nil),
	)
	require.NoError(t, err)
	s := NewSearcher(reg, nil)
	res := search(t, s, "select:mcp__everything__add_numbers,mcp__everything__sum,mcp__other__add", 0)
	assert.Equal(t, map[string][]string{
		"mcp__everything__add_numbers": {"mcp__everything__add"},                                                      // not echo, not another server's
		"mcp__everything__sum":         {"mcp__everything__get_sum", "mcp__everything__add", "mcp__everything__echo"}, // get_sum shares sum; then the close names
	}, res.Suggestions, "mcp__other__add: no tool of that server, none close")
}
