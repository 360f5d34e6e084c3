// Package words holds the text rules that the toolsearch package and its
// eval package share: JavaScript's whitespace and lowercasing (queries are
// split and compared as Claude Code's JavaScript does), Unicode word runs,
// the light stemming and stop words of the hybrid strategy with its parsing
// of a query into terms, and the regex strategy's pattern length.
package words

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxPattern is the longest pattern the regex strategy accepts, in
// characters; eval.WordsPattern writes patterns that fit in it.
const MaxPattern = 200

// IsSpace reports whether r is JavaScript whitespace (String.prototype.trim
// and \s): Unicode space separators, line terminators and U+FEFF.
func IsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// TrimSpace removes JavaScript whitespace from both ends of s, as
// String.prototype.trim does.
func TrimSpace(s string) string { return strings.TrimFunc(s, IsSpace) }

// Fields splits s around runs of JavaScript whitespace.
func Fields(s string) []string { return strings.FieldsFunc(s, IsSpace) }

// Lower lowercases s as JavaScript's toLowerCase does: Unicode lowercase,
// with U+0130 becoming "i̇" and a final capital sigma becoming ς.
func Lower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch r {
		case 0x130:
			b.WriteString("i\u0307")
		case 'Σ':
			if finalSigma(s, i) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma applies Unicode's Final_Sigma condition to the Σ at byte i of
// s: a cased letter before it and none after it (case-ignorable characters
// skipped).
func finalSigma(s string, i int) bool {
	before := false
	for j := i; j > 0; {
		r, n := utf8.DecodeLastRuneInString(s[:j])
		j -= n
		if caseIgnorable(r) {
			continue
		}
		before = cased(r)
		break
	}
	if !before {
		return false
	}
	for j := i + len("Σ"); j < len(s); {
		r, n := utf8.DecodeRuneInString(s[j:])
		j += n
		if caseIgnorable(r) {
			continue
		}
		return !cased(r)
	}
	return true
}

func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
}

func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0xb7, 0x2018, 0x2019, 0x2024, 0x2027:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// IsWordRune reports whether r is a word character: a Unicode letter,
// digit or nonspacing mark.
func IsWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// Words appends the words of s to dst: the maximal runs of word characters
// (IsWordRune) of Lower(s).
func Words(dst []string, s string) []string {
	s = Lower(s)
	start := -1
	for i, r := range s {
		word := IsWordRune(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			dst = append(dst, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// Stem returns the light normal form of a lowercased word: plural and verb
// endings removed and a final e dropped, so that create, creates, created
// and creating all become creat. Words of three bytes or fewer, and words
// with non-ASCII letters, are kept as they are.
func Stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return w
		}
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	}
	for _, suf := range []string{"ing", "ed"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			w = w[:len(w)-len(suf)]
			if n := len(w); w[n-1] == w[n-2] && !strings.ContainsRune("aeiouslz", rune(w[n-1])) {
				w = w[:n-1] // running → run
			}
			break
		}
	}
	if strings.HasSuffix(w, "e") && len(w) > 3 {
		w = w[:len(w)-1]
	}
	return w
}

// stopWords are English function words and request phrasing that carry no
// meaning for finding a tool.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`a an the and or but if then else of to in on at by for from with without into onto
	about as is are was were be been being am do does did done have has had having it its this that these those there here
	i me my mine we us our you your yours he him his she her they them their what which who whom whose when where why how
	can could would should will shall may might must not no nor so too very just also only than such some any all each
	please thanks thank hey hi hello want wants need needs like would let lets know tell give show help me up out over
	via per using use`) {
		m[w] = true
	}
	return m
}()

// IsStop reports whether w, a lowercased word, is a stop word: an English
// function word or request phrasing ("please", "want") that carries no
// meaning for finding a tool.
func IsStop(w string) bool { return stopWords[w] }

// Term is one word of a query.
type Term struct {
	Word, Stem string
	Required   bool // the word came from a "+" token
}

// Terms parses a query into its words: the Words of its whitespace-separated
// tokens, those of a "+" token marked required; stop words dropped unless
// nothing else is left; words of the same Stem kept once (required if any
// was).
func Terms(query string) []Term {
	var all []Term
	for _, tok := range Fields(Lower(query)) {
		req := len(tok) > 1 && tok[0] == '+'
		if req {
			tok = tok[1:]
		}
		for _, w := range Words(nil, tok) {
			all = append(all, Term{w, Stem(w), req})
		}
	}
	var out []Term
	seen := map[string]int{}
	for _, t := range all {
		if IsStop(t.Word) && !t.Required {
			continue
		}
		if i, ok := seen[t.Stem]; ok {
			out[i].Required = out[i].Required || t.Required
			continue
		}
		seen[t.Stem] = len(out)
		out = append(out, t)
	}
	if len(out) == 0 {
		for _, t := range all {
			if _, ok := seen[t.Stem]; !ok {
				seen[t.Stem] = len(out)
				out = append(out, t)
			}
		}
	}
	return out
}

// NameWords appends the words of a tool name to dst: it loses a leading
// "mcp__" and splits at every character that is not a letter or digit
// ('_', '-', '.', …) and at camelCase boundaries (getURLFor → get, url,
// for; v2Api → v2, api), lowercased.
func NameWords(dst []string, name string) []string {
	name = strings.TrimPrefix(name, "mcp__")
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return nameWordsRunes(dst, name)
		}
	}
	// ASCII: the same rules on bytes, the words cut from name.
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			dst = append(dst, strings.ToLower(name[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !asciiLower(c) && !asciiUpper(c) && !asciiDigit(c) {
			flush(i)
			continue
		}
		if start >= 0 && asciiUpper(c) {
			prev := name[i-1]
			nextLower := i+1 < len(name) && asciiLower(name[i+1])
			if asciiLower(prev) || asciiDigit(prev) || (asciiUpper(prev) && nextLower) {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(name))
	return dst
}

func asciiLower(c byte) bool { return c >= 'a' && c <= 'z' }
func asciiUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func asciiDigit(c byte) bool { return c >= '0' && c <= '9' }

// nameWordsRunes is NameWords of a name that is not ASCII ("mcp__" cut).
func nameWordsRunes(dst []string, name string) []string {
	rs := []rune(name)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			dst = append(dst, Lower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			flush(i)
			continue
		}
		if start >= 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(rs))
	return dst
}
