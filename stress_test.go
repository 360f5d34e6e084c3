package toolsearch

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Stress test: many goroutines change and read one Registry at once. Run
// it under -race (CI does). Each MCP server is changed by one goroutine
// only, so the final state is known; every server's tool list is replaced
// as a set whose names carry its generation, so a reader can tell when it
// sees a half-applied change: tools of two generations of one server, or
// part of one generation. One more server, "steady", is only ever given new
// tool lists: once a reader has seen its tools it must never see it without
// them (a replacement done as a removal then an addition would show that).

const (
	stressServers     = 6
	stressCoreWriters = 2
	stressReaders     = 4
	stressOps         = 150 // operations per writer
	stressSessions    = 3   // conversations, each driven by two goroutines at once
)

// stressTools returns generation gen of server srv's tool list: 1 to 4
// tools named mcp__<srv>__g<gen>_t<i>.
func stressTools(srv string, gen int) []Tool {
	n := 1 + gen%4
	out := make([]Tool, n)
	for i := range out {
		out[i] = Tool{
			Name:        fmt.Sprintf("mcp__%s__g%d_t%d", srv, gen, i),
			Description: fmt.Sprintf("Tool %d of %s, generation %d.", i, srv, gen),
			InputSchema: json.RawMessage(testSchema),
		}
	}
	return out
}

// stressServerState is what one server writer expects the registry to hold.
type stressServerState struct {
	gen    int // 0: no tools
	status ServerStatus
}

// checkSets checks that names (from one search, listing or prompt) hold,
// for each server, tools of one generation only, and all of them when
// complete is set. It returns a description of the first violation.
func checkSets(names []string, complete bool) string {
	gens := map[string]map[int][]int{} // server → generation → tool indexes
	for _, n := range names {
		rest, ok := strings.CutPrefix(n, "mcp__")
		if !ok {
			continue
		}
		srv, tool, _ := strings.Cut(rest, "__")
		var gen, idx int
		if _, err := fmt.Sscanf(tool, "g%d_t%d", &gen, &idx); err != nil {
			return "unexpected tool name " + n
		}
		if gens[srv] == nil {
			gens[srv] = map[int][]int{}
		}
		gens[srv][gen] = append(gens[srv][gen], idx)
	}
	for srv, byGen := range gens {
		if len(byGen) > 1 {
			return fmt.Sprintf("server %s: tools of generations %v seen together: %v", srv, slices.Sorted(maps.Keys(byGen)), names)
		}
		for gen, idx := range byGen {
			if complete && len(idx) != 1+gen%4 {
				return fmt.Sprintf("server %s generation %d: %d of its %d tools seen: %v", srv, gen, len(idx), 1+gen%4, names)
			}
		}
	}
	return ""
}

// parseSection returns the names listed by a system-prompt section.
func parseSection(s string) []string {
	_, list, ok := strings.Cut(s, "\n")
	if !ok {
		return nil
	}
	return strings.Split(list, ", ")
}

