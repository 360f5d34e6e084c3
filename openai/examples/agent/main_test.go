package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

func TestRunScripted(t *testing.T) {
	tests := []struct {
		name string
		run  func(context.Context, *bytes.Buffer, openai.Client) error
		want string
	}{
		{"responses",
			func(ctx context.Context, w *bytes.Buffer, c openai.Client) error {
				return runResponses(ctx, w, c, "gpt-5.6-sol")
			},
			`turn 1: tools [get_time tool_search]
  model calls tool_search {"query":"weather forecast"}
  discovered: [mcp__weather__get_alerts mcp__weather__get_forecast]
turn 2: tools [get_time tool_search mcp__weather__get_alerts mcp__weather__get_forecast]
  model calls mcp__weather__get_forecast {"city":"Paris"}
turn 3: tools [get_time tool_search mcp__weather__get_alerts mcp__weather__get_forecast]
  model: Tomorrow in Paris: sunny, 21°C.
`},
		{"chat",
			func(ctx context.Context, w *bytes.Buffer, c openai.Client) error {
				return runChat(ctx, w, c, "gpt-5.6-sol")
			},
			`turn 1: tools [get_time ToolSearch]
  model calls ToolSearch {"query":"weather forecast"}
  discovered: [mcp__weather__get_alerts mcp__weather__get_forecast]
turn 2: tools [get_time ToolSearch mcp__weather__get_alerts mcp__weather__get_forecast]
  model calls mcp__weather__get_forecast {"city":"Paris"}
turn 3: tools [get_time ToolSearch mcp__weather__get_alerts mcp__weather__get_forecast]
  model: Tomorrow in Paris: sunny, 21°C.
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := toolsearchtest.NewServer(script...)
			defer model.Close()
			var out bytes.Buffer
			client := openai.NewClient(option.WithBaseURL(model.URL), option.WithAPIKey("scripted"), option.WithMaxRetries(0))
			require.NoError(t, tt.run(context.Background(), &out, client))
			assert.Equal(t, tt.want, out.String())
			assert.Len(t, model.Requests(), 3)
		})
	}
}
