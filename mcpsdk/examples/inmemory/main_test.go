package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	assert.Equal(t, `connected: 1 tool(s) listed
tools/list_changed: 2 tool(s) listed
The following deferred tools are available via ToolSearch:
mcp__weather__get_alerts, mcp__weather__get_forecast
ToolSearch "forecast city" → {"matches":[{"name":"mcp__weather__get_forecast","description":"Get the weather forecast for a city","schema":{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"}}],"query":"forecast city","total_deferred_tools":2}
call: Sunny, 21°C for {"city":"Paris"}
`, out.String())
}
