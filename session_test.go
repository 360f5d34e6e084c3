package toolsearch

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Point 1: the tools to send are the loaded ones, ToolSearch, and the
// discovered ones (deferred-marked for tool references), in a fixed order.
func TestSessionTools(t *testing.T) {
	cases := []struct {
		name     string
		format   Format
		queries  []string
		want     []string
		deferred bool // discovered tools carry DeferLoading
	}{
		{"fresh conversation", FormatToolReference, nil,
			[]string{"Read", "mcp__jira__create_ticket", "ToolSearch"}, false},
		{"one discovery", FormatToolReference, []string{"select:WebFetch"},
			[]string{"Read", "mcp__jira__create_ticket", "ToolSearch", "WebFetch"}, true},
		{"discoveries listed in pool order, not discovery order", FormatToolReference,
			[]string{"select:mcp__slack__send_message", "select:WebSearch,NotebookEdit"},
			[]string{"Read", "mcp__jira__create_ticket", "ToolSearch", "NotebookEdit", "WebSearch", "mcp__slack__send_message"}, true},
		{"keyword discovery records every match", FormatInline, []string{"+slack send"},
			[]string{"Read", "mcp__jira__create_ticket", "ToolSearch", "mcp__slack__list_channels", "mcp__slack__send_message"}, false},
		{"selecting a loaded tool adds nothing", FormatInline, []string{"select:Read"},
			[]string{"Read", "mcp__jira__create_ticket", "ToolSearch"}, false},
		{"a search that finds nothing adds nothing", FormatFunctions, []string{"zzzz"},
			[]string{"Read", "mcp__jira__create_ticket", "ToolSearch"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSession(smallRegistry(t), &SessionOptions{Format: tc.format})
			for _, q := range tc.queries {
				sessionSearch(t, s, q)
			}
			defs := mustTools(t, s)
			assert.Equal(t, tc.want, toolNames(defs), "Tools() after %q", tc.queries)
			for _, d := range defs {
				isDisc := s.isDiscovered(d.Name)
				assert.Equal(t, isDisc && tc.deferred, d.DeferLoading, "DeferLoading of %s", d.Name)
				assert.True(t, json.Valid(d.InputSchema), "schema of %s", d.Name)
			}
		})
	}
}

func TestSessionToolsGolden(t *testing.T) {
	s := NewSession(smallRegistry(t), &SessionOptions{Format: FormatToolReference})
	sessionSearch(t, s, "select:mcp__slack__send_message")
	b, err := json.MarshalIndent(mustTools(t, s), "", "  ")
	require.NoError(t, err)
	checkGolden(t, "session/tools_tool_reference.json", append(b, '\n'))
}

func TestSessionCallContent(t *testing.T) {
	cases := []struct {
		name    string
		format  Format
		bridge  bool
		args    string
		isError bool
	}{
		{"tool references", FormatToolReference, false, `{"query":"slack message"}`, false},
		{"inline", FormatInline, false, `{"query":"select:WebFetch"}`, false},
		{"functions", FormatFunctions, false, `{"query":"select:WebFetch"}`, false},
		{"bridge renders references inline", FormatToolReference, true, `{"query":"select:WebFetch"}`, false},
		{"bad arguments", FormatInline, false, `{"q":"x"}`, true},
		{"no match", FormatToolReference, false, `{"query":"zzzz"}`, false},
		{"tool references, a name not found", FormatToolReference, false, `{"query":"select:WebFetch,Nope"}`, false},
		{"no match, a name not found", FormatToolReference, false, `{"query":"select:Nope"}`, false},
	}
	var out strings.Builder
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSession(smallRegistry(t), &SessionOptions{Format: tc.format, CallBridge: tc.bridge})
			content, after, isErr := handle(s, json.RawMessage(tc.args))
			assert.Equal(t, tc.isError, isErr, "isError for %s", tc.args)
			b, err := json.Marshal(content)
			require.NoError(t, err)
			fmt.Fprintf(&out, "== %s: %s\n%s\n", tc.name, tc.args, b)
			if after != nil {
				b, err := json.Marshal(after)
				require.NoError(t, err)
				fmt.Fprintf(&out, "after: %s\n", b)
			}
		})
	}
	checkGolden(t, "session/handle_tool_search.txt", []byte(out.String()))
}

