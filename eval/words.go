package eval

import (
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/internal/words"
)

// WordsPattern turns a request in words into a pattern for the regex
// strategy, as a model might write one: the request's distinct words
// (lowercased runs of letters and digits; English stop words left out
// unless nothing else is left; words that differ only by a plural or verb
// ending kept once) joined with "|", as many as fit in the regex strategy's
// 200 characters. The pattern never holds a special character. "" gives "".
func WordsPattern(request string) string {
	var b strings.Builder
	n := 0
	for _, t := range words.Terms(request) {
		w := utf8.RuneCountInString(t.Word)
		if n > 0 && n+1+w > words.MaxPattern || n == 0 && w > words.MaxPattern {
			break
		}
		if n > 0 {
			b.WriteByte('|')
			n++
		}
		b.WriteString(t.Word)
		n += w
	}
	return b.String()
}

// AsPatterns returns queries as a model using the regex strategy might
// send them: a select: query, and a query of one whitespace-separated
// token (a tool's name, a word), as they are; any other through
// WordsPattern.
func AsPatterns(queries []Query) []Query {
	out := make([]Query, len(queries))
	for i, q := range queries {
		if len(words.Fields(q.Query)) > 1 && !strings.HasPrefix(strings.ToLower(q.Query), "select:") {
			q.Query = WordsPattern(q.Query)
		}
		out[i] = q
	}
	return out
}
