package benchmarks

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Linear is a direct port of the keyword scoring (README, "Ranking"): every
// query scans every tool, and \bterm\b is a regular expression compiled
// once per term and query and run on each description and hint.
type Linear struct {
	tools     []linearTool // pool order
	prefilter bool
}

type linearTool struct {
	name, lowerName string
	parts           []string
	mcp, deferred   bool
	descLower, hint string
}

// LinearTool is the input of NewLinear.
type LinearTool struct {
	Name, Description, SearchHint string
	Deferred                      bool
}

var camel = regexp.MustCompile(`([a-z])([A-Z])`)

// NewLinear indexes tools, given in pool order. With prefilter, a term
// whose text does not contain it skips the regular expression.
func NewLinear(tools []LinearTool, prefilter bool) *Linear {
	l := &Linear{prefilter: prefilter}
	for _, t := range tools {
		lt := linearTool{name: t.Name, lowerName: strings.ToLower(t.Name), mcp: strings.HasPrefix(t.Name, "mcp__"),
			descLower: strings.ToLower(t.Description), hint: strings.ToLower(t.SearchHint), deferred: t.Deferred}
		if lt.mcp {
			for _, seg := range strings.Split(strings.ToLower(t.Name[5:]), "__") {
				for _, p := range strings.Split(seg, "_") {
					if p != "" {
						lt.parts = append(lt.parts, p)
					}
				}
			}
		} else {
			lt.parts = strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(camel.ReplaceAllString(t.Name, "$1 $2"), "_", " ")), unicode.IsSpace)
		}
		l.tools = append(l.tools, lt)
	}
	return l
}

type linearHit struct {
	name  string
	score int
}

// Search answers a query with the four query forms (select, exact name, MCP
// prefix, keywords) and returns the names found.
func (l *Linear) Search(query string, k int) []string {
	if rest, ok := strings.CutPrefix(query, "select:"); ok {
		out := []string{}
		for _, n := range strings.Split(rest, ",") {
			n = strings.TrimSpace(n)
			for _, t := range l.tools {
				if t.name == n {
					out = append(out, n)
					break
				}
			}
		}
		return out
	}
	q := strings.ToLower(strings.TrimSpace(query))
	for _, deferredOnly := range []bool{true, false} {
		for _, t := range l.tools {
			if t.lowerName == q && (t.deferred || !deferredOnly) {
				return []string{t.name}
			}
		}
	}
	if strings.HasPrefix(q, "mcp__") && len(q) > 5 {
		var out []string
		for _, t := range l.tools {
			if t.deferred && strings.HasPrefix(t.lowerName, q) && len(out) < k {
				out = append(out, t.name)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	var req, terms []string
	for _, tok := range strings.Fields(q) {
		if len(tok) > 1 && tok[0] == '+' {
			req = append(req, tok[1:])
		}
	}
	terms = append(terms, req...)
	for _, tok := range strings.Fields(q) {
		if !(len(tok) > 1 && tok[0] == '+') {
			terms = append(terms, tok)
		}
	}
	res := make([]*regexp.Regexp, len(terms))
	flat := make([]string, len(terms))
	for i, t := range terms {
		res[i] = regexp.MustCompile(`\b` + regexp.QuoteMeta(t) + `\b`)
		flat[i] = flattener.Replace(t)
	}
	word := func(text string, i int) bool {
		if l.prefilter && !strings.Contains(text, terms[i]) {
			return false
		}
		return res[i].MatchString(text)
	}
	hits := []linearHit{}
	for _, t := range l.tools {
		if !t.deferred {
			continue
		}
		ok := true
		for i, r := range req {
			if !partContains(t.parts, r) && !word(t.descLower, i) && !(t.hint != "" && word(t.hint, i)) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		score := 0
		for i, term := range terms {
			switch {
			case slices.Contains(t.parts, term):
				score += pick(t.mcp, 12, 10)
			case partContains(t.parts, term):
				score += pick(t.mcp, 6, 5)
			case spans(flat[i], t.parts):
				score += 3
			}
			if t.hint != "" && word(t.hint, i) {
				score += 4
			}
			if word(t.descLower, i) {
				score += 2
			}
		}
		if score > 0 {
			hits = append(hits, linearHit{t.name, score})
		}
	}
	slices.SortStableFunc(hits, func(a, b linearHit) int { return b.score - a.score })
	out := make([]string, 0, k)
	for _, h := range hits[:min(k, len(hits))] {
		out = append(out, h.name)
	}
	return out
}

func pick(mcp bool, a, b int) int {
	if mcp {
		return a
	}
	return b
}

var flattener = strings.NewReplacer("_", "", "-", "", ".", "")

func partContains(parts []string, term string) bool {
	for _, p := range parts {
		if strings.Contains(p, term) {
			return true
		}
	}
	return false
}

// spans reports whether flat (a term without '_', '-' and '.') equals two
// or more adjacent parts joined.
func spans(flat string, parts []string) bool {
	if flat == "" {
		return false
	}
	for i := range parts {
		acc := parts[i]
		for j := i + 1; j < len(parts); j++ {
			acc += parts[j]
			if acc == flat {
				return true
			}
			if len(acc) >= len(flat) {
				break
			}
		}
	}
	return false
}
