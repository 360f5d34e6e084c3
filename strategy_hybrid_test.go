package toolsearch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch/internal/words"
)

func hybridSearch(t *testing.T, reg *Registry, q string) []string {
	t.Helper()
	res, err := NewSearcher(reg, &SearchOptions{Strategy: HybridStrategy()}).Search(q, 10)
	require.NoError(t, err, "Search(%q)", q)
	return matchNames(res)
}

func TestHybridRanking(t *testing.T) {
	reg, err := NewRegistry(nil,
		Tool{Name: "create_issue", Description: "Opens a ticket in the tracker.", ShouldDefer: true},
		Tool{Name: "list_tickets", Description: "Lists each issue in the tracker.", ShouldDefer: true},
		Tool{Name: "send_email", Description: "Sends an email message.", ShouldDefer: true},
		Tool{Name: "post_note", Description: "Posts a note.", ShouldDefer: true, InputSchema: []byte(`{"type":"object","properties":{"recipient_email":{"type":"string"}}}`)},
		Tool{Name: "read_file", Description: "Reads one file.", ShouldDefer: true},
		Tool{Name: "read_many_files", Description: "Reads several files.", ShouldDefer: true},
		Tool{Name: "paint", Description: "Paints the walls of the tracker room.", ShouldDefer: true},
		Tool{Name: "shopping_helper", Description: "Finds products.", ShouldDefer: true},
	)
	require.NoError(t, err)
	tests := []struct {
		name, query string
		want        []string
	}{
		{"a name match ranks above a description match", "issue", []string{"create_issue", "list_tickets"}},
		{"verb forms and plurals are normalised", "creating issues", []string{"create_issue", "list_tickets"}},
		{"arguments are a weak field", "email", []string{"send_email", "post_note"}},
		{"stop words do not match", "the ticket", []string{"list_tickets", "create_issue"}},
		{"a sentence finds the tool", "Could you please open a new ticket in our tracker for me?", []string{"create_issue", "list_tickets", "paint"}},
		{"names covered more fully rank first", "read file", []string{"read_file", "read_many_files"}},
		{"a word inside a name part counts", "shop", []string{"shopping_helper"}},
		{"required words filter", "+email note", []string{"post_note", "send_email"}},
		{"no match", "zebra", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := hybridSearch(t, reg, tt.query)
			if tt.want == nil {
				assert.Empty(t, got, "query %q", tt.query)
				return
			}
			assert.Equal(t, tt.want, got, "query %q", tt.query)
		})
	}
}

// Rare words count more than common ones: "tracker" is in three tools,
// "ticket" in one.
func TestHybridIDF(t *testing.T) {
	reg, err := NewRegistry(nil,
		Tool{Name: "a_tool", Description: "tracker tracker", ShouldDefer: true},
		Tool{Name: "b_tool", Description: "ticket", ShouldDefer: true},
		Tool{Name: "c_tool", Description: "tracker", ShouldDefer: true},
		Tool{Name: "d_tool", Description: "tracker", ShouldDefer: true},
	)
	require.NoError(t, err)
	got := hybridSearch(t, reg, "tracker ticket")
	require.NotEmpty(t, got)
	assert.Equal(t, "b_tool", got[0])
}

func TestHybridRules(t *testing.T) {
	reg, err := NewRegistry(nil,
		Tool{Name: "mcp__github__create_issue", Description: "Creates an issue.", SearchHint: "bug report", Server: "github",
			InputSchema: []byte(`{"type":"object","properties":{"title":{"type":"string","description":"Issue title"}}}`)},
		Tool{Name: "mcp__github__subissues", Description: "Sub-tasks.", Server: "github"},
	)
	require.NoError(t, err)
	res, err := NewSearcher(reg, &SearchOptions{Strategy: HybridStrategy()}).Search("issue bug", 10)
	require.NoError(t, err)
	require.Len(t, res.Matches, 2)
	assert.Equal(t, RulePartExact|RuleDescription|RuleHint|RuleArgument, res.Matches[0].Rules)
	assert.Equal(t, RulePartSubstring, res.Matches[1].Rules)
	assert.Greater(t, res.Matches[0].Score, res.Matches[1].Score)
}

