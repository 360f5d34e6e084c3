package toolsearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/schema"
	"github.com/toolsearch/toolsearch/internal/words"
)

// The regex strategy's limits and weights: a tool scores, for each field,
// the field's weight times the number of the pattern's top-level
// alternatives that match there (a pattern without a top-level "|" is one
// alternative).
const (
	maxPatternLength       = words.MaxPattern // characters in a pattern
	maxPatternProgram      = 1000             // instructions of a pattern's compiled program
	regexWeightName        = 4                // the tool's name
	regexWeightDescription = 2                // its description or search hint
	regexWeightArgument    = 1                // any argument name or description
)

type regexStrategy struct{}

// RegexStrategy returns the regex strategy: the model sends an RE2 pattern
// (https://github.com/google/re2/wiki/Syntax) of at most 200 characters,
// matched case-insensitively against each deferred tool's name,
// description, search hint, and argument names and descriptions (the
// properties of its input schema, nested ones included, each matched on its
// own so that ^ and $ anchor to it; a schema supplied lazily through
// LoadSchema is not read for this). A tool scores 4 for each top-level
// alternative of the pattern ("a|b|c" has three) that matches its name, 2
// for each that matches its description or hint, and 1 for each that
// matches an argument; ties keep pool order: with "slack|message|send", a
// tool that has all three words ranks above one that has one. A tool the
// pattern does not match is left out. "select:A,B" and a tool's exact name
// work as with every strategy; a query starting with "mcp__" is a pattern
// like any other. A pattern that is too long or does not compile is an
// error wrapping ErrInvalidQuery whose text tells the model what to fix.
//
// Matching costs about the pattern's program size per byte of text, and a
// 200-character pattern can have a program of many thousands of
// instructions (a counted repeat such as [^x]{1000} is a thousand of
// them): a pattern whose program has more than 1,000 instructions is
// refused with an error that says so, and the texts matched in one query
// are bounded by SearchOptions.MaxQueryWork (each byte weighs the program
// size of the alternative run on it, or 1 for a plain word), in pool
// order: a query that reaches it stops there, with a note.
//
// With this strategy the ToolSearch input is {"pattern": string,
// "max_results"?: integer}, and its description explains patterns.
func RegexStrategy() Strategy { return regexStrategy{} }

func (regexStrategy) Name() string { return "regex" }

func (regexStrategy) Input() StrategyInput {
	return StrategyInput{Field: "pattern", Description: regexDescription, Schema: json.RawMessage(regexSchema), Pattern: true}
}

// regexDoc is the text of one tool the regex strategy matches, lowercased
// (a case-insensitive match is the same on it, and a literal can then be
// found with strings.Contains). Each argument name and description is a
// text of its own, so that ^ and $ work on it.
type regexDoc struct {
	name, desc string
	args       []string
}

type regexIndex struct {
	docs toolDocs[*regexDoc]
	text []*regexDoc // per tool, in Corpus order
}

func newRegexDoc(t *Tool) *regexDoc {
	desc := t.Description
	if t.SearchHint != "" {
		desc += "\n" + t.SearchHint
	}
	names, descs := schema.ArgumentTexts(t.InputSchema)
	d := &regexDoc{name: words.Lower(t.Name), desc: words.Lower(desc)}
	for _, a := range append(names, descs...) {
		d.args = append(d.args, words.Lower(a))
	}
	return d
}

// Index lowercases the texts of c's tools.
func (regexStrategy) Index(c *Corpus) Index { return (&regexIndex{}).Update(c) }

// Update lowercases the texts of c's tools, reusing those of x for the
// tools that did not change.
func (p *regexIndex) Update(c *Corpus) Index {
	old := p.docs
	x := &regexIndex{docs: make(toolDocs[*regexDoc], c.Len()), text: make([]*regexDoc, c.Len())}
	for i := range x.text {
		t := c.Tool(i)
		x.text[i] = old.get(&t, x.docs, newRegexDoc)
	}
	return x
}