// Point 3: compaction keeps the discovered set; a snapshot survives JSON
// and gives byte-identical tools; clear empties; disconnected tools drop
// out of Tools() and come back.
func TestSnapshotRestoreTools(t *testing.T) {
	reg := smallRegistry(t)
	s := NewSession(reg, &SessionOptions{Format: FormatToolReference})
	sessionSearch(t, s, "select:mcp__slack__send_message,WebFetch")
	s.Announce()
	before := toolsJSON(t, s)

	saved, err := json.Marshal(s.Snapshot())
	require.NoError(t, err)
	var st SessionState
	require.NoError(t, json.Unmarshal(saved, &st))
	r := NewSession(reg, &SessionOptions{Format: FormatToolReference})
	require.NoError(t, r.Restore(st))
	assert.Equal(t, string(before), string(toolsJSON(t, r)), "Tools() after Snapshot → JSON → Restore")
	assert.Equal(t, discovered(s), discovered(r))
	assert.Empty(t, r.Announce().Text, "restored announced set: nothing new to say")

	s.Compact()
	assert.Equal(t, string(before), string(toolsJSON(t, s)), "Tools() after Compact")
	a := s.Announce()
	assert.True(t, a.Full, "first announcement after Compact is full")
	assert.Contains(t, a.Text, blockOpen)

	require.NoError(t, s.Restore(SessionState{}))
	assert.Empty(t, discovered(s), "restoring the zero state empties the discovered set")
	assert.Equal(t, []string{"Read", "mcp__jira__create_ticket", "ToolSearch"}, toolNames(mustTools(t, s)))
	assert.True(t, s.Announce().Full, "first announcement after restoring the zero state is full")
}

func TestSnapshotJSON(t *testing.T) {
	s := NewSession(smallRegistry(t), nil)
	b, err := json.Marshal(s.Snapshot())
	require.NoError(t, err)
	assert.JSONEq(t, `{"discovered":[],"announced":null}`, string(b), "a fresh session")
	sessionSearch(t, s, "select:WebSearch,WebFetch")
	s.Announce()
	b, err = json.Marshal(s.Snapshot())
	require.NoError(t, err)
	assert.Equal(t, `{"discovered":["WebFetch","WebSearch"],"announced":["NotebookEdit","TaskList","TodoWrite","WebFetch","WebSearch","mcp__github__create_issue","mcp__github__create_pull_request","mcp__github__list_issues","mcp__slack__list_channels","mcp__slack__send_message"]}`, string(b))
}

func TestRestoreRejectsBadNames(t *testing.T) {
	s := NewSession(smallRegistry(t), nil)
	sessionSearch(t, s, "select:WebFetch")
	err := s.Restore(SessionState{Discovered: []string{"ok_name", "bad name", ""}})
	require.ErrorIs(t, err, ErrInvalidName)
	assert.Contains(t, err.Error(), `"bad name"`)
	assert.Equal(t, []string{"WebFetch"}, discovered(s), "a failed Restore changes nothing")
	require.NoError(t, s.Restore(SessionState{Discovered: []string{"NotRegistered"}}))
	assert.Equal(t, []string{"NotRegistered"}, discovered(s), "unregistered names are kept: the tool may come back")
}

func TestDisconnectedServerKeepsRecord(t *testing.T) {
	reg := smallRegistry(t)
	s := NewSession(reg, nil)
	sessionSearch(t, s, "select:mcp__slack__send_message,WebFetch")
	with := []string{"Read", "mcp__jira__create_ticket", "ToolSearch", "WebFetch", "mcp__slack__send_message"}
	require.Equal(t, with, toolNames(mustTools(t, s)))

	reg.SetServerStatus("slack", ServerDisconnected)
	assert.Equal(t, []string{"Read", "mcp__jira__create_ticket", "ToolSearch", "WebFetch"}, toolNames(mustTools(t, s)), "after slack disconnected")
	assert.Equal(t, []string{"WebFetch", "mcp__slack__send_message"}, discovered(s), "the record is kept")

	reg.SetServerStatus("slack", ServerConnected)
	assert.Equal(t, with, toolNames(mustTools(t, s)), "after slack reconnected")

	require.Equal(t, 1, reg.Remove("WebFetch"))
	assert.NotContains(t, toolNames(mustTools(t, s)), "WebFetch", "a removed tool is not sent")
	assert.Contains(t, discovered(s), "WebFetch")
}

// Point 5: the first announcement is full, later ones are deltas, and a
// compaction brings a full one back.
func TestAnnouncements(t *testing.T) {
	reg := smallRegistry(t)
	s := NewSession(reg, nil)
	var out strings.Builder
	step := func(label string, wantFull bool) Announcement {
		a := s.Announce()
		assert.Equal(t, wantFull, a.Full, "Full at %s", label)
		fmt.Fprintf(&out, "== %s (full=%v, added=%v, removed=%v)\n%s\n", label, a.Full, a.Added, a.Removed, a.Text)
		return a
	}
	first := step("first turn", true)
	assert.Equal(t, deferredBlock(NewSearcher(reg, nil)), first.Text, "full announcement is the deferred-tools block")
	assert.Empty(t, step("nothing changed", false).Text)

	reg.SetServerStatus("slack", ServerDisconnected)
	gone := step("slack disconnected", false)
	assert.Equal(t, []string{"mcp__slack__list_channels", "mcp__slack__send_message"}, gone.Removed)
	assert.Equal(t, deltaText(nil, goneTools{disconnected: gone.Removed}), gone.Text)

	require.NoError(t, setServerTools(reg, "linear", []Tool{{Name: "mcp__linear__create_issue", Description: "Create a Linear issue."}}))
	reg.SetServerStatus("slack", ServerConnected)
	back := step("slack back and linear connected", false)
	assert.Equal(t, []string{"mcp__linear__create_issue", "mcp__slack__list_channels", "mcp__slack__send_message"}, back.Added)

	s.Compact()
	full := step("after compaction", true)
	assert.Equal(t, deferredBlock(NewSearcher(reg, nil)), full.Text)
	checkGolden(t, "session/announcements.txt", []byte(out.String()))
}

