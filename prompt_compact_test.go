package toolsearch

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// compactNames are the deferred tools of compactPool, sorted: three
// tools of no server, and MCP servers of 2, 40, 8 and 15 tools (fs,
// github, jira, slack).
func compactNames() []string {
	var names []string
	add := func(prefix string, n int) {
		for i := range n {
			names = append(names, prefix+"tool_"+strconv.Itoa(10+i))
		}
	}
	names = append(names, "NotebookEdit", "WebFetch", "WebSearch")
	add("mcp__fs__", 2)
	add("mcp__github__", 40)
	add("mcp__jira__", 8)
	add("mcp__slack__", 15)
	return names
}

func compactPool(t testing.TB) *Registry {
	t.Helper()
	var tools []Tool
	for _, n := range compactNames() {
		tools = append(tools, Tool{Name: n, Description: "Tool " + n + ".", ShouldDefer: true})
	}
	tools = append(tools, Tool{Name: "Read", Description: "Read a file."})
	r, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	return r
}

var (
	groupEntry = regexp.MustCompile(`^(mcp__[^_]+__)\* \((\d+) tools\)$`)
	moreEntry  = regexp.MustCompile(`^…and (\d+) more tools? not listed$`)
)

// countEntries returns the tools the entries stand for, and the groups
// and count lines among them.
func countEntries(t *testing.T, entries []string) (tools int, groups []string, more int) {
	t.Helper()
	for _, e := range entries {
		if m := groupEntry.FindStringSubmatch(e); m != nil {
			n, _ := strconv.Atoi(m[2])
			tools += n
			groups = append(groups, m[1])
			continue
		}
		if m := moreEntry.FindStringSubmatch(e); m != nil {
			n, _ := strconv.Atoi(m[1])
			tools += n
			more += n
			continue
		}
		tools++
	}
	return tools, groups, more
}

// blockEntries returns the entries of a block, and whether the note follows.
func blockEntries(t *testing.T, block string) (entries []string, noted bool) {
	t.Helper()
	body, after, ok := strings.Cut(block, blockClose)
	require.True(t, ok, "the block closes: %q", block)
	body, ok = strings.CutPrefix(body, blockOpen+"\n")
	require.True(t, ok, "the block opens: %q", block)
	return strings.Split(strings.TrimSuffix(body, "\n"), "\n"), after == "\n\n"+compactNote
}

func TestCompactListingFitsAsIs(t *testing.T) {
	names := compactNames()
	for _, c := range []struct {
		name string
		part listPart
		text string
	}{
		{"section", sectionPart(names), renderSection(names)},
		{"block", blockPart(names), renderBlock(names)},
	} {
		_, ok := compactListing([]listPart{c.part}, "", len(c.text))
		assert.False(t, ok, "%s: a budget of its own length keeps the text as it is", c.name)
		_, ok = compactListing([]listPart{c.part}, "", len(c.text)-1)
		assert.True(t, ok, "%s: one byte less makes it compact", c.name)
	}
	added, gone := names[:10], goneTools{disconnected: names[10:12], removed: names[12:13], loaded: names[13:15]}
	full := deltaText(added, gone)
	assert.Equal(t, full, compactDelta(added, gone, len(full)), "a delta within the budget is the delta")
	assert.Equal(t, full, compactDelta(added, gone, 0), "budget 0: no bound")
	assert.NotEqual(t, full, compactDelta(added, gone, len(full)-1))
}