// alternative is one top-level alternative of a pattern: a plain ASCII
// literal (matched with strings.Contains on the lowercased text) or a
// regular expression with literals one of which every match contains.
type alternative struct {
	lit  string
	re   *regexp.Regexp
	prog int      // instructions of re's program
	need []string // nil: no prefilter
}

// match reports whether the alternative matches text, spending its cost
// from w: a unit per byte for each literal looked for, the program size
// per byte for the regular expression. ok is false when w ran out first.
func (a *alternative) match(text string, w *querywork.Budget) (matched, ok bool) {
	if a.re == nil {
		if !w.Spend(len(text)) {
			return false, false
		}
		i := strings.Index(text, a.lit)
		if i >= 0 {
			w.Refund(len(text) - i - len(a.lit)) // the rest was not read
		}
		return i >= 0, true
	}
	if a.need != nil {
		if !w.Spend(len(text) * len(a.need)) {
			return false, false
		}
		if !containsAny(text, a.need) {
			return false, true
		}
	}
	if !w.Spend(len(text) * a.prog) {
		return false, false
	}
	loc := a.re.FindStringIndex(text)
	if loc != nil {
		w.Refund((len(text) - loc[1]) * a.prog) // the rest was not read
	}
	return loc != nil, true
}

// compilePattern checks a pattern from the model and compiles its
// top-level alternatives.
func compilePattern(p string) ([]alternative, error) {
	if n := utf8.RuneCountInString(p); n > maxPatternLength {
		return nil, errors.New(patternTooLong(n, maxPatternLength))
	}
	if _, err := regexp.Compile(p); err != nil {
		return nil, errors.New(patternInvalid(strings.TrimPrefix(err.Error(), "error parsing regexp: ")))
	}
	if n := schema.ProgramSize(regexp.MustCompile("(?i)" + p)); n > maxPatternProgram {
		return nil, errors.New(patternTooCostly(n, maxPatternProgram))
	}
	if alts, ok := compileAlternatives(splitAlternatives(p)); ok {
		return alts, nil
	}
	alts, _ := compileAlternatives([]string{p}) // compiles: checked above
	return alts, nil
}

// compileAlternatives compiles each alternative, reporting false if one
// does not compile on its own.
func compileAlternatives(parts []string) ([]alternative, bool) {
	alts := make([]alternative, 0, len(parts))
	for _, part := range parts {
		tree, err := syntax.Parse(part, syntax.Perl)
		if err != nil {
			return nil, false
		}
		tree = tree.Simplify()
		if lit, ok := asciiLiteral(tree); ok {
			alts = append(alts, alternative{lit: lit})
			continue
		}
		re, err := regexp.Compile("(?i)" + part)
		if err != nil {
			return nil, false
		}
		need, ok := literalsOf(tree)
		if !ok {
			need = nil
		}
		alts = append(alts, alternative{re: re, prog: schema.ProgramSize(re), need: need})
	}
	return alts, true
}

// splitAlternatives splits a valid pattern at its top-level "|" (outside
// groups, character classes and escapes). A pattern that sets flags at the
// top level, such as "(?s)", is not split: the flags reach across "|".
func splitAlternatives(p string) []string {
	var parts []string
	depth, start := 0, 0
	inClass := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
			if strings.HasPrefix(p[i+1:], "]") || strings.HasPrefix(p[i+1:], "^]") {
				i += strings.IndexByte(p[i+1:], ']') + 1 // a leading ] is literal
			}
		case c == '(':
			if depth == 0 && strings.HasPrefix(p[i:], "(?") && !strings.HasPrefix(p[i:], "(?:") && !strings.HasPrefix(p[i:], "(?P<") && !strings.HasPrefix(p[i:], "(?<") {
				if j := strings.IndexAny(p[i:], ":)"); j > 0 && p[i+j] == ')' {
					return []string{p} // top-level flags
				}
			}
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			parts = append(parts, p[start:i])
			start = i + 1
		}
	}
	return append(parts, p[start:])
}

