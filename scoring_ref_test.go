package toolsearch

import (
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/words"
)

// refScore is the default strategy's scoring written per tool, rule by rule
// as the package documentation states it: the reference the index is
// checked against (differential_test.go). It returns e's score for t, or 0
// when a required term is missing, and the rules that fired.
func refScore(e *entry, t *terms) (score int, rules Rule) {
	for _, r := range t.required {
		if !refSatisfies(e, r) {
			return 0, 0
		}
	}
	for _, term := range t.all {
		s, why := refScoreTerm(e, term)
		score += s
		rules |= why
	}
	return score, rules
}

// refScoreTerm returns what one term adds to e's score and which rules
// fired.
func refScoreTerm(e *entry, term string) (score int, rules Rule) {
	pick := func(mcp, other int) int {
		if e.scoresMCP {
			return mcp
		}
		return other
	}
	switch {
	case slices.Contains(e.parts, term):
		score, rules = pick(weightMCPPartExact, weightPartExact), RulePartExact
	case refPartContains(e.parts, term):
		score, rules = pick(weightMCPPartSubstring, weightPartSubstring), RulePartSubstring
	case spansParts(term, e.parts):
		score, rules = weightFullName, RuleFullName
	}
	if e.hint.End(term) >= 0 {
		score += weightHint
		rules |= RuleHint
	}
	if e.desc.End(term) >= 0 {
		score += weightDescription
		rules |= RuleDescription
	}
	return score, rules
}

// refSatisfies reports whether e meets the required term r: a name part
// contains it, or the description or hint has it as a whole word.
func refSatisfies(e *entry, r string) bool {
	return refPartContains(e.parts, r) || e.desc.End(r) >= 0 || e.hint.End(r) >= 0
}

func refPartContains(parts []string, term string) bool {
	return slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(p, term) })
}

// refRanking ranks every deferred tool of s for the keyword query q with
// the reference scorer: the tools scoring above 0, by score, ties in pool
// order.
func refRanking(s *snapshot, q string) []refHit {
	t := parseTerms(words.Lower(words.TrimSpace(q)))
	var out []refHit
	for e := range s.deferredTools() {
		if score, _ := refScore(e, &t); score > 0 {
			out = append(out, refHit{e.tool.Name, score})
		}
	}
	slices.SortStableFunc(out, func(a, b refHit) int { return b.Score - a.Score })
	return out
}
