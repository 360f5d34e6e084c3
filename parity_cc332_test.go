package toolsearch

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/demo"
)

// parityRecord is testdata/parity/claude-code-2.1.332.json: the answers of
// Claude Code 2.1.332's own ToolSearch code to the demo catalog and to
// generated catalogs, recorded by scripts/parity332 (its "source" says
// how).
type parityRecord struct {
	Source string `json:"source"`
	Sets   []struct {
		Name    string            `json:"name"`
		Catalog string            `json:"catalog"`
		Pending []string          `json:"pending_mcp_servers"`
		Tools   []json.RawMessage `json:"tools"`
		Queries []struct {
			Query       string   `json:"query"`
			MaxResults  *int     `json:"max_results"`
			Matches     []string `json:"matches"`
			Total       int      `json:"total_deferred_tools"`
			Notes       []string `json:"notes"`
			NoMatchText string   `json:"no_match_text"`
		} `json:"queries"`
	} `json:"sets"`
}

// parityRegistry returns the registry of one recorded set: its catalog
// (hints up to 64 KiB), and its pending servers.
func parityRegistry(t *testing.T, catalog string, tools []json.RawMessage, pending []string) *Registry {
	t.Helper()
	data := demo.Catalog
	if catalog == "" {
		var err error
		data, err = json.Marshal(map[string]any{"tools": tools})
		require.NoError(t, err)
	}
	list, err := ParseCatalog(data)
	require.NoError(t, err)
	reg, err := NewRegistry(&RegistryOptions{MaxHintBytes: 64 << 10}, list...)
	require.NoError(t, err)
	for _, srv := range pending {
		reg.SetServerStatus(srv, ServerPending)
	}
	return reg
}

// TestParityClaudeCode332 answers every recorded query with the
// ClaudeCode2_1_332 profile and compares the answer with Claude Code
// 2.1.332's: the matches in order, the deferred count, the "Already
// available" note (the <system-reminder> text after the tool_result) and,
// without matches, the tool_result's text. The default profile's answers are compared too, and
// only counted: it follows 2.1.89.
func TestParityClaudeCode332(t *testing.T) {
	b, err := os.ReadFile("testdata/parity/claude-code-2.1.332.json")
	require.NoError(t, err)
	var rec parityRecord
	require.NoError(t, json.Unmarshal(b, &rec))
	require.NotEmpty(t, rec.Source)
	compared, differ, differ89 := 0, 0, 0
	var report []string
	for _, set := range rec.Sets {
		reg := parityRegistry(t, set.Catalog, set.Tools, set.Pending)
		s := NewSearcher(reg, &SearchOptions{Profile: ClaudeCode2_1_332})
		s89 := NewSearcher(reg, nil)
		for _, q := range set.Queries {
			args := map[string]any{"query": q.Query}
			if q.MaxResults != nil {
				args["max_results"] = *q.MaxResults
			}
			raw, err := json.Marshal(args)
			require.NoError(t, err)
			res, err := s.Call(raw)
			require.NoError(t, err, "set %s: query %q", set.Name, q.Query)
			compared++
			got := matchNames(res)
			content, after := res.Content(FormatToolReference)
			var notes []string // the <system-reminder> texts, unwrapped
			for _, b := range after {
				if t, ok := strings.CutPrefix(b.Text, "<system-reminder>\n"); ok {
					notes = append(notes, strings.TrimSuffix(t, "\n</system-reminder>"))
				}
			}
			text := ""
			if len(res.Matches) == 0 {
				text = content[0].Text
			}
			if !slices.Equal(q.Matches, got) || q.Total != res.TotalDeferredTools || !slices.Equal(q.Notes, notes) || q.NoMatchText != text {
				differ++
				if len(report) < 20 {
					report = append(report, fmt.Sprintf("set %s, query %.120q:\n  claude code: %v %q %q\n  toolsearch:  %v %q %q",
						set.Name, q.Query, q.Matches, q.Notes, q.NoMatchText, got, notes, text))
				}
			}
			if r89, err := s89.Call(raw); err != nil || !slices.Equal(q.Matches, matchNames(r89)) {
				differ89++
			}
		}
	}
	assert.Zero(t, differ, "%d of %d answers differ from Claude Code 2.1.332's:\n%s", differ, compared, strings.Join(report, "\n"))
	assert.Greater(t, compared, 3000, "the recorded sets")
	t.Logf("%d queries: the 2.1.332 profile answers %d as Claude Code 2.1.332, the default profile ranks %d differently", compared, compared-differ, differ89)
}
