package main

import (
	"bytes"
	"flag"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

var update = flag.Bool("update", false, "rewrite testdata/output.golden")

// The loop's log is checked against a golden file: every request's tools,
// costs, searches and calls.
func TestRunOutput(t *testing.T) {
	var out bytes.Buffer
	_, err := run(&out)
	require.NoError(t, err)
	toolsearchtest.Golden(t, "testdata/output.golden", out.Bytes(), *update)
}

// With the bridge on, the serialized tools are identical on every turn;
// without it, the discovered tool joins the second request.
func TestRunTools(t *testing.T) {
	var out bytes.Buffer
	tr, err := run(&out)
	require.NoError(t, err)

	bridge := tr.Tools["bridge"]
	require.GreaterOrEqual(t, len(bridge), 3, "the bridge conversation has several turns")
	for i, b := range bridge {
		assert.Equal(t, string(bridge[0]), string(b), "bridge tools on request %d", i+1)
	}

	main := tr.Tools["main"]
	require.Len(t, main, 3)
	assert.NotContains(t, string(main[0]), `"mcp__slack__send_message"`, "request 1 has no deferred tool")
	assert.Contains(t, string(main[1]), `"name":"mcp__slack__send_message"`, "request 2 carries the discovered tool")
	assert.Contains(t, string(main[1]), `"defer_loading":true`)
	assert.Equal(t, string(main[2]), string(tr.Tools["compacted"][0]), "tools after compaction and restore")
	assert.Contains(t, string(tr.History),
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":[{"type":"tool_reference","tool_name":"mcp__slack__send_message"}]},{"type":"text","text":"Tool loaded."}]}`,
		"the tool_result holds only the reference; Tool loaded. follows it in the same user message")

	for _, b := range tr.Tools["subagent"] {
		assert.NotContains(t, string(b), "mcp__slack", "the subagent never gets a tool outside its scope")
	}
	assert.Contains(t, out.String(), "mcp__slack__send_message refused: No tool named mcp__slack__send_message is available.")
	assert.False(t, strings.Contains(out.String(), ": false"), "every check in the log holds:\n%s", out.String())
}
