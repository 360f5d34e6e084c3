package text

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/words"
)

// randomText returns a generator of texts of n pieces drawn from alphabet.
func randomText(rng *rand.Rand, alphabet ...string) func(n int) string {
	return func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
}

// TestHasWordEqualsRegexp checks WordEnd against Go's regexp \b (ASCII word
// characters, as in JavaScript) on random texts and terms.
func TestHasWordEqualsRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := randomText(rng, "a", "b", "_", "1", " ", "-", "+", ".", "é", "(", "ab", "c++")
	for range 20000 {
		text, term := gen(rng.IntN(12)), gen(1+rng.IntN(3))
		want := regexp.MustCompile(`\b` + regexp.QuoteMeta(term) + `\b`).MatchString(text)
		require.Equal(t, want, WordEnd(text, term) >= 0, "WordEnd(%q, %q)", text, term)
	}
}

// TestTermRunsAreIndexed checks what the keyword index relies on: where
// \bterm\b matches a text, every run of the term is one of the text's
// runs (Runs), so the tools that have them all are the only
// candidates; and for a term of one run, being one of the text's runs is
// the same as matching.
func TestTermRunsAreIndexed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	gen := randomText(rng, "a", "b", "_", "1", " ", "-", "+", ".", "é", "(", "ab", "c++", "--", "\u00a0", "\x00")
	oneRunTerms := 0
	for range 50000 {
		text, term := gen(rng.IntN(12)), gen(1+rng.IntN(3))
		if words.TrimSpace(term) != term || len(words.Fields(term)) != 1 {
			continue // terms hold no whitespace
		}
		runs := map[string]bool{}
		Runs(text, func(r string) { runs[r] = true })
		match := WordEnd(text, term) >= 0
		all := true
		TermRuns(term, func(r string) { all = all && runs[r] })
		if match {
			require.True(t, all, "WordEnd(%q, %q) ≥ 0 but a run of the term is not one of the text's runs %q", text, term, runs)
		}
		if OneRun(term) {
			oneRunTerms++
			require.Equal(t, match, runs[term], "WordEnd(%q, %q) ≥ 0 against the runs %q", text, term, runs)
		}
	}
	assert.Greater(t, oneRunTerms, 5000)
}

// TestLowerTextEqualsLowered checks that a description kept as it is and
// compared with ASCII case folding (an ASCII text) answers every word
// question as its lowercased copy would, and yields the same words.
func TestLowerTextEqualsLowered(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gen := randomText(rng, "a", "B", "b", "A", "_", "1", " ", "-", "+", ".", "é", "É", "(", "aB", "C++", "İ", "K", "Σ")
	runs := func(lt Lowered) []string {
		var out []string
		lt.Runs(func(w string) { out = append(out, w) })
		return out
	}
	folded := 0
	for range 50000 {
		s, term := gen(rng.IntN(14)), words.Lower(gen(1+rng.IntN(3)))
		lt := NewLowered(s)
		if lt.s == s {
			folded++
		}
		low := words.Lower(s)
		require.Equal(t, WordEnd(low, term), lt.End(term), "NewLowered(%q).End(%q)", s, term)
		var want []string
		Runs(low, func(w string) { want = append(want, w) })
		require.Equal(t, want, runs(lt), "NewLowered(%q).Runs", s)
	}
	assert.Greater(t, folded, 1000, "the ASCII (folded) case is exercised")
	assert.Less(t, folded, 49000, "the non-ASCII (lowered) case is exercised")
	assert.Equal(t, Lowered{s: "Create an Issue"}, NewLowered("Create an Issue"), "an ASCII text is not copied")
	assert.Equal(t, Lowered{s: "créer"}, NewLowered("Créer"))
}

// TestEcho: a text quotes input by a short, valid prefix.
func TestEcho(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Read", "Read"},
		{"bad\xffname", "bad\ufffdname"},
		{strings.Repeat("a", MaxEcho), strings.Repeat("a", MaxEcho)},
		{strings.Repeat("a", MaxEcho+1), strings.Repeat("a", MaxEcho) + "… (129 bytes)"},
		{strings.Repeat("a", MaxEcho-1) + "é", strings.Repeat("a", MaxEcho-1) + "… (129 bytes)"},
	} {
		assert.Equal(t, tc.want, Echo(tc.in), "Echo(%.40q)", tc.in)
	}
}

func TestUTF16Prefix(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
		cut  bool
	}{
		{"abc", 3, "abc", false},
		{"abcd", 3, "abc", true},
		{"ééé", 3, "ééé", false}, // 6 bytes, 3 units
		{"éééé", 3, "ééé", true},
		{"ab😀", 3, "ab", true}, // the pair would be split
		{"ab😀", 4, "ab😀", false},
		{"ab😀c", 4, "ab😀", true},
		{"", 0, "", false},
		{"a", 0, "", true},
	} {
		got, cut := UTF16Prefix(c.in, c.n)
		assert.Equal(t, c.want, got, "UTF16Prefix(%q, %d)", c.in, c.n)
		assert.Equal(t, c.cut, cut, "UTF16Prefix(%q, %d) cut", c.in, c.n)
	}
}

// TestRunBytesEqualsRuns checks that RunBytes gives the runs Runs gives,
// lowercased as Lowered.Runs gives them, on random texts.
func TestRunBytesEqualsRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gen := randomText(rng, "a", "B", "_", "1", " ", "-", "+", ".", "É", "(", "Ab", "c++", "HTTP", "\n", "\xff")
	var buf []byte
	for range 5000 {
		l := NewLowered(gen(rng.IntN(12)))
		var want, got []string
		l.Runs(func(r string) { want = append(want, strings.Clone(r)) })
		buf = l.RunBytes(buf, func(r []byte) { got = append(got, string(r)) })
		require.Equal(t, want, got, "the runs of %q", l.s)
	}
}

// TestUnseparated checks Unseparated against dropping '_', '-' and '.'
// with strings.Map (which also reads invalid UTF-8 as U+FFFD) when there
// is one to drop, on random names.
func TestUnseparated(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	gen := randomText(rng, "a", "_", "-", ".", "Z", "9", "é", "\xff", "__")
	for range 5000 {
		s := gen(rng.IntN(10))
		want := s
		if strings.ContainsAny(s, "_-.") {
			want = strings.Map(func(r rune) rune {
				if r == '_' || r == '-' || r == '.' {
					return -1
				}
				return r
			}, s)
		}
		require.Equal(t, want, Unseparated(s), "Unseparated(%q)", s)
	}
}