// asciiLiteral returns the lowercased text of a regular expression that is
// one ASCII literal.
func asciiLiteral(t *syntax.Regexp) (string, bool) {
	if t.Op != syntax.OpLiteral || len(t.Rune) == 0 {
		return "", false
	}
	s := string(t.Rune)
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return "", false
		}
	}
	return strings.ToLower(s), true
}

// Rank appends every tool the pattern (q.Text) matches somewhere, in pool
// order until the query's work budget runs out. An invalid pattern is an
// error.
func (x *regexIndex) Rank(ctx context.Context, q Query, hits []Hit) ([]Hit, []string, error) {
	alts, err := compilePattern(q.Text)
	if err != nil {
		return nil, nil, err
	}
	w := querywork.Of(ctx)
	for i, d := range x.text {
		score, rules := 0, Rule(0)
		for j := range alts {
			a := &alts[j]
			m, ok := a.match(d.name, w)
			if !ok {
				return hits, nil, nil // out of work: the pipeline adds the note
			}
			if m {
				score += regexWeightName
				rules |= RulePartSubstring
			}
			if m, ok = a.match(d.desc, w); !ok {
				return hits, nil, nil
			} else if m {
				score += regexWeightDescription
				rules |= RuleDescription
			}
			for _, arg := range d.args {
				if m, ok = a.match(arg, w); !ok {
					return hits, nil, nil
				} else if m {
					score += regexWeightArgument
					rules |= RuleArgument
					break
				}
			}
		}
		if score > 0 {
			hits = append(hits, Hit{Tool: i, Score: float64(score), Rules: rules})
		}
	}
	return hits, nil, nil
}

// literalsOf returns a set of lowercased literals one of which every match
// of t contains, and whether there is such a set: checking them with
// strings.Contains first skips most texts without running the regular
// expression.
func literalsOf(t *syntax.Regexp) ([]string, bool) {
	switch t.Op {
	case syntax.OpLiteral:
		s := string(t.Rune)
		for _, r := range s {
			if r >= utf8.RuneSelf {
				return nil, false // case folding beyond ASCII: do not guess
			}
		}
		if s == "" {
			return nil, false
		}
		return []string{strings.ToLower(s)}, true
	case syntax.OpCapture, syntax.OpPlus:
		return literalsOf(t.Sub[0])
	case syntax.OpRepeat:
		if t.Min >= 1 {
			return literalsOf(t.Sub[0])
		}
	case syntax.OpConcat:
		var best []string
		for _, sub := range t.Sub {
			if lits, ok := literalsOf(sub); ok && (best == nil || shortest(lits) > shortest(best)) {
				best = lits
			}
		}
		return best, best != nil
	case syntax.OpAlternate:
		var all []string
		for _, sub := range t.Sub {
			lits, ok := literalsOf(sub)
			if !ok {
				return nil, false
			}
			all = append(all, lits...)
		}
		return all, true
	}
	return nil, false
}

func shortest(lits []string) int {
	n := math.MaxInt
	for _, l := range lits {
		n = min(n, len(l))
	}
	return n
}

func containsAny(text string, lits []string) bool {
	for _, l := range lits {
		if strings.Contains(text, l) {
			return true
		}
	}
	return false
}

// toolDocs keep a built-in strategy's per-tool data from one index to the
// next: a tool whose name, description, search hint and schema are
// unchanged keeps its data.
type toolDocs[D any] map[string]toolDoc[D]

type toolDoc[D any] struct {
	desc, hint string
	schema     []byte
	d          D
}

// get returns the data kept for t, or build(t) for a new or changed tool,
// and records it in next.
func (m toolDocs[D]) get(t *Tool, next toolDocs[D], build func(*Tool) D) D {
	old, ok := m[t.Name]
	if !ok || old.desc != t.Description || old.hint != t.SearchHint || !bytes.Equal(old.schema, t.InputSchema) {
		old = toolDoc[D]{t.Description, t.SearchHint, t.InputSchema, build(t)}
	}
	next[t.Name] = old
	return old.d
}
