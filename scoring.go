package toolsearch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Keyword scoring weights, added per query term (spec §4).
const (
	ScoreMCPPartExact     = 12 // a name part of an MCP tool equals the term
	ScorePartExact        = 10 // a name part of another tool equals the term
	ScoreMCPPartSubstring = 6  // else a name part of an MCP tool contains the term
	ScorePartSubstring    = 5  // else a name part of another tool contains the term
	ScoreFullName         = 3  // else the term joins two or more adjacent name parts
	ScoreHint             = 4  // the search hint has the term as a whole word
	ScoreDescription      = 2  // the description has the term as a whole word
)

// isSpace reports whether r is JavaScript whitespace (String.prototype.trim
// and \s): Unicode space separators, line terminators and U+FEFF.
func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

func trimSpace(s string) string { return strings.TrimFunc(s, isSpace) }

func splitSpace(s string) []string { return strings.FieldsFunc(s, isSpace) }

// lower lowercases s as JavaScript's toLowerCase does: Unicode lowercase,
// with U+0130 becoming "i̇" and a final capital sigma becoming ς.
func lower(s string) string {
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

// nameParts splits a tool name into the parts that keyword terms are
// matched against. An MCP name (mcp__server__tool) loses its prefix, is
// lowercased and split on "__" then "_". Any other name gets a space at every
// ASCII lowercase→uppercase boundary, '_' becomes a space, and it is
// lowercased and split on whitespace. Hyphens, dots and digits never split.
// It also reports whether the name scores as MCP.
func nameParts(name string) (parts []string, mcp bool) {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		for seg := range strings.SplitSeq(lower(rest), "__") {
			for p := range strings.SplitSeq(seg, "_") {
				if p != "" {
					parts = append(parts, p)
				}
			}
		}
		return parts, true
	}
	var b strings.Builder
	b.Grow(len(name) + 8)
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' && i > 0 && name[i-1] >= 'a' && name[i-1] <= 'z' {
			b.WriteByte(' ')
		}
		if c == '_' {
			c = ' '
		}
		b.WriteByte(c)
	}
	return splitSpace(lower(b.String())), false
}

// terms is a parsed keyword query.
type terms struct {
	required []string // terms given as +term
	all      []string // required terms first, then the others, in query order
}

// parseTerms splits a trimmed, lowercased keyword query into terms. A token
// "+x" with x non-empty makes x required; a lone "+" is an ordinary term.
// Repeated terms are kept: each occurrence scores again.
func parseTerms(q string) terms {
	toks := splitSpace(q)
	var t terms
	var optional []string
	for _, tok := range toks {
		if len(tok) > 1 && tok[0] == '+' {
			t.required = append(t.required, tok[1:])
		} else {
			optional = append(optional, tok)
		}
	}
	t.all = append(append(make([]string, 0, len(toks)), t.required...), optional...)
	return t
}

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

// hasWord reports whether text matches the regular expression \bterm\b with
// term taken literally and ASCII word characters: some occurrence of term in
// text has a word boundary at both ends.
func hasWord(text, term string) bool {
	if term == "" {
		return false
	}
	for off := 0; ; {
		i := strings.Index(text[off:], term)
		if i < 0 {
			return false
		}
		i += off
		if boundary(text, i) && boundary(text, i+len(term)) {
			return true
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		off = i + n
	}
}

// lowerText is a description or hint as the word rules see it: lowercased. An
// ASCII text is kept as it is and compared with ASCII case folding, which
// is the same as comparing its lowercased form (lowering ASCII changes no
// length and no word boundary), so that no lowercased copy of every
// description is kept; any other text is kept lowercased.
type lowerText struct {
	s    string // the text itself when fold, else its lowercased form
	fold bool
}

func newText(s string) lowerText {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return lowerText{s: lower(s)}
		}
	}
	return lowerText{s: s, fold: true}
}

// has reports whether the lowercased text matches \bterm\b (see hasWord).
func (t lowerText) has(term string) bool {
	if t.fold {
		return hasWordFold(t.s, term)
	}
	return hasWord(t.s, term)
}

// words calls fn with every maximal run of ASCII word characters of the
// lowercased text. A run may be built for the call: keep a clone.
func (t lowerText) words(fn func(string)) {
	if !t.fold {
		wordRuns(t.s, fn)
		return
	}
	wordRuns(t.s, func(w string) { fn(strings.ToLower(w)) })
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

// hasWordFold is hasWord(strings.ToLower(text), term) for an ASCII text,
// without building the lowercased text.
func hasWordFold(text, term string) bool {
	if term == "" || len(term) > len(text) {
		return false
	}
	for i := 0; i < len(term); i++ {
		if term[i] >= utf8.RuneSelf || lowerASCII[term[i]] != term[i] {
			return false // the lowercased ASCII text has no such byte
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
			return true
		}
	}
	return false
}

// spansParts reports whether term, with '_', '-' and '.' removed, equals two
// or more consecutive name parts joined together (the full-name fallback).
func spansParts(term string, parts []string) bool {
	flat := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' {
			return -1
		}
		return r
	}, term)
	if flat == "" {
		return false
	}
	for i := range parts {
		if !strings.HasPrefix(flat, parts[i]) {
			continue
		}
		n := len(parts[i])
		for j := i + 1; j < len(parts) && n < len(flat); j++ {
			if !strings.HasPrefix(flat[n:], parts[j]) {
				break
			}
			n += len(parts[j])
			if n == len(flat) {
				return true
			}
		}
	}
	return false
}

// Rule names a scoring rule that fired for a term.
type Rule uint8

// The rules of the keyword scoring, as bits of a RuleSet.
const (
	RulePartExact     Rule = 1 << iota // a name part equals the term
	RulePartSubstring                  // a name part contains the term
	RuleFullName                       // the term joins adjacent name parts
	RuleHint                           // the search hint has the term as a word
	RuleDescription                    // the description has the term as a word
)

// scoreTerm returns what one term adds to e's score and which rules fired.
func (e *entry) scoreTerm(term string) (score int, rules Rule) {
	switch {
	case containsPart(e.parts, term):
		score, rules = pick(e.scoresMCP, ScoreMCPPartExact, ScorePartExact), RulePartExact
	case partContains(e.parts, term):
		score, rules = pick(e.scoresMCP, ScoreMCPPartSubstring, ScorePartSubstring), RulePartSubstring
	case spansParts(term, e.parts):
		score, rules = ScoreFullName, RuleFullName
	}
	if e.hint.has(term) {
		score += ScoreHint
		rules |= RuleHint
	}
	if e.desc.has(term) {
		score += ScoreDescription
		rules |= RuleDescription
	}
	return score, rules
}

// satisfies reports whether e meets the required term r: a name part
// contains it, or the description or hint has it as a whole word.
func (e *entry) satisfies(r string) bool {
	return partContains(e.parts, r) || e.desc.has(r) || e.hint.has(r)
}

// score returns e's keyword score for t, or 0 when a required term is
// missing.
func (e *entry) score(t *terms) (score int, rules Rule) {
	for _, r := range t.required {
		if !e.satisfies(r) {
			return 0, 0
		}
	}
	for _, term := range t.all {
		s, why := e.scoreTerm(term)
		score += s
		rules |= why
	}
	return score, rules
}

func pick(mcp bool, a, b int) int {
	if mcp {
		return a
	}
	return b
}

func containsPart(parts []string, term string) bool {
	for _, p := range parts {
		if p == term {
			return true
		}
	}
	return false
}

func partContains(parts []string, term string) bool {
	for _, p := range parts {
		if strings.Contains(p, term) {
			return true
		}
	}
	return false
}