func TestStressConcurrentChangesAndReads(t *testing.T) {
	var r Registry
	servers := make([]string, stressServers)
	for i := range servers {
		servers[i] = "s" + strconv.Itoa(i)
	}
	final := make([]stressServerState, stressServers)
	core := make([]map[string]string, stressCoreWriters) // name → description

	var steadyGen atomic.Int64 // last generation given to "steady"
	var writers, readers sync.WaitGroup
	var done atomic.Bool
	var searches atomic.Int64

	for w, srv := range servers {
		writers.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			st := &final[w]
			for op := range stressOps {
				switch rng.IntN(8) {
				case 0, 1, 2, 3:
					st.gen = op + 1
					assert.NoError(t, setServerTools(&r, srv, stressTools(srv, st.gen)))
				case 4:
					st.status = ServerPending
					r.SetServerStatus(srv, ServerPending)
				case 5:
					st.status = ServerDisconnected
					r.SetServerStatus(srv, ServerDisconnected)
				case 6:
					st.status = ServerConnected
					r.SetServerStatus(srv, ServerConnected)
				case 7:
					want := 0
					if st.gen > 0 {
						want = 1 + st.gen%4
					}
					assert.Equal(t, want, r.RemoveServer(srv), "RemoveServer(%s) removes the current set", srv)
					*st = stressServerState{}
				}
			}
		})
	}
	writers.Go(func() {
		for gen := 1; gen <= stressOps; gen++ {
			assert.NoError(t, setServerTools(&r, "steady", stressTools("steady", gen)))
			steadyGen.Store(int64(gen))
		}
	})
	for w := range stressCoreWriters {
		core[w] = map[string]string{}
		writers.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 2))
			mine := core[w]
			for op := range stressOps {
				name := fmt.Sprintf("Core%dTool%d", w, rng.IntN(8))
				desc := fmt.Sprintf("core tool version %d", op)
				_, have := mine[name]
				switch rng.IntN(3) {
				case 0:
					err := r.Register(Tool{Name: name, Description: desc, ShouldDefer: true})
					if have {
						assert.ErrorIs(t, err, ErrDuplicateTool)
					} else if assert.NoError(t, err) {
						mine[name] = desc
					}
				case 1:
					if assert.NoError(t, r.Replace(Tool{Name: name, Description: desc, ShouldDefer: true})) {
						mine[name] = desc
					}
				case 2:
					n := r.Remove(name)
					if have {
						assert.Equal(t, 1, n)
						delete(mine, name)
					} else {
						assert.Zero(t, n, "an unknown name is ignored")
					}
				}
			}
		})
	}

	plain := NewSearcher(&r, nil)
	scoped := NewSearcher(&r, &SearchOptions{Scope: &Scope{Allow: []string{"*"}, IncludeDeferred: true}})
	for i := range stressReaders {
		readers.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 3))
			steadySeen := false
			for !done.Load() {
				searches.Add(1)
				res, err := plain.Search("mcp__steady__", defaultMaxResultsCap)
				if assert.NoError(t, err) {
					if len(res.Matches) > 0 {
						steadySeen = true
					} else if steadySeen {
						assert.Fail(t, "the tools of server steady vanished during a replacement")
					}
					if msg := checkSets(matchNames(res), true); msg != "" {
						assert.Fail(t, "half-applied change seen by a prefix search", msg)
					}
				}
				srv := servers[rng.IntN(len(servers))]
				s := plain
				if rng.IntN(2) == 0 {
					s = scoped
				}
				switch rng.IntN(6) {
				case 0: // a server's whole set through the MCP-prefix form
					res, err := s.Search("mcp__"+srv+"__", defaultMaxResultsCap)
					if assert.NoError(t, err) {
						if msg := checkSets(matchNames(res), true); msg != "" {
							assert.Fail(t, "half-applied change seen by a prefix search", msg)
						}
					}
				case 1: // keyword search over every server
					res, err := s.Call(json.RawMessage(`{"query":"generation tool","max_results":20}`))
					if assert.NoError(t, err) {
						if msg := checkSets(matchNames(res), false); msg != "" {
							assert.Fail(t, "half-applied change seen by a keyword search", msg)
						}
					}
				case 2:
					if msg := checkSets(deferredNames(s), true); msg != "" {
						assert.Fail(t, "half-applied change seen in the deferred names", msg)
					}
				case 3:
					if msg := checkSets(parseSection(s.SystemPromptSection()), true); msg != "" {
						assert.Fail(t, "half-applied change seen in the system-prompt section", msg)
					}
				case 4:
					block := deferredBlock(s)
					if block != "" {
						lines := strings.Split(block, "\n")
						assert.Equal(t, blockOpen, lines[0])
						assert.Equal(t, blockClose, lines[len(lines)-1])
						if msg := checkSets(lines[1:len(lines)-1], true); msg != "" {
							assert.Fail(t, "half-applied change seen in the deferred-tools block", msg)
						}
					}
				case 5:
					var names []string
					for tl := range r.Tools() {
						names = append(names, tl.Name)
					}
					if msg := checkSets(names, true); msg != "" {
						assert.Fail(t, "half-applied change seen in Tools", msg)
					}
				}
			}
		})
	}
	// Conversations: each Session is driven by two goroutines at once. The
	// announcements, applied in order, must rebuild the deferred set of
	// some snapshot, never a half-applied one.
	sessions := make([]*Session, stressSessions)
	announced := make([]map[string]bool, stressSessions)
	var annMu sync.Mutex // keeps each Announce and the applying of its delta together
	for c := range sessions {
		sessions[c] = NewSession(&r, nil)
		announced[c] = map[string]bool{}
		for g := range 2 {
			readers.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(c), uint64(g)))
				sess := sessions[c]
				for !done.Load() {
					searches.Add(1)
					switch rng.IntN(4) {
					case 0:
						annMu.Lock()
						a := sess.Announce()
						set := announced[c]
						if a.Full {
							clear(set)
						}
						for _, n := range a.Added {
							set[n] = true
						}
						for _, n := range a.Removed {
							delete(set, n)
						}
						if msg := checkSets(slices.Collect(maps.Keys(set)), true); msg != "" {
							assert.Fail(t, "half-applied change seen through Announce", msg)
						}
						annMu.Unlock()
					case 1:
						srv := servers[rng.IntN(len(servers))]
						content, _, isErr := handle(sess, json.RawMessage(`{"query":"mcp__`+srv+`__","max_results":20}`))
						assert.False(t, isErr, "Session.Call: %v", content)
					case 2:
						defs, skipped := sess.Tools()
						if assert.Empty(t, skipped) {
							seen := map[string]bool{}
							for _, d := range defs {
								assert.False(t, seen[d.Name], "Tools() lists %s twice", d.Name)
								seen[d.Name] = true
								assert.True(t, d.Name == ToolSearchName || sess.isDiscovered(d.Name), "Tools() sends %s, which is deferred and not discovered", d.Name)
							}
						}
					case 3:
						disc := discovered(sess)
						if len(disc) == 0 {
							continue
						}
						name := disc[rng.IntN(len(disc))]
						_, err := sess.CheckCall(name, json.RawMessage(`{"q":"x"}`))
						if err != nil {
							assert.True(t, errors.Is(err, ErrToolUnavailable) || errors.Is(err, ErrUnknownTool),
								"CheckCall(%s) on a discovered tool: only its absence is an error, got %v", name, err)
						}
					}
				}
			})
		}
	}

	writers.Wait()
	done.Store(true)
	readers.Wait()
	require.False(t, t.Failed())
	t.Logf("%d reads during %d writes", searches.Load(), (stressServers+stressCoreWriters)*stressOps)

	// The registry holds exactly what the operations applied say.
	var want []string
	wantAll := map[string]string{}
	for w, srv := range servers {
		st := final[w]
		assert.Equal(t, st.status, r.ServerStatus(srv), "status of %s", srv)
		if st.gen == 0 {
			continue
		}
		for _, tl := range stressTools(srv, st.gen) {
			wantAll[tl.Name] = tl.Description
			if st.status == ServerConnected {
				want = append(want, tl.Name)
			}
		}
	}
	for _, tl := range stressTools("steady", int(steadyGen.Load())) {
		wantAll[tl.Name] = tl.Description
		want = append(want, tl.Name)
	}
	for _, mine := range core {
		for n, d := range mine {
			wantAll[n] = d
			want = append(want, n)
		}
	}
	var got []string
	for tl := range r.Tools() {
		got = append(got, tl.Name)
		assert.Equal(t, wantAll[tl.Name], tl.Description, "%s holds its last definition", tl.Name)
	}
	slices.Sort(want)
	slices.Sort(got)
	assert.Equal(t, want, got, "available tools after the stress run")
	for n, d := range wantAll {
		tl, ok := r.Lookup(n)
		if assert.True(t, ok, "Lookup(%s)", n) {
			assert.Equal(t, d, tl.Description)
		}
	}
	names := deferredNames(plain)
	assert.Equal(t, want, names, "the deferred names after the stress run")
	for c, sess := range sessions {
		a := sess.Announce()
		set := announced[c]
		if a.Full {
			clear(set)
		}
		for _, n := range a.Added {
			set[n] = true
		}
		for _, n := range a.Removed {
			delete(set, n)
		}
		assert.Equal(t, want, slices.Sorted(maps.Keys(set)), "conversation %d: the announcements add up to the final deferred set", c)
	}
}

func TestCheckSetsDetectsHalfAppliedChanges(t *testing.T) {
	for _, tc := range []struct {
		name     string
		names    []string
		complete bool
		want     string // substring of the violation; "" = none
	}{
		{"one whole set", []string{"Read", "mcp__s0__g2_t0", "mcp__s0__g2_t1", "mcp__s0__g2_t2", "mcp__s1__g4_t0"}, true, ""},
		{"two generations", []string{"mcp__s0__g2_t0", "mcp__s0__g3_t0"}, false, "generations [2 3] seen together"},
		{"part of a set", []string{"mcp__s0__g2_t0", "mcp__s0__g2_t1"}, true, "2 of its 3 tools seen"},
		{"part allowed when not complete", []string{"mcp__s0__g2_t0"}, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkSets(tc.names, tc.complete)
			if tc.want == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tc.want)
			}
		})
	}
}
