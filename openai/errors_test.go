package tsopenai_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// refusing is a user's strategy whose every ranked query fails with words
// of its own that look like a Go package prefix.
type refusing struct{}

func (refusing) Name() string                                 { return "refusing" }
func (refusing) Input() toolsearch.StrategyInput              { return toolsearch.StrategyInput{} }
func (refusing) Index(*toolsearch.Corpus) toolsearch.Index    { return refusing{} }
func (r refusing) Update(*toolsearch.Corpus) toolsearch.Index { return r }
func (refusing) Rank(context.Context, toolsearch.Query, []toolsearch.Hit) ([]toolsearch.Hit, []string, error) {
	return nil, nil, errors.New("toolsearch: the strategy's own words")
}

// errorCases are ToolSearch arguments that cannot be answered with the
// refusing strategy, and the text the model must get.
var errorCases = []struct {
	input, want string
	users       bool // the text holds the user's error
}{
	{`{"query":"forecast"}`, "Invalid ToolSearch input: toolsearch: the strategy's own words", true},
	{`{}`, "Invalid ToolSearch input: missing properties: 'query'", false},
}

func checkErrorText(t *testing.T, input, want string, users bool, text string) {
	t.Helper()
	assert.Contains(t, text, want, input)
	if !users {
		assert.NotContains(t, text, "toolsearch:", "the package's own text has no Go package prefix: %s", input)
	}
}

// TestHandleErrorText: the answer to a ToolSearch call that cannot be
// answered holds toolsearch.ModelText(err), in both APIs: the package's
// own words carry no "toolsearch:" prefix, and a user's error text is not
// rewritten.
func TestHandleErrorText(t *testing.T) {
	opts := &toolsearch.SessionOptions{Search: toolsearch.SearchOptions{Strategy: refusing{}}}
	chat := newChat(t, weatherRegistry(t), opts)
	resp := newResponses(t, weatherRegistry(t), opts)
	for _, tt := range errorCases {
		var call openai.ChatCompletionMessageToolCallUnion
		b, _ := json.Marshal(map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "ToolSearch", "arguments": tt.input}})
		require.NoError(t, json.Unmarshal(b, &call))
		msg, ok := chat.Handle(context.Background(), call)
		require.True(t, ok)
		require.NotNil(t, msg.OfTool, tt.input)
		checkErrorText(t, tt.input, tt.want, tt.users, msg.OfTool.Content.OfString.Value)

		var item responses.ResponseOutputItemUnion
		b, _ = json.Marshal(map[string]any{"type": "tool_search_call", "id": "ts_1", "call_id": "call_1", "arguments": json.RawMessage(tt.input), "execution": "client", "status": "completed"})
		require.NoError(t, json.Unmarshal(b, &item))
		a, ok := resp.Handle(context.Background(), item)
		require.True(t, ok)
		require.Len(t, a.Items, 3, "the call, its empty output and the user message: %s", tt.input)
		require.NotNil(t, a.Items[2].OfMessage, tt.input)
		checkErrorText(t, tt.input, tt.want, tt.users, a.Items[2].OfMessage.Content.OfString.Value)
	}
}
