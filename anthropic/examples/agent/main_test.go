package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

func TestRunScripted(t *testing.T) {
	model := toolsearchtest.NewServer(script...)
	defer model.Close()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, anthropic.NewClient(option.WithBaseURL(model.URL), option.WithAPIKey("scripted"))))
	assert.Equal(t, `turn 1: tools [get_time ToolSearch]
  model calls ToolSearch {"query":"weather forecast"}
  discovered: [mcp__weather__get_alerts mcp__weather__get_forecast]
turn 2: tools [get_time ToolSearch mcp__weather__get_alerts mcp__weather__get_forecast]
  model calls mcp__weather__get_forecast {"city":"Paris"}
turn 3: tools [get_time ToolSearch mcp__weather__get_alerts mcp__weather__get_forecast]
  model: Tomorrow in Paris: sunny, 21°C.
`, out.String())
	reqs := model.Requests()
	require.Len(t, reqs, 3)
	var second struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(reqs[1].Body, &second))
	require.Len(t, second.Messages, 3)
	assert.JSONEq(t, `[{"type":"tool_result","tool_use_id":"toolu_1","content":[
		{"type":"tool_reference","tool_name":"mcp__weather__get_forecast"},{"type":"tool_reference","tool_name":"mcp__weather__get_alerts"}]},
		{"type":"text","text":"Tool loaded."}]`, string(second.Messages[2].Content), "the ToolSearch answer as the second request sends it")
}
