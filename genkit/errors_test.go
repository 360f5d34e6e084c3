package tsgenkit

import (
	"context"
	"errors"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/genkit/genkittest"
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

// TestGenerateErrorText: the tool outputs of a ToolSearch call that cannot
// be answered and of a refused call hold toolsearch.ModelText(err): a
// user's error text is not rewritten, and the package's own words carry
// no "toolsearch:" prefix.
func TestGenerateErrorText(t *testing.T) {
	tt := newTestTools()
	conv := newConversation(t, &Options{DynamicTools: tt.dyn}, &toolsearch.SessionOptions{Search: toolsearch.SearchOptions{Strategy: refusing{}}})
	m := genkittest.New(nil,
		genkittest.ToolCall("c1", "ToolSearch", `{"query":"mail"}`),
		genkittest.ToolCall("c2", "ToolSearch", `{"query":"select:send_email"}`),
		genkittest.ToolCall("c3", "send_email", `{"to":"bob@example.com"}`),
		ai.NewModelTextMessage("Done."))
	out := toolOutputs(generate(t, conv, m, tt, userText("Mail Bob.")).History())
	require.Len(t, out["ToolSearch"], 2)
	assert.Equal(t, "Invalid ToolSearch input: toolsearch: the strategy's own words", out["ToolSearch"][0], "the user's words as they are")
	require.Len(t, out["send_email"], 1)
	assert.Contains(t, out["send_email"][0], "The arguments for send_email do not match its schema")
	assert.NotContains(t, out["send_email"][0], "toolsearch:", "the package's own text has no Go package prefix")
	assert.Empty(t, tt.runs(), "the refused tool did not run")
}