// TestCompactGroupsLargestFirst: the servers that save the most bytes are
// grouped first, only as many as needed; smaller ones stay listed.
func TestCompactGroupsLargestFirst(t *testing.T) {
	names := compactNames()
	full := renderBlock(names)
	text, ok := compactListing([]listPart{blockPart(names)}, "", len(full)-1)
	require.True(t, ok)
	entries, noted := blockEntries(t, text)
	assert.True(t, noted, "the note follows the block")
	tools, groups, more := countEntries(t, entries)
	assert.Equal(t, []string{"mcp__github__"}, groups, "github, the largest, is grouped alone: it is enough")
	assert.Contains(t, entries, "mcp__github__* (40 tools)")
	assert.Contains(t, entries, "mcp__slack__tool_10", "slack stays listed")
	assert.Zero(t, more)
	assert.Equal(t, len(names), tools, "every tool is accounted for")

	// The budget of the text with every group made: all four, and no count.
	all := len(full) + 2 + len(compactNote)
	gs := serverGroups([]listPart{blockPart(names)})
	require.Len(t, gs, 4)
	for i, g := range gs {
		all -= g.saving
		if i > 0 {
			assert.GreaterOrEqual(t, gs[i-1].saving, g.saving, "largest saving first")
		}
	}
	text, ok = compactListing([]listPart{blockPart(names)}, "", all)
	require.True(t, ok)
	assert.Len(t, text, all)
	entries, _ = blockEntries(t, text)
	_, groups, more = countEntries(t, entries)
	assert.Equal(t, []string{"mcp__fs__", "mcp__github__", "mcp__jira__", "mcp__slack__"}, groups, "all four grouped, in name order")
	assert.Zero(t, more)
	assert.Equal(t, []string{"NotebookEdit", "WebFetch", "WebSearch"}, entries[:3], "names of no server stay listed")

	text, _ = compactListing([]listPart{blockPart(names)}, "", all-1)
	entries, _ = blockEntries(t, text)
	_, _, more = countEntries(t, entries)
	assert.Positive(t, more, "one byte less: grouping is not enough, a count")
}

// TestCompactWithinBudget checks, for every budget, that the text is at
// most the budget (unless its fixed sentences alone are longer), that
// every tool is accounted for, and that it is deterministic.
func TestCompactWithinBudget(t *testing.T) {
	names := compactNames()
	fixedOnly, _ := compactListing([]listPart{blockPart(names)}, "", 1)
	entries, _ := blockEntries(t, fixedOnly)
	assert.Equal(t, []string{moreText(len(names))}, entries, "budget 1: only the count")
	for budget := 1; budget <= len(renderBlock(names))+10; budget++ {
		for _, part := range []listPart{blockPart(names), sectionPart(names)} {
			text, ok := compactListing([]listPart{part}, "", budget)
			if !ok {
				continue
			}
			again, _ := compactListing([]listPart{part}, "", budget)
			require.Equal(t, text, again, "budget %d: deterministic", budget)
			if len(text) > budget {
				fixed, _ := compactListing([]listPart{part}, "", 1)
				require.Equal(t, fixed, text, "budget %d: over it only with the fixed sentences alone", budget)
			}
			var es []string
			if part.sep == "\n" {
				es, _ = blockEntries(t, text)
			} else {
				body, _, _ := strings.Cut(strings.TrimPrefix(text, sectionHeader+"\n"), "\n\n")
				es = strings.Split(body, ", ")
			}
			tools, _, _ := countEntries(t, es)
			require.Equal(t, len(names), tools, "budget %d: every tool is listed, grouped or counted: %q", budget, text)
		}
	}
}

// TestCompactCountsWhatItLeavesOut: when grouping is not enough, the
// entries that fit are kept in order and the rest are counted.
func TestCompactCountsWhatItLeavesOut(t *testing.T) {
	names := compactNames()
	text, ok := compactListing([]listPart{blockPart(names)}, "", 120+len(compactNote))
	require.True(t, ok)
	entries, _ := blockEntries(t, text)
	tools, _, more := countEntries(t, entries)
	assert.Equal(t, len(names), tools)
	assert.Positive(t, more)
	assert.Equal(t, "NotebookEdit", entries[0], "kept in order from the first")
	assert.Regexp(t, moreEntry, entries[len(entries)-1], "the count ends the list")
	assert.LessOrEqual(t, len(text), 120+len(compactNote))
	assert.Equal(t, "…and 1 more tool not listed", moreText(1))
}

// TestCompactDelta: a delta of a server with many changes groups too, in
// each list, and a removed list that does not fit still says how many.
func TestCompactDelta(t *testing.T) {
	names := compactNames()
	gone := goneTools{disconnected: names[3:5], removed: []string{"WebFetch"}}
	added := names[5:] // github, jira, slack
	full := deltaText(added, gone)
	text := compactDelta(added, gone, len(full)-1)
	assert.Contains(t, text, deltaAdded+"\nmcp__github__* (40 tools)\nmcp__jira__tool_10")
	assert.Contains(t, text, deltaRemoved+"\nmcp__fs__tool_10\nmcp__fs__tool_11", "the small list stays as it was")
	assert.True(t, strings.HasSuffix(text, "\n\n"+compactNote))

	tight := compactDelta(added, gone, 500+len(compactNote))
	assert.LessOrEqual(t, len(tight), 500+len(compactNote))
	assert.Contains(t, tight, deltaRemoved+"\n")
	assert.Contains(t, tight, deltaDropped+"\n")
	total := 0
	for _, p := range strings.Split(strings.TrimSuffix(tight, "\n\n"+compactNote), "\n\n") {
		_, body, _ := strings.Cut(p, "\n")
		n, _, _ := countEntries(t, strings.Split(body, "\n"))
		total += n
	}
	assert.Equal(t, len(added)+3, total, "every tool of every list is accounted for: %s", tight)
}

