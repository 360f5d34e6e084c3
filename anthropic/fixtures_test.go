package tsanthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	tsanthropic "github.com/toolsearch/toolsearch/anthropic"
)

// The registries the wire tests run over. The openai, eino and genkit
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

func newSession(t testing.TB, reg *toolsearch.Registry, opts *toolsearch.SessionOptions) *tsanthropic.Session {
	t.Helper()
	s, err := tsanthropic.NewSession(reg, opts)
	require.NoError(t, err)
	return s
}

// handle answers use with s, if it is a ToolSearch call, into results.
func handle(s *tsanthropic.Session, results *tsanthropic.ToolResults, use anthropic.ToolUseBlock) bool {
	a, ok := s.Handle(context.Background(), use)
	if ok {
		results.AddAnswer(a)
	}
	return ok
}

// converse runs an agent loop over the scripted model at url, as Claude
// Code's recorded conversations do: on the first turn opening(ann) gives
// the messages that start the history; later turns must announce nothing;
// ToolSearch calls are answered by the session, every other call must be
// the Slack send and is answered with result. It returns the history once
// the model stops calling tools, within turns turns.
func converse(t *testing.T, conv *tsanthropic.Session, url string, turns int,
	opening func(toolsearch.Announcement) []anthropic.MessageParam, result string) []anthropic.MessageParam {
	t.Helper()
	client := anthropic.NewClient(option.WithBaseURL(url), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	return conversation{
		turns: turns,
		next: func(turn int, msgs []anthropic.MessageParam) []anthropic.MessageParam {
			ann := conv.Announce()
			if turn == 1 {
				require.True(t, ann.Full)
				return append(msgs, opening(ann)...)
			}
			require.Empty(t, ann.Text, "turn %d: nothing changed, nothing to announce", turn)
			return msgs
		},
		answer: func(use anthropic.ToolUseBlock) anthropic.ContentBlockParamUnion {
			call, err := conv.CheckCall(use.Name, use.Input)
			require.NoError(t, err, "the model calls %s", use.Name)
			require.Equal(t, "mcp__slack__send_message", call.Tool.Name)
			return anthropic.ContentBlockParamUnion{OfToolResult: &anthropic.ToolResultBlockParam{
				ToolUseID: use.ID,
				Content:   []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: result}}},
			}}
		},
	}.run(t, client, conv, nil)
}
