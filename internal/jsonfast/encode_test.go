package jsonfast

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAppendStringMatchesMarshal: AppendString writes what json.Marshal
// writes for every string made of the characters it escapes and others,
// and PlainCompact says yes only for a JSON text that json.Marshal copies
// as it is (compact, and nothing it escapes).
func TestAppendStringMatchesMarshal(t *testing.T) {
	pieces := []string{"a", "Zz", " ", "\"", "\\", "<", ">", "&", "\n", "\t", "\r", "\b", "\f", "\x00", "\x1f", "\x7f",
		"é", "—", "\u2028", "\u2029", "\xff", "\xe2\x80", "日本", "😀", "/", "'"}
	rng := rand.New(rand.NewPCG(1, 2))
	plain := 0
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(AppendString(nil, s)), "AppendString(%q)", s)
		sep := []string{":", " : ", ":\n"}[rng.IntN(3)]
		doc := []byte(`{"k"` + sep + strings.ReplaceAll(string(want), `\u003c`, "<") + `}`)
		again, err := json.Marshal(json.RawMessage(doc)) // what a Result's schema becomes
		require.NoError(t, err)
		if PlainCompact(doc) {
			plain++
			require.Equal(t, string(again), string(doc), "PlainCompact(%q) but json.Marshal changes it", doc)
		}
	}
	require.Greater(t, plain, 100, "the plain case is exercised")
}
