package toolsearch

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLocaleCompare: the order of node's "a".localeCompare("b") (root
// collation) on server patterns, as Claude Code sorts the servers it
// counts tools of.
func TestLocaleCompare(t *testing.T) {
	// node -e 'console.log(JSON.stringify(KEYS.sort((a,b)=>a.localeCompare(b))))', Node 20.20.
	want := []string{"mcp___x__*", "mcp__-x__*", "mcp__9__*", "mcp__a__*", "mcp__A__*", "mcp__a__b", "mcp__a_b__*",
		"mcp__a-b__*", "mcp__a.b__*", "mcp__a*__*", "mcp__a1__*", "mcp__aa__*", "mcp__ab__*", "mcp__aB__*", "mcp__Ab__*",
		"mcp__b__*", "mcp__B__*"}
	got := slices.Clone(want)
	for i := range got { // a fixed shuffle
		j := (i * 7) % len(got)
		got[i], got[j] = got[j], got[i]
	}
	slices.SortFunc(got, localeCompare)
	assert.Equal(t, want, got)
}

// TestDelta332 pins the announcement paragraphs of ClaudeCode2_1_332.
func TestDelta332(t *testing.T) {
	many := make([]string, 0, 40)
	for i := range 33 {
		many = append(many, fmt.Sprintf("mcp__github__tool_%02d", i))
	}
	many = append(many, "mcp__Slack__a", "mcp__slack__b", "mcp__slack__c", "mcp__x__only")
	slices.Sort(many)
	var b strings.Builder
	for _, c := range []struct {
		name           string
		added, removed []string
	}{
		{"added", []string{"Read", "WebFetch", "mcp__slack__send_message"}, nil},
		{"removed, MCP and others", nil, []string{"Legacy", "mcp__slack__send_message"}},
		{"added and removed", []string{"mcp__jira__create"}, []string{"mcp__slack__list_channels"}},
		{"more than 30 MCP tools removed", nil, many},
		{"nothing", nil, nil},
	} {
		fmt.Fprintf(&b, "== %s\n%s\n", c.name, cc332Delta(c.added, c.removed))
	}
	golden(t, "cc332_delta.txt", []byte(b.String()))
}

func TestAvailable332(t *testing.T) {
	assert.Equal(t, "Already available in this conversation: Read. Call it directly.", cc332Available([]string{"Read"}))
	assert.Equal(t, "Already available in this conversation: Read, Write. Call whichever you need directly.", cc332Available([]string{"Read", "Write"}))
	names := make([]string, 32)
	for i := range names {
		names[i] = fmt.Sprint("T", i)
	}
	got := cc332Available(names)
	assert.Contains(t, got, "T29, and 2 more. Call whichever you need directly.")
	assert.NotContains(t, got, "T30")
}
