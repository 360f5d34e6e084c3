package eval

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/words"
)

func TestWordsPattern(t *testing.T) {
	reg, err := toolsearch.NewRegistry(nil, toolsearch.Tool{Name: "T", ShouldDefer: true})
	require.NoError(t, err)
	regex := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: toolsearch.RegexStrategy()})
	compiles := func(p string) error {
		if p == "" {
			return nil // an empty query is never a pattern
		}
		_, err := regex.Search(p, 1)
		return err
	}
	tests := []struct{ in, want string }{
		{"Send a message to the Slack channel, please", "send|message|slack|channel"},
		{"the a", "the|a"},
		{"", ""},
		{"C++ (v2.0)?", "c|v2|0"},
		{strings.Repeat("abcdefghi ", 30), "abcdefghi"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := WordsPattern(tt.in)
			assert.Equal(t, tt.want, got)
			assert.NoError(t, compiles(got))
		})
	}
	long := WordsPattern(strings.Repeat("word", 1) + " " + strings.Repeat("x", 300))
	assert.Equal(t, "word", long, "a word that does not fit is left out")
	var many []string
	for i := range 100 {
		many = append(many, "w"+strings.Repeat("q", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	assert.LessOrEqual(t, len([]rune(WordsPattern(strings.Join(many, " ")))), words.MaxPattern)
}
