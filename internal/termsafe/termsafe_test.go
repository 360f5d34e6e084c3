package termsafe

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriter: what a terminal acts on is escaped, what it shows is kept,
// whatever the write boundaries.
func TestWriter(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain text, newline and tab kept", "read a file\tnow\né ✓", "read a file\tnow\né ✓"},
		{"window title", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"clear screen and carriage return", "\x1b[2J\rok", `\x1b[2J\x0dok`},
		{"DEL and NUL", "a\x7fb\x00", `a\x7fb\x00`},
		{"C1 CSI", "\u009b2J", `\u009b2J`},
		{"invalid UTF-8", "a\xffb\xc2", `a\xffb\xc2`},
	}
	for _, c := range cases {
		for split := range len(c.in) + 1 {
			var b bytes.Buffer
			w := Writer(&b)
			n, err := w.Write([]byte(c.in[:split]))
			require.NoError(t, err)
			assert.Equal(t, split, n)
			_, err = w.Write([]byte(c.in[split:]))
			require.NoError(t, err)
			require.NoError(t, w.Flush())
			assert.Equal(t, c.want, b.String(), "%s, split at %d", c.name, split)
		}
	}
}

// FuzzWriter: whatever the input and the write boundary, the output has
// no control character but newline and tab, and is valid UTF-8.
func FuzzWriter(f *testing.F) {
	for _, s := range []string{"\x1b]0;t\x07", "\u009b", "é\xff", "ok\n"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, s string, split int) {
		split = max(0, min(len(s), split))
		var b bytes.Buffer
		w := Writer(&b)
		w.Write([]byte(s[:split]))
		w.Write([]byte(s[split:]))
		require.NoError(t, w.Flush())
		for _, r := range b.String() {
			if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f {
				t.Fatalf("%q written as %q: control %U left", s, b.String(), r)
			}
		}
		assert.True(t, utf8.Valid(b.Bytes()), "%q written as %q: not valid UTF-8", s, b.String())
	})
}
