package tsanthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
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

// TestHandleErrorText: the tool_result of a ToolSearch call that cannot be
// answered holds toolsearch.ModelText(err): the package's own words carry
// no "toolsearch:" prefix, and a user's error text is not rewritten.
func TestHandleErrorText(t *testing.T) {
	s := newSession(t, weatherRegistry(t), &toolsearch.SessionOptions{Search: toolsearch.SearchOptions{Strategy: refusing{}}})
	for _, tt := range []struct {
		input, want string
		users       bool // the text holds the user's error
	}{
		{`{"query":"forecast"}`, "Invalid ToolSearch input: toolsearch: the strategy's own words", true},
		{`{}`, "Invalid ToolSearch input: missing properties: 'query'", false},
	} {
		a, ok := s.Handle(context.Background(), anthropic.ToolUseBlock{ID: "toolu_1", Name: toolsearch.ToolSearchName, Input: json.RawMessage(tt.input)})
		require.True(t, ok)
		require.NotNil(t, a.ToolResult.OfToolResult, tt.input)
		res := a.ToolResult.OfToolResult
		assert.True(t, res.IsError.Value, tt.input)
		require.Len(t, res.Content, 1, tt.input)
		text := res.Content[0].OfText.Text
		assert.Contains(t, text, tt.want, tt.input)
		if !tt.users {
			assert.NotContains(t, text, "toolsearch:", "the package's own text has no Go package prefix: %s", tt.input)
		}
	}
}