func TestCompactDelta332(t *testing.T) {
	names := compactNames()
	removed := []string{"WebFetch", "mcp__fs__tool_10", "mcp__fs__tool_11"}
	full := cc332Delta(names[5:], removed)
	assert.Equal(t, full, compactDelta332(names[5:], removed, len(full)))
	assert.Equal(t, full, compactDelta332(names[5:], removed, 0))
	text := compactDelta332(names[5:], removed, len(full)-1)
	assert.Contains(t, text, cc332Added+"\nmcp__github__* (40 tools)\n")
	assert.True(t, strings.HasSuffix(text, compactNote+"\n\n"+cc332Ambient), "the ambient paragraph ends it")

	for _, m := range []ModelTraits{{}, {SystemMessages: true}} {
		got, _ := announcement332(names, nil, m, 400+len(compactNote))
		assert.LessOrEqual(t, len(got), 400+len(compactNote), "the whole text, <system-reminder> lines too (%+v)", m)
		assert.Contains(t, got, compactNote)
	}
}

func TestServerPrefix(t *testing.T) {
	for name, want := range map[string]string{
		"mcp__github__create_issue": "mcp__github__",
		"mcp__a__b__c":              "mcp__a__",
		"mcp__github":               "",
		"mcp____x":                  "",
		"Read":                      "",
		"mcp_x__y":                  "",
	} {
		assert.Equal(t, want, serverPrefix(name), name)
	}
}

// TestCompactSession: a Session with MaxListingBytes gives the compact
// section, block and deltas; ToolSearch's description says how to reach
// grouped tools; the prefix form and select: reach every one; a result
// without matches says how.
func TestCompactSession(t *testing.T) {
	reg := compactPool(t)
	names := compactNames()
	budget := 330 + len(compactNote)
	s := NewSession(reg, &SessionOptions{Search: SearchOptions{MaxListingBytes: budget}})
	a := s.Announce()
	assert.True(t, a.Full)
	assert.Equal(t, names, a.Added, "Added names every tool, whatever the text")
	assert.LessOrEqual(t, len(a.Text), budget)
	assert.Contains(t, a.Text, "mcp__github__* (40 tools)")
	assert.LessOrEqual(t, len(s.SystemPromptSection()), budget)
	assert.Contains(t, s.SystemPromptSection(), "mcp__github__* (40 tools)")
	assert.True(t, strings.HasSuffix(s.searcher.ToolDefinition().Description, compactHintQuery))

	res, err := s.searcher.Search("mcp__github__tool_1", 20)
	require.NoError(t, err)
	assert.Len(t, res.Matches, 10, "the prefix form reaches the grouped tools (tool_10 … tool_19)")
	res, err = s.searcher.Search("mcp__github__", 20)
	require.NoError(t, err)
	assert.Len(t, res.Matches, 20, "the server's prefix: up to max_results of them")
	res, err = s.searcher.Search("select:mcp__github__tool_21", 0)
	require.NoError(t, err)
	assert.Len(t, res.Matches, 1, "select: reaches a grouped tool")
	res, err = s.searcher.Search("zzzz", 0)
	require.NoError(t, err)
	assert.Empty(t, res.Matches)
	assert.Equal(t, []string{unlistedNote}, res.Notes, "no match: how to reach the tools not listed")

	require.Equal(t, 5, reg.Remove(names[5:10]...))
	d := s.Announce()
	assert.False(t, d.Full)
	assert.Equal(t, deltaText(nil, goneTools{removed: names[5:10]}), d.Text, "within the budget: the delta as it is")
	require.Equal(t, 35, reg.Remove(names[10:45]...))
	d = s.Announce()
	assert.Equal(t, deltaDropped+"\nmcp__github__* (35 tools)\n\n"+compactNote, d.Text, "a server's many changes: grouped")
	assert.Equal(t, names[10:45], d.Removed, "Removed names every tool, whatever the text")

	wide := NewSearcher(reg, &SearchOptions{MaxListingBytes: 1 << 20})
	res, err = wide.Search("zzzz", 0)
	require.NoError(t, err)
	assert.Empty(t, res.Notes, "no note while the listing names every tool")
	assert.Equal(t, NewSearcher(reg, nil).SystemPromptSection(), wide.SystemPromptSection(), "within the budget: the section as it is")
}

