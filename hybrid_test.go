package toolsearch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
