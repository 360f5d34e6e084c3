package textanswer

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch"
)

func TestNewSessionRendersToolReferencesInline(t *testing.T) {
	reg, err := toolsearch.NewRegistry(nil, toolsearch.Tool{Name: "send_email", Description: "Send an email", ShouldDefer: true})
	require.NoError(t, err)
	s := NewSession(reg, &toolsearch.SessionOptions{Format: toolsearch.FormatToolReference})
	assert.Equal(t, toolsearch.FormatInline, s.Format())
	assert.Equal(t, toolsearch.FormatFunctions, NewSession(reg, &toolsearch.SessionOptions{Format: toolsearch.FormatFunctions}).Format())
}

func TestAnswer(t *testing.T) {
	reg, err := toolsearch.NewRegistry(nil, toolsearch.Tool{Name: "send_email", Description: "Send an email", ShouldDefer: true})
	require.NoError(t, err)
	for _, f := range []toolsearch.Format{toolsearch.FormatInline, toolsearch.FormatFunctions, toolsearch.FormatToolReference} {
		s := NewSession(reg, &toolsearch.SessionOptions{Format: f})
		args := json.RawMessage(`{"query":"select:send_email,Nope"}`)
		res, err := NewSession(reg, &toolsearch.SessionOptions{Format: f}).Call(args)
		require.NoError(t, err)
		content, after := res.Content(s.Format())
		require.Len(t, content, 1)
		require.Empty(t, after)
		got := Answer(s, args)
		assert.Equal(t, content[0].Text, got, "format %v", f)
		assert.Contains(t, got, "send_email")
		assert.Contains(t, got, "Nope", "the name not found is named")
		assert.Equal(t, []string{"send_email"}, s.Snapshot().Discovered, "format %v", f)

		_, callErr := s.Call(json.RawMessage(`{"query":7}`))
		require.Error(t, callErr)
		assert.Equal(t, callErr.Error(), Answer(s, json.RawMessage(`{"query":7}`)))
	}
}
