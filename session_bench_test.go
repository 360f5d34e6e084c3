package toolsearch

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/demo"
)

// demoSession returns a Session over the demo catalog (579 tools, 573
// deferred) that discovered ten tools.
func demoSession(b *testing.B, opts *SessionOptions) *Session {
	b.Helper()
	tools, err := ParseCatalog(demo.Catalog)
	require.NoError(b, err)
	reg, err := NewRegistry(nil, tools...)
	require.NoError(b, err)
	s := NewSession(reg, opts)
	res := sessionSearch(b, s, "select:mcp__slack__send_message,mcp__github__create_issue,WebFetch,mcp__git__git_log,mcp__fetch__fetch,mcp__time__get_current_time,mcp__memory__read_graph,mcp__wikipedia__get_article,TodoWrite,mcp__weather__get_weather")
	require.Len(b, res.Matches, 10)
	return s
}

func BenchmarkSessionTools(b *testing.B) {
	s := demoSession(b, &SessionOptions{Format: FormatToolReference})
	b.ReportAllocs()
	for b.Loop() {
		if _, skipped := s.Tools(); len(skipped) > 0 {
			b.Fatal(skipped)
		}
	}
}

func BenchmarkSessionToolsAuto(b *testing.B) {
	s := demoSession(b, &SessionOptions{Mode: ModeAuto})
	b.ReportAllocs()
	for b.Loop() {
		if _, skipped := s.Tools(); len(skipped) > 0 {
			b.Fatal(skipped)
		}
	}
}

func BenchmarkSessionAnnounceUnchanged(b *testing.B) {
	s := demoSession(b, nil)
	s.Announce()
	b.ReportAllocs()
	for b.Loop() {
		s.Announce()
	}
}

func BenchmarkCheckCall(b *testing.B) {
	s := demoSession(b, nil)
	args := json.RawMessage(`{"channel_id":"C0OPS","text":"deploy done"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.CheckCall("mcp__slack__send_message", args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDiscoveredInHistory(b *testing.B) {
	s := demoSession(b, &SessionOptions{Format: FormatToolReference})
	history := recordHistoryB(b, s)
	b.SetBytes(int64(len(history)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := discoveredInHistory(history); err != nil {
			b.Fatal(err)
		}
	}
}

// recordHistoryB records an Anthropic-shaped history of 20 searches.
func recordHistoryB(b *testing.B, s *Session) json.RawMessage {
	var msgs []any
	for i, q := range []string{"slack send", "github issue", "git log", "weather", "wikipedia", "fetch url", "time zone", "memory graph", "npm package", "chart bar",
		"pdf", "excel sheet", "playwright click", "docker container", "arxiv paper", "crypto price", "stock price", "calendar", "translate", "map route"} {
		args, _ := json.Marshal(map[string]string{"query": q})
		content, after, _ := handle(s, args)
		id := "toolu_" + string(rune('a'+i))
		user := []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": content}}
		for _, b := range after {
			user = append(user, b)
		}
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": ToolSearchName, "input": json.RawMessage(args)}}},
			map[string]any{"role": "user", "content": user})
	}
	h, err := json.Marshal(msgs)
	require.NoError(b, err)
	return h
}
