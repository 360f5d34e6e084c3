package toolsearch

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// refAnnouncer is the reference for Session.Announce: it lists the deferred
// tools in scope from scratch on every call and diffs the whole lists.
type refAnnouncer struct {
	s    *Session
	prev []string // nil: nothing announced
}

func (r *refAnnouncer) announce() Announcement {
	s := r.s
	snap := s.reg.load()
	if !s.modeDefers(snap) {
		return Announcement{}
	}
	names := renderTexts(snap, s.in).names
	on := len(names) > 0 || len(s.searcher.pendingServers(snap)) > 0
	if !on && r.prev == nil {
		return Announcement{}
	}
	var a Announcement
	if r.prev == nil {
		a = Announcement{Text: renderBlock(names), Full: true, Added: slices.Clone(names)}
	} else {
		added, removed := diffSorted(r.prev, names)
		gone, removed := s.whyGone(snap, removed)
		a = Announcement{Text: deltaText(added, gone), Added: added, Removed: removed}
	}
	r.prev = slices.Clone(names)
	if r.prev == nil {
		r.prev = []string{}
	}
	if s.opts.Search.Profile == ClaudeCode2_1_332 {
		a.Text, a.System = announcement332(a.Added, a.Removed, s.opts.Search.Model, s.opts.Search.MaxListingBytes)
	}
	return a
}

// refTools is the reference for Session.Tools: every tool of the pool is
// looked at.
func refTools(s *Session) []string {
	snap := s.reg.load()
	on := s.searchOn(snap)
	out := []string{}
	for e := range snap.pool.All() {
		if !s.in(e) || on && (e.deferred || e.tool.Name == ToolSearchName || s.opts.CallBridge && e.tool.Name == CallToolName) {
			continue
		}
		out = append(out, e.tool.Name)
	}
	if !on {
		return out
	}
	out = append(out, ToolSearchName)
	if s.opts.CallBridge {
		return append(out, CallToolName)
	}
	for e := range snap.deferredTools() {
		if s.isDiscovered(e.tool.Name) && s.in(e) {
			out = append(out, e.tool.Name)
		}
	}
	return out
}

// TestAnnounceDeltaFollowsTheChangeLog checks, over random changes (tools
// registered, replaced deferred or not, removed, servers' tools set,
// servers connected, pending, disconnected and removed), that the
// announcements read from the change log, and Tools(), are those of
// listing and diffing everything, for sessions with and without a
// scope, through Compact, Snapshot and Restore.
func TestAnnounceDeltaFollowsTheChangeLog(t *testing.T) {
	for seed := range uint64(sweepSize(6, 40)) {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 25))
			reg := &Registry{}
			tool := func(i int) Tool {
				srv := []string{"", "a", "b", "c"}[i%4]
				name := fmt.Sprintf("t%02d", i)
				if srv != "" {
					name = "mcp__" + srv + "__" + name
				}
				return Tool{Name: name, Description: fmt.Sprint("tool ", i, " v", rng.IntN(3)), Server: srv, ShouldDefer: rng.IntN(4) > 0}
			}
			for i := range 30 {
				require.NoError(t, reg.Replace(tool(i)))
			}
			scopes := []*Scope{nil, {Allow: []string{"t01", "mcp__a__t05", "mcp__b__t06", "mcp__c__t40", "*"}},
				{Allow: []string{"*"}, IncludeDeferred: true}, {Allow: []string{"mcp__a__t09", "t04", "t08", "mcp__b__t02"}}}
			var sessions []*Session
			var refs []*refAnnouncer
			for i, sc := range scopes {
				opts := &SessionOptions{Search: SearchOptions{Scope: sc}, CallBridge: i == 3}
				if i == 2 {
					opts.Search.Profile = ClaudeCode2_1_332
				}
				s := NewSession(reg, opts)
				s.AddDiscovered("t01", "mcp__a__t05", "mcp__b__t06", "mcp__a__t09", "t04", "mcp__b__t02", "t44")
				sessions = append(sessions, s)
				refs = append(refs, &refAnnouncer{s: s})
			}
			for step := range sweepSize(300, 2000) {
				switch op := rng.IntN(12); {
				case op < 4:
					require.NoError(t, reg.Replace(tool(rng.IntN(48))))
				case op < 6:
					reg.Remove(tool(rng.IntN(48)).Name)
				case op == 6:
					srv := []string{"a", "b", "c", "d"}[rng.IntN(4)]
					reg.SetServerStatus(srv, ServerStatus(rng.IntN(3)))
				case op == 7:
					srv := []string{"a", "b", "c"}[rng.IntN(3)]
					var tools []Tool
					for i := rng.IntN(4); i < 48; i += 4 + rng.IntN(8) {
						if tt := tool(i); tt.Server == srv {
							tools = append(tools, tt)
						}
					}
					_, err := reg.SetServerTools(srv, tools)
					require.NoError(t, err)
				case op == 8 && rng.IntN(4) == 0:
					reg.RemoveServer([]string{"a", "b", "c"}[rng.IntN(3)])
				case op == 9:
					i := rng.IntN(len(sessions))
					if rng.IntN(2) == 0 {
						sessions[i].Compact()
						refs[i].prev = nil
					} else {
						st := sessions[i].Snapshot()
						require.Equal(t, refs[i].prev, st.Announced, "step %d session %d: Snapshot().Announced", step, i)
						require.NoError(t, sessions[i].Restore(st))
					}
				}
				requireServedByServer(t, reg)
				for i, s := range sessions {
					if rng.IntN(3) == 0 {
						continue // announces skip some changes
					}
					require.Equal(t, refs[i].announce(), s.Announce(), "step %d session %d", step, i)
					defs, _ := s.Tools()
					require.Equal(t, refTools(s), toolNames(defs), "step %d session %d: Tools", step, i)
				}
			}
		})
	}
}