func TestCompactDescriptionHint(t *testing.T) {
	reg := compactPool(t)
	assert.Equal(t, toolSearchDescription, NewSearcher(reg, nil).ToolDefinition().Description, "no budget: the description as it is")
	assert.Equal(t, toolSearchDescription, NewSearcher(reg, &SearchOptions{MaxListingBytes: -1}).ToolDefinition().Description, "negative: the default")
	assert.Equal(t, toolSearchDescription+compactHintQuery, NewSearcher(reg, &SearchOptions{MaxListingBytes: 100}).ToolDefinition().Description)
	assert.Equal(t, regexDescription+compactHintPattern, NewSearcher(reg, &SearchOptions{MaxListingBytes: 100, Strategy: RegexStrategy()}).ToolDefinition().Description)
	assert.Equal(t, cc332DescriptionReminder+compactHintQuery, NewSearcher(reg, &SearchOptions{MaxListingBytes: 100, Profile: ClaudeCode2_1_332}).ToolDefinition().Description)
}

func TestCompactGolden(t *testing.T) {
	reg := compactPool(t)
	budget := 330 + len(compactNote)
	s := NewSession(reg, &SessionOptions{Search: SearchOptions{MaxListingBytes: budget}})
	golden(t, "compact_section.txt", []byte(s.SystemPromptSection()))
	golden(t, "compact_block.txt", []byte(s.Announce().Text))
	golden(t, "compact_cut.txt", []byte(NewSession(reg, &SessionOptions{Search: SearchOptions{MaxListingBytes: 120 + len(compactNote)}}).Announce().Text))
	names := compactNames()
	golden(t, "compact_delta.txt", []byte(compactDelta(names[5:], goneTools{disconnected: names[3:5], removed: []string{"WebFetch"}}, 500+len(compactNote))))
	golden(t, "compact_cc332.txt", []byte(compactDelta332(names, []string{"WebFetch", "mcp__fs__tool_10"}, 1300)))
	def, err := json.MarshalIndent(s.searcher.ToolDefinition(), "", "  ")
	require.NoError(t, err)
	golden(t, "compact_toolsearch_definition.json", def)
}

// TestCompactScopedAndCC332: a scoped Session lists only its scope,
// compact too; a 2.1.332 Session's announcement stays within the budget,
// <system-reminder> lines included.
func TestCompactScopedAndCC332(t *testing.T) {
	reg := compactPool(t)
	names := compactNames()
	budget := 700
	scoped := NewSession(reg, &SessionOptions{Search: SearchOptions{MaxListingBytes: budget, Scope: &Scope{Allow: names[5:45]}}})
	a := scoped.Announce()
	assert.Equal(t, blockOpen+"\nmcp__github__* (40 tools)\n"+blockClose+"\n\n"+compactNote, a.Text, "github's forty, the scope, grouped")
	assert.Equal(t, names[5:45], a.Added)

	tight := NewSession(reg, &SessionOptions{Search: SearchOptions{MaxListingBytes: budget, Profile: ClaudeCode2_1_332}}).Announce()
	assert.Equal(t, cc332Reminder(cc332Added+"\n"+moreText(len(names))+"\n\n"+compactNote), tight.Text,
		"fixed sentences over the budget: only the count")
	budget = 1000
	s := NewSession(reg, &SessionOptions{Search: SearchOptions{MaxListingBytes: budget, Profile: ClaudeCode2_1_332}})
	a = s.Announce()
	assert.LessOrEqual(t, len(a.Text), budget)
	assert.True(t, strings.HasPrefix(a.Text, "<system-reminder>\n"+cc332Added+"\n"), a.Text)
	assert.Contains(t, a.Text, "mcp__github__* (40 tools)")
	assert.Equal(t, names, a.Added)
	res, err := s.searcher.Search("zzzz", 0)
	require.NoError(t, err)
	assert.Contains(t, res.Notes, unlistedNote, "2.1.332: the no-match note too")
}
