package toolsearch

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProfileText(t *testing.T) {
	for _, p := range []Profile{ClaudeCode2_1_89, ClaudeCode2_1_332} {
		b, err := p.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, p.String(), string(b))
		var q Profile
		require.NoError(t, q.UnmarshalText(b), "UnmarshalText(%q)", b)
		assert.Equal(t, p, q, "round trip of %s", p)
	}
	assert.Equal(t, "claude-code-2.1.89", Profile(0).String(), "the zero Profile")
	assert.Equal(t, "claude-code-2.1.332", ClaudeCode2_1_332.String())
	assert.Equal(t, "Profile(7)", Profile(7).String())

	q := ClaudeCode2_1_332
	require.NoError(t, q.UnmarshalText(nil), "the empty text is the default")
	assert.Equal(t, ClaudeCode2_1_89, q)
	err := q.UnmarshalText([]byte("claude-code-2.2"))
	require.ErrorIs(t, err, ErrInvalidOption)
	assert.Contains(t, err.Error(), `"claude-code-2.2"`)

	// In JSON, as a map key or a field, it reads as text.
	var opts struct{ Profile Profile }
	require.NoError(t, json.Unmarshal([]byte(`{"Profile":"claude-code-2.1.332"}`), &opts))
	assert.Equal(t, ClaudeCode2_1_332, opts.Profile)
	b, err := json.Marshal(opts)
	require.NoError(t, err)
	assert.JSONEq(t, `{"Profile":"claude-code-2.1.332"}`, string(b))
}

func TestToolLoadedSent(t *testing.T) {
	for _, c := range []struct {
		p    Profile
		m    ModelTraits
		want bool
	}{
		{ClaudeCode2_1_89, ModelTraits{}, true},
		{ClaudeCode2_1_89, ModelTraits{SystemMessages: true}, true}, // 2.1.89 has no such models
		{ClaudeCode2_1_332, ModelTraits{}, true},
		{ClaudeCode2_1_332, ModelTraits{SystemMessages: true}, false},
		{ClaudeCode2_1_332, ModelTraits{SystemMessages: true, ToolLoadedText: true}, true},
		{ClaudeCode2_1_332, ModelTraits{ToolLoadedText: true}, true},
	} {
		assert.Equal(t, c.want, toolLoadedSent(c.p, c.m), "%s %+v", c.p, c.m)
	}
}