// TestAnnounceDeltaPastTheLog checks a delta across more changes than the
// change log keeps: it is the same delta, from the lists.
func TestAnnounceDeltaPastTheLog(t *testing.T) {
	reg := &Registry{}
	require.NoError(t, reg.Register(Tool{Name: "mcp__a__one", Server: "a"}, Tool{Name: "mcp__a__two", Server: "a"}))
	s := NewSession(reg, nil)
	require.True(t, s.Announce().Full)
	require.NoError(t, reg.Register(Tool{Name: "mcp__a__three", Server: "a"}))
	for i := range maxLoggedChanges + 1 {
		require.NoError(t, reg.Replace(Tool{Name: "mcp__a__one", Server: "a", Description: fmt.Sprint(i)}))
	}
	reg.Remove("mcp__a__two")
	_, ok := reg.load().log.since(s.ann.seq)
	require.False(t, ok, "the log reaches back past its bound")
	a := s.Announce()
	require.Equal(t, []string{"mcp__a__three"}, a.Added)
	require.Equal(t, []string{"mcp__a__two"}, a.Removed)
	require.Equal(t, Announcement{}, s.Announce(), "nothing changed since")
}

// TestAnnounceDeltaListsNothing checks that a delta after a one-tool
// change, and the ToolSearch offer, Tools() and CheckCall, are answered
// without rendering the listing of the deferred tools.
func TestAnnounceDeltaListsNothing(t *testing.T) {
	reg := &Registry{}
	var tools []Tool
	for i := range 100 {
		tools = append(tools, Tool{Name: fmt.Sprintf("mcp__a__t%d", i), Server: "a", InputSchema: []byte(`{"type":"object"}`)})
	}
	require.NoError(t, reg.Register(tools...))
	for _, sc := range []*Scope{nil, {Allow: []string{"mcp__a__t1", "mcp__a__new"}}} {
		s := NewSession(reg, &SessionOptions{Search: SearchOptions{Scope: sc}})
		s.AddDiscovered("mcp__a__t1")
		require.True(t, s.Announce().Full)
		require.NoError(t, reg.Register(Tool{Name: "mcp__a__new", Server: "a"}))
		a := s.Announce()
		require.Equal(t, []string{"mcp__a__new"}, a.Added, "scope %v", sc)
		defs, _ := s.Tools()
		require.Equal(t, []string{ToolSearchName, "mcp__a__t1"}, toolNames(defs))
		_, err := s.CheckCall("mcp__a__t1", nil)
		require.NoError(t, err)
		snap := reg.load()
		require.Nil(t, snap.texts.cur.Load(), "scope %v: the snapshot's listing was rendered", sc)
		if st := s.searcher.texts.cur.Load(); st != nil {
			require.NotSame(t, snap, st.snap, "scope %v: the scope's listing was rendered", sc)
		}
		reg.Remove("mcp__a__new")
		s.Announce()
	}
}

// requireServedByServer checks the registry's tools by server against its
// tools.
func requireServedByServer(t *testing.T, r *Registry) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	want := map[string]map[string]struct{}{}
	for n, e := range r.tools {
		if srv := e.tool.Server; srv != "" {
			if want[srv] == nil {
				want[srv] = map[string]struct{}{}
			}
			want[srv][n] = struct{}{}
		}
	}
	if len(want) == 0 {
		want = nil
	}
	if len(r.served) == 0 {
		require.Empty(t, want, "the tools by server")
		return
	}
	require.Equal(t, want, r.served, "the tools by server")
}
