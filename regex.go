package toolsearch

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxPatternLength is the longest pattern, in characters, the regex
// strategy accepts.
const MaxPatternLength = 200

// Regex strategy weights: a tool scores, for each field the pattern
// matches, the field's weight times the number of distinct texts it matched
// there (case folded; at least 1).
const (
	RegexWeightName        = 4 // the tool's name
	RegexWeightDescription = 2 // its description or search hint
	RegexWeightArgument    = 1 // an argument name or description
)

// maxRegexMatches bounds the matches counted per field.
const maxRegexMatches = 64

type regexStrategy struct{}

// RegexStrategy returns the regex strategy: the model sends an RE2 pattern
// (https://github.com/google/re2/wiki/Syntax) of at most MaxPatternLength
// characters, matched case-insensitively against each deferred tool's name,
// description, search hint, and argument names and descriptions (the
// properties of its input schema, nested ones included; a schema supplied
// lazily through LoadSchema is not read for this). Tools are ranked by the
// Regex weights, ties in pool order; a tool the pattern does not match is
// left out. "select:A,B" and a tool's exact name work as with every
// strategy. A pattern that is too long or does not compile is an error
// wrapping ErrInvalidQuery whose text tells the model what to fix.
//
// With this strategy the ToolSearch input is {"pattern": string,
// "max_results"?: integer}.
func RegexStrategy() Strategy { return regexStrategy{} }

func (regexStrategy) Name() string { return "regex" }

// regexDoc is the text of one tool the regex strategy matches.
type regexDoc struct {
	name, desc, args string
}

type regexIndex struct {
	docs []*entry
	text []*regexDoc
	data map[*entry]*regexDoc
}

func (regexStrategy) index(tools []*entry, prev strategyIndex) strategyIndex {
	var old map[*entry]*regexDoc
	if p, ok := prev.(*regexIndex); ok {
		old = p.data
	}
	x := &regexIndex{docs: tools, text: make([]*regexDoc, len(tools)), data: make(map[*entry]*regexDoc, len(tools))}
	for i, e := range tools {
		d := old[e]
		if d == nil {
			desc := e.tool.Description
			if e.tool.SearchHint != "" {
				desc += "\n" + e.tool.SearchHint
			}
			names, descs := argumentTexts(e.tool.InputSchema)
			d = &regexDoc{name: e.tool.Name, desc: desc, args: strings.Join(append(names, descs...), "\n")}
		}
		x.data[e], x.text[i] = d, d
	}
	return x
}

// compilePattern checks and compiles a pattern from the model.
func compilePattern(p string) (*regexp.Regexp, error) {
	if n := utf8.RuneCountInString(p); n > MaxPatternLength {
		return nil, fmt.Errorf("%w: the pattern is %d characters long; the limit is %d: use a shorter pattern, for example a few alternatives like \"slack|message\"", ErrInvalidQuery, n, MaxPatternLength)
	}
	re, err := regexp.Compile("(?i)" + p)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		return nil, fmt.Errorf("%w: the pattern is not a valid RE2 regular expression (%s): escape special characters such as ( ) [ ] . * + ? with a backslash", ErrInvalidQuery, msg)
	}
	return re, nil
}

func (x *regexIndex) rank(pattern string, k int) ([]scored, error) {
	re, err := compilePattern(pattern)
	if err != nil {
		return nil, err
	}
	var out []scored
	for i, d := range x.text {
		score, rules := 0, Rule(0)
		for _, f := range []struct {
			text   string
			weight int
			rule   Rule
		}{
			{d.name, RegexWeightName, RulePartSubstring},
			{d.desc, RegexWeightDescription, RuleDescription},
			{d.args, RegexWeightArgument, RuleArgument},
		} {
			if n := distinctMatches(re, f.text); n > 0 {
				score += f.weight * n
				rules |= f.rule
			}
		}
		if score > 0 {
			out = append(out, scored{x.docs[i], score, rules})
		}
	}
	slices.SortStableFunc(out, func(a, b scored) int { return b.score - a.score })
	if k >= 0 && len(out) > k {
		out = out[:k]
	}
	return out, nil
}

// distinctMatches returns how many distinct texts (case folded) re matches
// in text: 0 when it does not match, at least 1 when it does (an empty
// match counts once).
func distinctMatches(re *regexp.Regexp, text string) int {
	locs := re.FindAllStringIndex(text, maxRegexMatches)
	if len(locs) == 0 {
		return 0
	}
	var seen []string
	for _, l := range locs {
		if l[0] == l[1] {
			continue
		}
		m := lower(text[l[0]:l[1]])
		if !slices.Contains(seen, m) {
			seen = append(seen, m)
		}
	}
	return max(1, len(seen))
}

// argumentTexts returns the argument names and descriptions of an input
// schema: the keys of every "properties" object and the "description" of
// every property, nested ones included, keys sorted at each level. A schema that
// does not decode gives none.
func argumentTexts(schema json.RawMessage) (names, descs []string) {
	if len(schema) == 0 {
		return nil, nil
	}
	var root any
	if json.Unmarshal(schema, &root) != nil {
		return nil, nil
	}
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 32 {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				keys := make([]string, 0, len(props))
				for k := range props {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				for _, k := range keys {
					names = append(names, k)
					if p, ok := props[k].(map[string]any); ok {
						if d, ok := p["description"].(string); ok && d != "" {
							descs = append(descs, d)
						}
					}
				}
			}
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(v[k], depth+1)
			}
		case []any:
			for _, x := range v {
				walk(x, depth+1)
			}
		}
	}
	walk(root, 0)
	return names, descs
}
