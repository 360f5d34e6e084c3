package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQuickstartOutput(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out))
	assert.Equal(t, `tools: Read, ToolSearch
system prompt: The following deferred tools are available via ToolSearch:
WebFetch, mcp__github__create_issue, mcp__slack__send_message

ToolSearch {"query":"github issue"}
  tool_result: [{"type":"tool_reference","tool_name":"mcp__github__create_issue"}]
  then: [{"type":"text","text":"Tool loaded."}]
ToolSearch {"query":"select:WebFetch,web_fetch2"}
  tool_result: [{"type":"tool_reference","tool_name":"WebFetch"},{"type":"text","text":"No tool named \"web_fetch2\" (did you mean WebFetch?)."}]
  then: [{"type":"text","text":"Tool loaded."}]
ToolSearch {"query":"slack","max_results":0}
  error: Invalid ToolSearch input: max_results: must be >= 1 but found 0; expected {"query": string, "max_results"?: integer ≥ 1}
`, out.String())
}
