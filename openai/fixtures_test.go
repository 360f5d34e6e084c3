package tsopenai_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	tsopenai "github.com/toolsearch/toolsearch/openai"
)

// The registries the wire tests run over. The anthropic, eino and genkit
// modules' tests have the same ones: test data is not shared between
// separately versioned modules.

// weatherRegistry returns a registry of one tool that is always loaded
// (get_time) and three MCP tools, which are deferred
// (mcp__weather__get_forecast, mcp__weather__get_alerts,
// mcp__mail__send_email).
func weatherRegistry(t testing.TB) *toolsearch.Registry {
	t.Helper()
	city := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}`)
	reg, err := toolsearch.NewRegistry(nil,
		toolsearch.Tool{Name: "get_time", Description: "Current time in UTC", InputSchema: json.RawMessage(`{"type":"object"}`)},
		toolsearch.NewMCPTool("weather", "get_forecast", "Get the weather forecast for a city", city, nil),
		toolsearch.NewMCPTool("weather", "get_alerts", "Severe weather alerts for a region", json.RawMessage(`{"type":"object","properties":{"region":{"type":"string"}}}`), nil),
		toolsearch.NewMCPTool("mail", "send_email", "Send an email", json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"},"body":{"type":"string"}},"required":["to","body"]}`), nil),
	)
	require.NoError(t, err)
	return reg
}

// brokenSchemaRegistry returns a registry of one tool that is always
// loaded (get_time), one that is not deferred and whose lazy schema fails
// to load ("broken", with the error "server said no"), and one MCP tool
// (mcp__weather__get_forecast), so that ToolSearch is offered.
func brokenSchemaRegistry(t testing.TB) *toolsearch.Registry {
	t.Helper()
	reg, err := toolsearch.NewRegistry(nil,
		toolsearch.Tool{Name: "get_time", Description: "Current time in UTC"},
		toolsearch.Tool{Name: "broken", LoadSchema: func() (json.RawMessage, error) { return nil, errors.New("server said no") }},
		toolsearch.NewMCPTool("weather", "get_forecast", "Get the weather forecast for a city", nil, nil),
	)
	require.NoError(t, err)
	return reg
}

func newChat(t testing.TB, reg *toolsearch.Registry, opts *toolsearch.SessionOptions) *tsopenai.ChatSession {
	t.Helper()
	s, err := tsopenai.NewChatSession(reg, opts)
	require.NoError(t, err)
	return s
}

func newResponses(t testing.TB, reg *toolsearch.Registry, opts *toolsearch.SessionOptions) *tsopenai.ResponsesSession {
	t.Helper()
	s, err := tsopenai.NewResponsesSession(reg, opts)
	require.NoError(t, err)
	return s
}
