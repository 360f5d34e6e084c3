package words

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWords(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"punctuation splits", "Fetch a URL, then parse_it!", []string{"fetch", "a", "url", "then", "parse", "it"}},
		{"digits kept", "OAuth2 v1.5", []string{"oauth2", "v1", "5"}},
		{"unicode letters", "Größe café", []string{"größe", "café"}},
		{"cjk run is one word", "使用必应搜索 now", []string{"使用必应搜索", "now"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Words(nil, tt.in), "Words(%q)", tt.in)
		})
	}
}

func TestLowerMatchesJavaScript(t *testing.T) {
	for in, want := range map[string]string{
		"ABC":      "abc",
		"İstanbul": "i\u0307stanbul",
		"ΟΔΟΣ":     "οδος",
		"ΣΑΣ ΣΑ":   "σας σα",
		"Σ":        "σ",
	} {
		assert.Equal(t, want, Lower(in), "Lower(%q)", in)
	}
}

func TestStem(t *testing.T) {
	groups := map[string][]string{
		"creat":    {"create", "creates", "created", "creating"},
		"issu":     {"issue", "issues"},
		"category": {"category", "categories"},
		"run":      {"run", "runs", "running"},
		"process":  {"process", "processes"},
		"status":   {"status"},
		"box":      {"box", "boxes"},
		"match":    {"match", "matches", "matched"},
		"fil":      {"file", "files"},
		"get":      {"get"},
		"café":     {"café"},
		"is":       {"is"},
	}
	for want, words := range groups {
		for _, w := range words {
			assert.Equal(t, want, Stem(w), "Stem(%q)", w)
		}
	}
}

func TestTerms(t *testing.T) {
	words := func(ts []Term) (out []string) {
		for _, t := range ts {
			w := t.Word
			if t.Required {
				w = "+" + w
			}
			out = append(out, w)
		}
		return out
	}
	tests := []struct {
		name, in string
		want     []string
	}{
		{"stop words dropped", "Can you please send a message to the team?", []string{"send", "message", "team"}},
		{"only stop words kept", "what is it", []string{"what", "is", "it"}},
		{"repeats count once", "issue issues Issue", []string{"issue"}},
		{"required", "+slack send", []string{"+slack", "send"}},
		{"a required stop word stays", "+the end", []string{"+the", "end"}},
		{"punctuation splits", "create_issue/github", []string{"create", "issue", "github"}},
		{"nothing", " \t", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, words(Terms(tt.in)), "Terms(%q)", tt.in)
		})
	}
}

// JavaScript whitespace splits and trims; U+0085 and U+200B do not.
func TestFields(t *testing.T) {
	assert.Equal(t, []string{"a", "b", "c", "d\u200be\u0085f"}, Fields("\ufeffa\u3000b\u2028c\u00a0d\u200be\u0085f\u205f"))
	assert.Equal(t, "a b", TrimSpace("\u3000a b\ufeff"))
}

func TestNameWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"getURLFor", []string{"get", "url", "for"}},
		{"HTTPRequest", []string{"http", "request"}},
		{"mcp__github__create_issue", []string{"github", "create", "issue"}},
		{"get-current-date", []string{"get", "current", "date"}},
		{"mcp__hackernews__getStoryWithComments", []string{"hackernews", "get", "story", "with", "comments"}},
		{"getPM2.5Level", []string{"get", "pm2", "5", "level"}},
		{"v2Api", []string{"v2", "api"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, NameWords(nil, tt.in))
		})
	}
}

// TestNameWordsASCIIEqualsRunes: NameWords of an ASCII name, cut on bytes,
// gives what the rune rules give, on random names of letters of both
// cases, digits and separators.
func TestNameWordsASCIIEqualsRunes(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	const chars = "aAbBzZ09_-. mcp_xX"
	for round := range 20000 {
		b := make([]byte, rng.IntN(14))
		for i := range b {
			b[i] = chars[rng.IntN(len(chars))]
		}
		name := string(b)
		if rng.IntN(4) == 0 {
			name = "mcp__" + name
		}
		want := nameWordsRunes(nil, strings.TrimPrefix(name, "mcp__"))
		got := NameWords(nil, name)
		if len(want) == 0 {
			want = nil
		}
		require.Equal(t, want, got, "round %d: %q", round, name)
	}
	require.Equal(t, []string{"get", "http", "url", "v2"}, NameWords(nil, "getHTTPUrl_v2"))
	require.Equal(t, []string{"çava", "bien"}, NameWords(nil, "çava_Bien"), "not ASCII: the rune rules")
}
