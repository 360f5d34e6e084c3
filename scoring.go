package toolsearch

import (
	"strings"
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

// partChars reports whether s could be contained in a name part: parts are
// made of [a-z0-9.-].
func partChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return s != ""
}

// RuleArgument: an argument name or description of the tool matched (bm25
// does not use it; hybrid and regex do).
const RuleArgument Rule = 1 << 5
