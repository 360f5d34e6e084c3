package semantic

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// Tools whose embedded texts are the same (names of the same words, the
// same description) share one vector: each is in the embedding ranking,
// at the same cosine, and each counts as embedded, whether the vector was
// computed for this index or found in the table by a later one.
func TestSemanticToolsOfOneText(t *testing.T) {
	tools := []toolsearch.Tool{
		toolsearch.NewMCPTool("files", "read_file", "Reads a file from the disk.", nil, nil),
		toolsearch.NewMCPTool("files", "readFile", "Reads a file from the disk.", nil, nil),
		toolsearch.NewMCPTool("other", "send_mail", "Sends a message by mail.", nil, nil),
		toolsearch.NewMCPTool("files", "read-file", "Reads a file from the disk.", nil, nil),
	}
	require.Equal(t, ToolText(tools[0]), ToolText(tools[1]))
	require.Equal(t, ToolText(tools[0]), ToolText(tools[3]))
	reg, err := toolsearch.NewRegistry(nil, tools...)
	require.NoError(t, err)
	st, err := New(newTestEmbedder(), nil)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	rec := &recording{Strategy: st}
	s := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: rec})
	check := func(stage string) {
		s.Prepare()
		require.NoError(t, st.Wait(t.Context()))
		x := rec.lastIndex(s)
		assert.Equal(t, int32(x.n), x.ready.Load(), "%s: every tool embedded", stage)
		res, err := s.Search("the disk contents of a file, please, as text", 10)
		require.NoError(t, err)
		assert.Empty(t, res.Notes, stage)
		semantic := map[string]float64{}
		for _, m := range res.Matches {
			if m.Rules&toolsearch.RuleSemantic != 0 {
				semantic[m.Name] = m.Score
			}
		}
		for _, tl := range tools {
			if tl.Name != "mcp__other__send_mail" {
				assert.Contains(t, semantic, tl.Name, "%s: in the embedding ranking", stage)
			}
		}
	}
	check("embedded for this index")
	require.NoError(t, reg.Register(toolsearch.NewMCPTool("files", "read__file", "Reads a file from the disk.", nil, nil)))
	tools = append(tools, toolsearch.NewMCPTool("files", "read__file", "Reads a file from the disk.", nil, nil))
	check("found in the table")
}