func TestAnnounceOffWhenNothingDeferred(t *testing.T) {
	reg, err := NewRegistry(nil, Tool{Name: "Read", Description: "Read a file."})
	require.NoError(t, err)
	s := NewSession(reg, nil)
	assert.False(t, s.ToolSearchOffered(), "no deferred tool, no pending server")
	assert.Equal(t, Announcement{}, s.Announce())
	assert.Empty(t, s.SystemPromptSection())
	assert.Equal(t, []string{"Read"}, toolNames(mustTools(t, s)))
}

// Point 6: a pending server makes ToolSearch offered and is named in
// results; its tools join when it connects and leave when it disconnects.
func TestPendingServers(t *testing.T) {
	reg, err := NewRegistry(nil, Tool{Name: "Read", Description: "Read a file."})
	require.NoError(t, err)
	reg.SetServerStatus("jira", ServerPending)
	require.NoError(t, setServerTools(reg, "jira", []Tool{
		{Name: "mcp__jira__create_ticket", Description: "Create a Jira ticket."},
		{Name: "mcp__jira__search", Description: "Search Jira tickets."},
	}))
	s := NewSession(reg, &SessionOptions{Format: FormatToolReference})
	assert.Equal(t, []string{"Read", "ToolSearch"}, toolNames(mustTools(t, s)), "ToolSearch offered while jira is pending")
	first := s.Announce()
	assert.True(t, first.Full)
	assert.Empty(t, first.Added, "no deferred tool yet")

	res := sessionSearch(t, s, "jira ticket")
	assert.Equal(t, []string{"jira"}, res.PendingMCPServers)
	assert.Empty(t, res.Matches, "pending tools are not searched")
	content, _, _ := handle(s, json.RawMessage(`{"query":"jira ticket"}`))
	assert.Contains(t, content[0].Text, "Some MCP servers are still connecting: jira.")

	reg.SetServerStatus("jira", ServerConnected)
	a := s.Announce()
	assert.Equal(t, []string{"mcp__jira__create_ticket", "mcp__jira__search"}, a.Added, "delta names the tools that joined")
	res = sessionSearch(t, s, "jira ticket")
	assert.Empty(t, res.PendingMCPServers)
	assert.Equal(t, "mcp__jira__create_ticket", res.Matches[0].Name)
	assert.Contains(t, toolNames(mustTools(t, s)), "mcp__jira__create_ticket")

	reg.SetServerStatus("jira", ServerDisconnected)
	a = s.Announce()
	assert.Equal(t, []string{"mcp__jira__create_ticket", "mcp__jira__search"}, a.Removed)
	assert.Equal(t, []string{"Read"}, toolNames(mustTools(t, s)), "nothing deferred and nothing pending: no ToolSearch")
}

// Two conversations on one Registry keep their own discoveries, with
// searches, registry changes and reads racing (run with -race).
func TestSessionsIsolatedConcurrent(t *testing.T) {
	reg := smallRegistry(t)
	a := NewSession(reg, nil)
	b := NewSession(reg, nil)
	var wg sync.WaitGroup
	run := func(s *Session, query string) {
		defer wg.Done()
		for range 50 {
			sessionSearch(t, s, query)
			mustTools(t, s)
			s.Announce()
			s.Snapshot()
		}
	}
	wg.Add(3)
	go run(a, "select:WebFetch")
	go run(b, "select:mcp__github__create_issue")
	go func() {
		defer wg.Done()
		for i := range 50 {
			reg.SetServerStatus("slack", ServerStatus(i%2*2)) // connected / disconnected
		}
	}()
	wg.Wait()
	assert.Equal(t, []string{"WebFetch"}, discovered(a))
	assert.Equal(t, []string{"mcp__github__create_issue"}, discovered(b))
	assert.NotContains(t, toolNames(mustTools(t, a)), "mcp__github__create_issue")
	assert.NotContains(t, toolNames(mustTools(t, b)), "WebFetch")
}

// A loaded tool whose lazy schema fails is left out of Tools(), the error
// names it, and the other definitions are returned.
func TestToolsReportsBrokenLazySchema(t *testing.T) {
	reg, err := NewRegistry(nil,
		Tool{Name: "Read", Description: "Read a file."},
		Tool{Name: "Broken", LoadSchema: func() (json.RawMessage, error) { return nil, fmt.Errorf("server said no") }},
		Tool{Name: "Later", ShouldDefer: true},
	)
	require.NoError(t, err)
	defs, skipped := NewSession(reg, nil).Tools()
	require.Len(t, skipped, 1)
	assert.Contains(t, skipped[0].Error(), `load schema of "Broken": server said no`)
	assert.Equal(t, []string{"Read", "ToolSearch"}, toolNames(defs))
}
