// Package text holds the text helpers of the core that know nothing of
// tools: the regular-expression word boundary \b over ASCII word
// characters (which the keyword rules match with), lowercased texts,
// JavaScript whitespace and line terminators, name folding, and the
// quoting of untrusted input in texts for the model (Echo, Clip).
package text

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/internal/words"
)

// isWordByte reports whether c is an ASCII word character [A-Za-z0-9_].
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// boundary reports whether the regular-expression \b (ASCII word
// characters) holds at byte i of s.
func boundary(s string, i int) bool {
	before := i > 0 && isWordByte(s[i-1])
	after := i < len(s) && isWordByte(s[i])
	return before != after
}

// WordEnd returns the end of the first match in text of the regular
// expression \bterm\b, with term taken literally and ASCII word
// characters (some occurrence of term has a word boundary at both ends),
// or -1: how much of the text a check reads.
func WordEnd(text, term string) int {
	if term == "" {
		return -1
	}
	for off := 0; ; {
		i := strings.Index(text[off:], term)
		if i < 0 {
			return -1
		}
		i += off
		if boundary(text, i) && boundary(text, i+len(term)) {
			return i + len(term)
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		off = i + n
	}
}

// Lowered is a description or hint as the word rules see it: lowercased. An
// ASCII text is kept as it is and compared with ASCII case folding, which
// is the same as comparing its lowercased form (lowering ASCII changes no
// length and no word boundary), so that no lowercased copy of every
// description is kept; any other text is kept lowercased. Either way, its
// words read the same under ASCII case folding, so nothing says which.
type Lowered struct {
	s string // the ASCII text itself, or the lowercased text
}

// NewLowered returns s as the word rules see it.
func NewLowered(s string) Lowered {
	if !isASCII(s) {
		return Lowered{s: words.Lower(s)}
	}
	return Lowered{s: s}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Len returns the length of the text in bytes.
func (t Lowered) Len() int { return len(t.s) }

// End returns the end of the first match of \bterm\b in the lowercased
// text, or -1 (see WordEnd).
func (t Lowered) End(term string) int {
	if isASCII(term) {
		// Right for a lowercased text too: it has no uppercase ASCII.
		return wordEndFold(t.s, term)
	}
	return WordEnd(t.s, term) // never in an ASCII text
}

// Runs calls fn with every run of the lowercased text that a keyword term
// can equal (see Runs). A run may be built for the call: keep a clone.
func (t Lowered) Runs(fn func(string)) {
	Runs(t.s, func(r string) {
		if isWordByte(r[0]) {
			r = strings.ToLower(r) // (r itself when it has no uppercase)
		}
		fn(r)
	})
}

// RunBytes is Runs with each run copied, lowercased, into buf (grown as
// needed, and returned for reuse): fn may read the bytes only during the
// call.
func (t Lowered) RunBytes(buf []byte, fn func([]byte)) []byte {
	Runs(t.s, func(r string) {
		buf = append(buf[:0], r...)
		if isWordByte(r[0]) { // ASCII: the lowercase of each byte
			for i, c := range buf {
				buf[i] = lowerASCII[c]
			}
		}
		fn(buf)
	})
	return buf
}

// Runs calls fn, in order, with every maximal run of ASCII word
// characters of s, and every maximal run of other characters that has a
// word character on each side and holds no whitespace. These are the runs
// a term can match: \bterm\b holds exactly where each of the term's own
// runs is such a run of the text (a term holds no whitespace; a run of
// other characters at an edge of the term needs a word character beyond
// it for \b to hold there).
func Runs(s string, fn func(string)) {
	for start := 0; start < len(s); {
		word := isWordByte(s[start])
		end := start + 1
		for end < len(s) && isWordByte(s[end]) == word {
			end++
		}
		if word || start > 0 && end < len(s) && !hasSpace(s[start:end]) {
			fn(s[start:end])
		}
		start = end
	}
}

// TermRuns calls fn with every maximal run of ASCII word characters and
// every maximal run of other characters of term, in order.
func TermRuns(term string, fn func(string)) {
	for start := 0; start < len(term); {
		word := isWordByte(term[start])
		end := start + 1
		for end < len(term) && isWordByte(term[end]) == word {
			end++
		}
		fn(term[start:end])
		start = end
	}
}

// OneRun reports whether s is one run: made only of ASCII word characters,
// or only of other characters.
func OneRun(s string) bool {
	for i := 1; i < len(s); i++ {
		if isWordByte(s[i]) != isWordByte(s[0]) {
			return false
		}
	}
	return s != ""
}

// hasSpace reports whether s holds JavaScript whitespace.
func hasSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf {
			if c == ' ' || c >= '\t' && c <= '\r' {
				return true
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if words.IsSpace(r) {
			return true
		}
		i += n - 1
	}
	return false
}

// lowerASCII maps each byte to its ASCII lowercase.
var lowerASCII = func() (m [256]byte) {
	for i := range m {
		m[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			m[i] += 'a' - 'A'
		}
	}
	return m
}()

// wordEndFold is WordEnd(strings.ToLower(text), term) for a term of
// ASCII characters: text's ASCII letters are compared folded.
func wordEndFold(text, term string) int {
	if term == "" || len(term) > len(text) {
		return -1
	}
	for i := 0; i < len(term); i++ {
		if term[i] >= utf8.RuneSelf || lowerASCII[term[i]] != term[i] {
			return -1 // the lowercased ASCII text has no such byte
		}
	}
	first := term[0]
	for i := 0; i+len(term) <= len(text); i++ {
		if lowerASCII[text[i]] != first {
			continue
		}
		j := 1
		for j < len(term) && lowerASCII[text[i+j]] == term[j] {
			j++
		}
		if j == len(term) && boundary(text, i) && boundary(text, i+len(term)) {
			return i + len(term)
		}
	}
	return -1
}

// HasLineTerminator reports whether s has a JavaScript line terminator:
// \n, \r, U+2028 or U+2029 (strings.ContainsAny with them is several times
// slower, and select: queries test it on every call).
func HasLineTerminator(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n', '\r':
			return true
		case 0xe2: // U+2028 and U+2029 are e2 80 a8 and e2 80 a9
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9) {
				return true
			}
		}
	}
	return false
}