// A query token is split as names are, keeping its joined form: camelCase,
// snake_case, kebab-case and dotted names find the tool, and the tool
// whose adjacent name words join into the token ranks first.
func TestHybridNameShapes(t *testing.T) {
	reg, err := NewRegistry(nil,
		Tool{Name: "mcp__github__list_pull_requests", Server: "github", Description: "Lists pull requests."},
		Tool{Name: "mcp__github__list_requests", Server: "github", Description: "Lists requests to pull."},
		Tool{Name: "mcp__slack__send_message", Server: "slack", Description: "Sends a message to a channel."},
		Tool{Name: "mcp__mail__send", Server: "mail", Description: "Sends a message by e-mail."},
		Tool{Name: "mcp__todo__add-task", Server: "todo", Description: "Adds a task."},
		Tool{Name: "mcp__git__git_hub_sync", Server: "git", Description: "Syncs with a GitHub remote."},
	)
	require.NoError(t, err)
	for _, tc := range []struct{ query, first string }{
		{"listPullRequests", "mcp__github__list_pull_requests"},
		{"list_pull_requests", "mcp__github__list_pull_requests"},
		{"list-pull-requests", "mcp__github__list_pull_requests"},
		{"list.pull.requests", "mcp__github__list_pull_requests"},
		{"listpullrequests", "mcp__github__list_pull_requests"}, // the full-name rule alone
		{"sendSlackMessage", "mcp__slack__send_message"},
		{"addTask", "mcp__todo__add-task"},
		{"slack_send_mesage", "mcp__slack__send_message"}, // one typo
		{"sendmessage", "mcp__slack__send_message"},
	} {
		got := hybridSearch(t, reg, tc.query)
		require.NotEmpty(t, got, "query %q", tc.query)
		assert.Equal(t, tc.first, got[0], "query %q: %v", tc.query, got)
	}
	res, err := NewSearcher(reg, &SearchOptions{Strategy: HybridStrategy()}).Search("listpullrequests", 1)
	require.NoError(t, err)
	assert.Equal(t, RuleFullName, res.Matches[0].Rules, "the full-name rule fired")

	x := HybridStrategy().Index(corpusOf(reg, reg.load())).(*hybridIndex)
	words := func(q string) (out []string) {
		for _, t := range x.terms(q) {
			out = append(out, t.word)
		}
		return out
	}
	assert.Equal(t, []string{"list", "pull", "requests", "listpullrequests"}, words("listPullRequests"))
	assert.Equal(t, []string{"github", "sync"}, words("GitHub sync"), "a token some tool has as a word stays whole")
	assert.Equal(t, []string{"e", "mail", "email", "the"}, words("e-mail the"), "no tool has email: split; stop words come last")
	assert.Equal(t, []string{"the", "a"}, words("the a"), "only stop words: they are the terms")
}

// Stop words count a little, never alone: a tool that matches only them
// is not a hit.
func TestHybridStopWords(t *testing.T) {
	reg, err := NewRegistry(nil,
		Tool{Name: "alpha", Description: "Do the thing very well.", ShouldDefer: true},
		Tool{Name: "beta", Description: "Do the thing.", ShouldDefer: true},
		Tool{Name: "gamma", Description: "Very nice.", ShouldDefer: true},
	)
	require.NoError(t, err)
	assert.Equal(t, []string{"alpha", "beta"}, hybridSearch(t, reg, "the thing very"), "very breaks the tie; gamma matches only stop words")
	assert.ElementsMatch(t, []string{"alpha", "gamma"}, hybridSearch(t, reg, "very"), "a query of stop words only")
}

func TestOneEdit(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"message", "mesage", true}, {"message", "messsage", true}, {"message", "messagf", true},
		{"message", "emssage", true}, {"message", "message", false}, {"message", "mesasge", true},
		{"message", "massege", false}, {"message", "messages2", false}, {"abcd", "abdc", true},
	} {
		assert.Equal(t, tc.want, oneEdit(tc.a, tc.b), "oneEdit(%q, %q)", tc.a, tc.b)
		assert.Equal(t, tc.want, oneEdit(tc.b, tc.a), "oneEdit(%q, %q)", tc.b, tc.a)
	}
}

// A query's terms keep each stem once, where it first comes, required if
// any of its occurrences was, the stop words after the others; in short
// queries and in long ones alike.
func TestHybridTermsKeepEachStemOnce(t *testing.T) {
	known := func(string) bool { return false }
	stems := func(ts []hybridTerm) (out []string) {
		for _, x := range ts {
			s := x.stem
			if x.required {
				s = "+" + s
			}
			if x.stop {
				s += "/stop"
			}
			out = append(out, s)
		}
		return out
	}
	require.Equal(t, []string{"+list", "issu", "the/stop"},
		stems(hybridTerms("list the Issues +list issue list", known, true)))
	require.Equal(t, []string{"+list", "issu"}, stems(hybridTerms("list the Issues +list issue list", known, false)))

	var long, want []string
	for i := range 30 {
		w := fmt.Sprintf("zq%c%c", 'a'+i%26, 'a'+i/26)
		long = append(long, w, strings.ToUpper(w))
		want = append(want, words.Stem(w))
	}
	long = append(long, "+zqda", "+zqdb", "for")
	want[3], want[29] = "+"+want[3], "+"+want[29]
	want = append(want, "for/stop")
	require.Equal(t, want, stems(hybridTerms(strings.Join(long, " "), known, true)))
}
