package toolsearch

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSession332 runs a conversation of the ClaudeCode2_1_332 profile and
// pins what it sends: the tools (the placeholder before the last one) and
// the announcements, for a model that reads <system-reminder> user texts
// and for one that takes system messages.
func TestSession332(t *testing.T) {
	var b strings.Builder
	for _, m := range []ModelTraits{{}, {SystemMessages: true}} {
		r := registry332(t)
		require.NoError(t, r.Register(Tool{Name: "DeferredToolPlaceholder", Description: "a registered tool of that name"}))
		s := NewSession(r, &SessionOptions{Format: FormatToolReference, Search: SearchOptions{Profile: ClaudeCode2_1_332, Model: m}})
		fmt.Fprintf(&b, "==== model %+v\n", m)
		turn := func(what string) {
			defs, skipped := s.Tools()
			require.Empty(t, skipped)
			fmt.Fprintf(&b, "== %s\ntools:", what)
			for _, d := range defs {
				fmt.Fprintf(&b, " %s", d.Name)
				if d.DeferLoading {
					b.WriteString("(defer_loading)")
				}
			}
			a := s.Announce()
			fmt.Fprintf(&b, "\nannouncement (full %v, system %v):\n%s\n", a.Full, a.System, a.Text)
		}
		turn("first request")
		_, err := s.Call(json.RawMessage(`{"query":"select:send_message"}`))
		require.NoError(t, err)
		turn("after select:send_message")
		r.SetServerStatus("slack", ServerDisconnected)
		require.Equal(t, 1, r.Remove("READ"))
		turn("after slack disconnected and READ removed")
		s.Compact()
		turn("after a compaction")
	}
	golden(t, "cc332_session.txt", []byte(b.String()))
}

func TestPlaceholder332(t *testing.T) {
	r := registry332(t)
	tools := func(opts *SessionOptions) []string {
		defs, _ := NewSession(r, opts).Tools()
		return toolNames(defs)
	}
	p332 := SearchOptions{Profile: ClaudeCode2_1_332}
	got := tools(&SessionOptions{Format: FormatToolReference, Search: p332})
	require.GreaterOrEqual(t, len(got), 2)
	assert.Equal(t, "DeferredToolPlaceholder", got[len(got)-2], "before the last tool: %v", got)
	assert.Equal(t, ToolSearchName, got[len(got)-1])
	assert.NotContains(t, tools(&SessionOptions{Format: FormatInline, Search: p332}), "DeferredToolPlaceholder", "no deferred loading inline")
	assert.NotContains(t, tools(&SessionOptions{Format: FormatToolReference, CallBridge: true, Search: p332}), "DeferredToolPlaceholder")
	assert.NotContains(t, tools(&SessionOptions{Format: FormatToolReference}), "DeferredToolPlaceholder", "2.1.89 sends none")
	assert.NotContains(t, tools(&SessionOptions{Format: FormatToolReference, Mode: ModeNever, Search: p332}), "DeferredToolPlaceholder",
		"no ToolSearch, no placeholder")
	assert.Len(t, withPlaceholder(nil), 1)
}

func TestSentDescriptions332(t *testing.T) {
	r := newRegistry(t, &RegistryOptions{MaxDescriptionBytes: 64 << 10})
	long := strings.Repeat("b", 20000)
	require.NoError(t, r.Register(
		Tool{Name: "mcp__s__pinned", Server: "s", MCPName: "pinned", Description: long, AlwaysLoad: true},
		Tool{Name: "mcp__s__found", Server: "s", MCPName: "found", Description: long},
		Tool{Name: "Big", Description: long},
	))
	s := NewSession(r, &SessionOptions{Format: FormatToolReference, Search: SearchOptions{Profile: ClaudeCode2_1_332}})
	_, err := s.Call(json.RawMessage(`{"query":"select:mcp__s__found"}`))
	require.NoError(t, err)
	defs, _ := s.Tools()
	desc := map[string]string{}
	for _, d := range defs {
		desc[d.Name] = d.Description
	}
	assert.Equal(t, long, desc["Big"], "not an MCP tool: whole")
	assert.Equal(t, strings.Repeat("b", 4096)+"… [truncated]", desc["mcp__s__pinned"], "an MCP tool sent in full: 4,096")
	assert.Equal(t, strings.Repeat("b", 16384)+"… [truncated]", desc["mcp__s__found"], "loaded through ToolSearch: 16,384")
}
