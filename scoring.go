package toolsearch

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/toolsearch/toolsearch/internal/text"
	"github.com/toolsearch/toolsearch/internal/words"
)

// The keyword scoring of the default strategy. Each query term adds, to each
// deferred tool's score, the weight of the first name rule that fires for it
// (an equal name part, else a name part containing it, else adjacent parts
// joining into it) plus the weights of the hint and description rules that
// fire. The package documentation has the table. The index (index.go)
// applies these rules; differential_test.go checks it against a direct
// scorer.

// Keyword scoring weights, added per query term.
const (
	weightMCPPartExact     = 12 // a name part of an MCP tool equals the term
	weightPartExact        = 10 // a name part of another tool equals the term
	weightMCPPartSubstring = 6  // else a name part of an MCP tool contains the term
	weightPartSubstring    = 5  // else a name part of another tool contains the term
	weightFullName         = 3  // else the term joins two or more adjacent name parts
	weightHint             = 4  // the search hint has the term as a whole word
	weightDescription      = 2  // the description has the term as a whole word
)

// terms is a parsed keyword query.
type terms struct {
	required []string // terms given as +term
	all      []string // required terms first, then the others, in query order
}

// parseTerms splits a trimmed, lowercased keyword query into terms. A token
// "+x" with x non-empty makes x required; a lone "+" is an ordinary term.
// Repeated terms are kept: each occurrence scores again.
func parseTerms(q string) terms {
	toks := words.Fields(q)
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
	flat := text.Unseparated(term)
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

// Rule names the scoring rules that fired for a match, as a set of bits.
// Its text form (String, MarshalText, UnmarshalText) lists them:
// "part_exact|hint", "none" for no rule. It holds up to 8 rules: a ninth
// constant would not compile.
type Rule uint8

// The rules. The first five are the default strategy's keyword rules; the
// other strategies report the closest of them, RuleArgument, and
// RuleSemantic (package semantic's strategy).
const (
	RulePartExact     Rule = 1 << iota // a name part equals the term
	RulePartSubstring                  // a name part contains the term
	RuleFullName                       // the term joins adjacent name parts; with ClaudeCode2_1_332, a whole name (coarse part) has it
	RuleHint                           // the search hint has the term as a word
	RuleDescription                    // the description has the term as a word
	RuleArgument                       // an argument name or description matched (hybrid, regex)
	RuleSemantic                       // the tool's embedding is among the nearest to the query's (semantic strategy)
)

// ruleNames are the text forms of the rules, by bit.
var ruleNames = [...]string{"part_exact", "part_substring", "full_name", "hint", "description", "argument", "semantic"}

// keywordRules are the rules the default strategy's keyword index fires:
// its accumulator packs them next to the score (index_scratch.go).
const keywordRules = RulePartExact | RulePartSubstring | RuleFullName | RuleHint | RuleDescription

// String returns the names of the rules in r joined with "|", in the order
// of the constants; "none" for no rule.
func (r Rule) String() string {
	if r == 0 {
		return "none"
	}
	var b strings.Builder
	for i, name := range ruleNames {
		if r&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte('|')
			}
			b.WriteString(name)
		}
	}
	if rest := r &^ (1<<len(ruleNames) - 1); rest != 0 {
		if b.Len() > 0 {
			b.WriteByte('|')
		}
		b.WriteString("Rule(" + strconv.Itoa(int(rest)) + ")")
	}
	return b.String()
}

// MarshalText returns the String form.
func (r Rule) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads the String form: rule names joined with "|" (in any
// order, "Rule(N)" for bits without a name), or "none". Another text is an
// error wrapping ErrInvalidOption.
func (r *Rule) UnmarshalText(text []byte) error {
	if string(text) == "none" {
		*r = 0
		return nil
	}
	var v Rule
	for name := range strings.SplitSeq(string(text), "|") {
		i := slices.Index(ruleNames[:], name)
		if i >= 0 {
			v |= 1 << i
			continue
		}
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "Rule("), ")"))
		if !strings.HasPrefix(name, "Rule(") || err != nil || n <= 0 || n > math.MaxUint8 {
			return errorf(ErrInvalidOption, "unknown rule %q in %q (want rule names joined with |, or none)", name, text)
		}
		v |= Rule(n)
	}
	*r = v
	return nil
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
