package toolsearch_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/benchdata"
)

// BenchmarkTurn measures the calls an agent loop makes on every turn, and
// the one-tool changes between turns, against the size of the registry
// (1k, 10k, 100k tools; 1M with TOOLSEARCH_BENCH_1M=1): each should cost
// what it returns or reads, not what the registry holds. The session has
// discovered 10 tools spread over the catalog. A name "after-replace/X"
// replaces one tool before each X, so that X meets a snapshot it has not
// seen (what a memo per snapshot would hide); compare it with
// "replace-one". Run it with
//
//	go test -run '^$' -bench Turn -benchtime 200x .
func BenchmarkTurn(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("tools/"+sizeName(n), func(b *testing.B) {
			s, _ := turnSession(b, n, nil)
			b.ReportAllocs()
			for b.Loop() {
				if defs, skipped := s.Tools(); len(skipped) > 0 || len(defs) < 11 {
					b.Fatal(len(defs), skipped)
				}
			}
		})
		b.Run("after-replace/tools/"+sizeName(n), func(b *testing.B) {
			s, r := turnSession(b, n, nil)
			alt := changedTools(b, n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				turnReplace(b, r, alt[i%2])
				i++
				if defs, skipped := s.Tools(); len(skipped) > 0 || len(defs) < 11 {
					b.Fatal(len(defs), skipped)
				}
			}
		})
		b.Run("announce-unchanged/"+sizeName(n), func(b *testing.B) {
			s, _ := turnSession(b, n, nil)
			if a := s.Announce(); !a.Full {
				b.Fatal("the first announcement is not full")
			}
			b.ReportAllocs()
			for b.Loop() {
				if a := s.Announce(); a.Text != "" {
					b.Fatal("announced", a.Text)
				}
			}
		})
		b.Run("after-replace/announce-unchanged/"+sizeName(n), func(b *testing.B) {
			s, r := turnSession(b, n, nil)
			s.Announce()
			alt := changedTools(b, n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				turnReplace(b, r, alt[i%2])
				i++
				if a := s.Announce(); a.Text != "" {
					b.Fatal("announced", a.Text)
				}
			}
		})
		b.Run("add-remove-one/"+sizeName(n), func(b *testing.B) {
			_, r := turnSession(b, n, nil)
			t := turnNewTool(b, n)
			b.ReportAllocs()
			for b.Loop() {
				turnAddRemove(b, r, t, nil)
			}
		})
		b.Run("add-remove-one+announce-delta/"+sizeName(n), func(b *testing.B) {
			// Two changes, each followed by the delta that names it.
			s, r := turnSession(b, n, nil)
			s.Announce()
			t := turnNewTool(b, n)
			b.ReportAllocs()
			for b.Loop() {
				turnAddRemove(b, r, t, s)
			}
		})
		b.Run("check-call/"+sizeName(n), func(b *testing.B) {
			s, _ := turnSession(b, n, nil)
			name := turnCallable(b, s, n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.CheckCall(name, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("after-replace/check-call/"+sizeName(n), func(b *testing.B) {
			s, r := turnSession(b, n, nil)
			name := turnCallable(b, s, n)
			alt := changedTools(b, n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				turnReplace(b, r, alt[i%2])
				i++
				if _, err := s.CheckCall(name, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("snapshot-restore/"+sizeName(n), func(b *testing.B) {
			// The state of a conversation that discovered 10 tools and
			// announces nothing (its host lists the tools in the system
			// prompt): saved and restored.
			s, _ := turnSession(b, n, nil)
			b.ReportAllocs()
			for b.Loop() {
				if err := s.Restore(s.Snapshot()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("after-replace/snapshot-restore/"+sizeName(n), func(b *testing.B) {
			s, r := turnSession(b, n, nil)
			alt := changedTools(b, n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				turnReplace(b, r, alt[i%2])
				i++
				if err := s.Restore(s.Snapshot()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("resume/"+sizeName(n), func(b *testing.B) {
			// A history of 20 ToolSearch calls, each returning one tool.
			_, r := turnSession(b, n, nil)
			history := turnHistory(b, n)
			b.SetBytes(int64(len(history)))
			b.ReportAllocs()
			for b.Loop() {
				s := toolsearch.NewSession(r, nil)
				if skipped, err := s.Resume(history); err != nil || len(skipped) > 0 {
					b.Fatal(err, skipped)
				}
			}
		})
		b.Run("replace-one/"+sizeName(n), func(b *testing.B) {
			_, r := turnSession(b, n, nil)
			alt := changedTools(b, n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				turnReplace(b, r, alt[i%2])
				i++
			}
		})
		b.Run("server-tools/"+sizeName(n), func(b *testing.B) {
			// tools/list_changed of a server of 40 tools, one of them changed.
			_, r := turnSession(b, n, nil)
			srv, tools := turnServer(b, n)
			loopServerTools(b, r, srv, tools)
		})
	}
}

// turnSession returns a Session over a registry of n tools of its own,
// that discovered 10 tools spread over the catalog.
func turnSession(b *testing.B, n int, opts *toolsearch.SessionOptions) (*toolsearch.Session, *toolsearch.Registry) {
	b.Helper()
	r := freshRegistry(b, n)
	s := toolsearch.NewSession(r, opts)
	if skipped := s.AddDiscovered(turnDiscovered(b, n)...); len(skipped) > 0 {
		b.Fatal(skipped)
	}
	return s, r
}

// turnDiscovered returns the names of 10 deferred tools spread evenly over
// the catalog of n tools.
func turnDiscovered(b *testing.B, n int) []string {
	tools := benchTools(b, n, false)
	var names []string
	for i := 1; len(names) < 10; i++ {
		t := tools[min(i*len(tools)/11, len(tools)-1)]
		if t.ShouldDefer {
			names = append(names, t.Name)
		}
	}
	return names
}

// turnCallable returns a discovered tool of s that {} arguments fit.
func turnCallable(b *testing.B, s *toolsearch.Session, n int) string {
	for _, name := range turnDiscovered(b, n) {
		if _, err := s.CheckCall(name, nil); err == nil {
			return name
		}
	}
	for _, t := range benchTools(b, n, false) {
		if _, err := s.CheckCall(t.Name, nil); err == nil {
			return t.Name
		}
	}
	b.Fatal("no tool takes {}")
	return ""
}

// turnReplace replaces one tool by t.
func turnReplace(b *testing.B, r *toolsearch.Registry, t toolsearch.Tool) {
	if err := r.Replace(t); err != nil {
		b.Fatal(err)
	}
}

// turnNewTool returns a deferred tool that the catalog of n tools does not
// hold.
func turnNewTool(b *testing.B, n int) toolsearch.Tool {
	t := changedTools(b, n)[0]
	t.Name += "_new"
	return t
}

// turnAddRemove registers t and removes it again; with s, each change is
// followed by the delta announcement that names t.
func turnAddRemove(b *testing.B, r *toolsearch.Registry, t toolsearch.Tool, s *toolsearch.Session) {
	if err := r.Register(t); err != nil {
		b.Fatal(err)
	}
	if s != nil {
		if a := s.Announce(); len(a.Added) != 1 || len(a.Removed) != 0 {
			b.Fatal("added", a.Added, "removed", a.Removed)
		}
	}
	if r.Remove(t.Name) != 1 {
		b.Fatal("not removed")
	}
	if s != nil {
		if a := s.Announce(); len(a.Added) != 0 || len(a.Removed) != 1 {
			b.Fatal("added", a.Added, "removed", a.Removed)
		}
	}
}

// turnServer returns the first MCP server of the catalog of n tools and
// its tools.
func turnServer(b *testing.B, n int) (string, []toolsearch.Tool) {
	var srv string
	var tools []toolsearch.Tool
	for _, t := range benchTools(b, n, true) {
		if t.Server != "" && (srv == "" || t.Server == srv) && len(tools) < benchdata.ToolsPerServer {
			srv = t.Server
			tools = append(tools, t)
		}
	}
	return srv, tools
}

// loopServerTools measures SetServerTools of srv's tools, given again
// with the first one's description changed and back, one per iteration.
func loopServerTools(b *testing.B, r *toolsearch.Registry, srv string, tools []toolsearch.Tool) {
	alt := [2][]toolsearch.Tool{tools, append([]toolsearch.Tool(nil), tools...)}
	alt[1][0].Description += " (changed)"
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if skipped, err := r.SetServerTools(srv, alt[i%2]); err != nil || len(skipped) > 0 {
			b.Fatal(err, skipped)
		}
		i++
	}
}

// turnHistory returns an Anthropic-shaped history of 20 ToolSearch calls,
// each answered with a tool_reference to one tool of the catalog of n.
func turnHistory(b *testing.B, n int) json.RawMessage {
	tools := benchTools(b, n, false)
	var msgs []string
	for i := range 20 {
		id := strconv.Quote("toolu_" + strconv.Itoa(i))
		name := strconv.Quote(tools[(i+1)*len(tools)/21].Name)
		msgs = append(msgs,
			`{"role":"assistant","content":[{"type":"tool_use","id":`+id+`,"name":"ToolSearch","input":{"query":"x"}}]}`,
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":`+id+`,"content":[{"type":"tool_reference","tool_name":`+name+`}]}]}`)
	}
	h := json.RawMessage("[" + strings.Join(msgs, ",") + "]")
	if !json.Valid(h) {
		b.Fatal("history is not JSON")
	}
	return h
}