// MoreFields reports whether s has more than limit whitespace-separated
// fields. It allocates nothing.
func MoreFields(s string, limit int) bool {
	return limit < len(s) && CountFields(s, limit+1) > limit
}

// CountFields counts the whitespace-separated fields of s, stopping at
// upTo. It allocates nothing.
func CountFields(s string, upTo int) int {
	n := 0
	in := false
	for _, c := range s {
		if words.IsSpace(c) {
			in = false
			continue
		}
		if !in {
			in = true
			if n++; n == upTo {
				return n
			}
		}
	}
	return n
}

// FoldName lowercases n and drops '_', '-' and '.'.
func FoldName(n string) string { return Unseparated(words.Lower(n)) }

// Unseparated returns s without '_', '-' and '.', the characters that
// separate or join name parts.
func Unseparated(s string) string {
	i := 0
	for i < len(s) && s[i] != '_' && s[i] != '-' && s[i] != '.' {
		i++
	}
	if i == len(s) {
		return s
	}
	if isASCII(s) {
		var b strings.Builder
		b.Grow(len(s))
		for i := 0; i < len(s); i++ {
			if c := s[i]; c != '_' && c != '-' && c != '.' {
				b.WriteByte(c)
			}
		}
		return b.String()
	}
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' {
			return -1
		}
		return r
	}, s)
}

// ValidUTF8 returns s with each byte that is not part of a valid UTF-8
// encoding replaced by U+FFFD, as a JSON decoder reads it, so that text
// given directly (not through JSON) is read the same way as text sent as
// JSON.
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// MaxEcho is the most bytes of a model's or a server's input that Echo
// quotes: enough for any valid tool name (128 bytes).
const MaxEcho = 128

// Echo returns s as a text may quote it: valid UTF-8 (an invalid byte
// becomes U+FFFD), and, when longer than MaxEcho bytes, its first ones
// followed by "…" and the length. Every text that repeats input from a
// model or a server (names, numbers, history entries) goes through it, so
// that no text grows with the input or carries invalid UTF-8.
func Echo(s string) string {
	if len(s) <= MaxEcho {
		return ValidUTF8(s)
	}
	return Prefix(s, MaxEcho) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// Prefix returns the first n bytes of s, or fewer so as not to split a
// character, as valid UTF-8.
func Prefix(s string, n int) string {
	if len(s) <= n {
		return ValidUTF8(s)
	}
	for back := 0; back < utf8.UTFMax-1 && n > 0 && !utf8.RuneStart(s[n]); back++ {
		n-- // a character cut in two; bytes that start none are replaced
	}
	return ValidUTF8(s[:n])
}

// MaxClip is the length Clip cuts a message to, in bytes.
const MaxClip = 300

// Clip cuts one message (of the schema library, or of a user's or a
// server's error) to MaxClip bytes, as valid UTF-8.
func Clip(m string) string {
	if len(m) <= MaxClip {
		return ValidUTF8(m)
	}
	return Prefix(m, MaxClip) + "…"
}

// UTF16Prefix returns the longest prefix of s that is at most n UTF-16
// code units long without splitting a character (a character outside the
// Basic Multilingual Plane is two units), and whether it is shorter than s:
// JavaScript's s.slice(0, n), less a surrogate left alone at the end.
func UTF16Prefix(s string, n int) (string, bool) {
	if len(s) <= n { // a UTF-16 code unit takes at least one byte
		return s, false
	}
	units := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return s[:i], true
		}
		units += w
	}
	return s, false
}
