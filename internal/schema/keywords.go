package schema

import (
	"encoding/json"
	"fmt"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The schema library checks a few keywords at a cost that grows faster
// than what it checks: it parses every number of an enum, a const or an
// array with uniqueItems into an exact rational on every comparison
// (about a microsecond each, ten for a number near the bounds), compares
// every pair of items whose hashes collide (the hash drops a number's
// sign, so [1,-1] and [-1,1] collide), and builds the units of a duration
// by string concatenation (quadratic in its length). Those checks are
// replaced here, on every schema compiled by Compile, with checks linear
// in what they read (n log n for the keys of an object), which give the
// same verdicts and the same messages:
//   - enum and const compare canonical texts (canon), the schema's
//     computed once;
//   - uniqueItems puts the canonical text of every item in a map;
//   - the formats duration and period are read once, left to right, and
//     regex is parsed without being compiled (the library's compilation
//     fails exactly when the parse does).
//
// A subschema outside the tool's own document (the library's metaschemas,
// which a "$ref" may name) is shared by every compilation and left as it
// is: Validator.Work charges the library's own cost for it.

// formats are the formats whose library check is replaced.
var formats = map[string]func(any) bool{
	"duration": isDuration,
	"period":   isPeriod,
	"regex":    isRegex,
}

// ownSchema reports whether s belongs to the document Compile compiled
// (and not to a metaschema shared by every compilation).
func ownSchema(s *jsonschema.Schema) bool { return strings.HasPrefix(s.Location, schemaURL) }

// replaceKeywords replaces, in every subschema of root that ownSchema
// owns, the library's enum, const and uniqueItems with linear checks.
func replaceKeywords(root *jsonschema.Schema) {
	seen := map[*jsonschema.Schema]bool{}
	var walk func(s *jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil || seen[s] || !ownSchema(s) {
			return
		}
		seen[s] = true
		if k := newKeywords(s); k != nil {
			if s.Extensions == nil {
				s.Extensions = map[string]jsonschema.ExtSchema{}
			}
			s.Extensions["toolsearch"] = k
			s.Enum, s.Constant, s.UniqueItems = nil, nil, false
		}
		for c := range subschemas(s) {
			walk(c)
		}
	}
	walk(root)
}

// keywords is the replacement of a subschema's enum, const and
// uniqueItems, checked in that order.
type keywords struct {
	hasConst  bool
	constant  string // canonical text
	constMsg  string
	enum      map[string]struct{} // canonical texts
	enumMsg   string
	longest   int // bytes of the longest canonical text of const and enum
	unique    bool
	enumCount int
}

func newKeywords(s *jsonschema.Schema) *keywords {
	if len(s.Enum) == 0 && len(s.Constant) == 0 && !s.UniqueItems {
		return nil
	}
	k := &keywords{unique: s.UniqueItems}
	if len(s.Constant) > 0 {
		c := s.Constant[0]
		b, _ := canon(nil, c, -1)
		k.hasConst, k.constant, k.longest = true, string(b), len(b)
		k.constMsg = "const failed"
		if !composite(c) {
			k.constMsg = fmt.Sprintf("value must be %#v", c)
		}
	}
	if len(s.Enum) > 0 {
		k.enum = make(map[string]struct{}, len(s.Enum))
		k.enumCount = len(s.Enum)
		for _, v := range s.Enum {
			b, _ := canon(nil, v, -1)
			k.enum[string(b)] = struct{}{}
			k.longest = max(k.longest, len(b))
		}
		k.enumMsg = clipMessage(enumMessage(s.Enum))
	}
	k.constMsg = clipMessage(k.constMsg)
	return k
}

// maxKeywordMessage bounds the message of an enum or const: the library
// would copy all its values into every error, and the model reads only
// the first text.MaxClip bytes of one.
const maxKeywordMessage = 512

func clipMessage(m string) string {
	if len(m) <= maxKeywordMessage {
		return m
	}
	m = m[:maxKeywordMessage]
	for len(m) > 0 && !utf8.RuneStart(m[len(m)-1]) {
		m = m[:len(m)-1]
	}
	return strings.ToValidUTF8(m[:len(m)-1], "") + "…"
}

// enumMessage is the library's message for a value not in enum.
func enumMessage(enum []any) string {
	if slices.ContainsFunc(enum, composite) {
		return "enum failed"
	}
	if len(enum) == 1 {
		return fmt.Sprintf("value must be %#v", enum[0])
	}
	items := make([]string, len(enum))
	for i, v := range enum {
		items[i] = fmt.Sprintf("%#v", v)
	}
	return "value must be one of " + strings.Join(items, ", ")
}

func composite(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// Validate checks const, enum and uniqueItems on v.
func (k *keywords) Validate(ctx jsonschema.ValidationContext, v any) error {
	var errs []error
	if k.hasConst || k.enum != nil {
		b, ok := canon(nil, v, k.longest)
		if k.hasConst && (!ok || string(b) != k.constant) {
			errs = append(errs, ctx.Error("const", "%s", k.constMsg))
		}
		if k.enum != nil {
			if _, in := k.enum[string(b)]; !ok || !in {
				errs = append(errs, ctx.Error("enum", "%s", k.enumMsg))
			}
		}
	}
	if items, ok := v.([]any); ok && k.unique {
		first := make(map[string]int, len(items))
		var b []byte
		for i, x := range items {
			b, _ = canon(b[:0], x, -1)
			if j, dup := first[string(b)]; dup {
				errs = append(errs, ctx.Error("uniqueItems", "items at index %d and %d are equal", j, i))
				break
			}
			first[string(b)] = i
		}
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	parent := ctx.Error("", "")
	return parent.Group(parent, errs...)
}

// canon appends to b the canonical text of the JSON value v: two values
// are equal as the schema library compares them (numbers by their exact
// value, objects whatever the order of their keys) exactly when their
// canonical texts are. It stops, reporting false, as soon as the text
// would pass limit bytes (limit < 0: no limit); its work is linear in the
// bytes it writes, plus sorting the keys of each object.
func canon(b []byte, v any, limit int) ([]byte, bool) {
	over := func(n int) bool { return limit >= 0 && len(b)+n > limit }
	switch v := v.(type) {
	case nil:
		return append(b, 'n'), !over(0)
	case bool:
		if v {
			return append(b, 't'), !over(0)
		}
		return append(b, 'f'), !over(0)
	case json.Number:
		return canonNumber(b, string(v), limit)
	case float64:
		return canonNumber(b, strconv.FormatFloat(v, 'g', -1, 64), limit)
	case string:
		if over(len(v)) {
			return b, false
		}
		b = append(b, 's')
		b = strconv.AppendInt(b, int64(len(v)), 10)
		return append(append(b, ':'), v...), !over(0)
	case []any:
		if over(2 + len(v)) {
			return b, false
		}
		b = append(b, '[')
		for _, x := range v {
			var ok bool
			if b, ok = canon(b, x, limit); !ok {
				return b, false
			}
		}
		return append(b, ']'), !over(0)
	case map[string]any:
		if over(2 + 3*len(v)) {
			return b, false
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for _, k := range keys {
			var ok bool
			if b, ok = canon(b, k, limit); !ok {
				return b, false
			}
			if b, ok = canon(b, v[k], limit); !ok {
				return b, false
			}
		}
		return append(b, '}'), !over(0)
	}
	return b, false
}

// canonNumber appends the canonical text of the JSON number n: its sign,
// its significant digits and the power of ten they are multiplied by
// ("d-12e3;" for -12000 and -1.2e4 alike; "d0e0;" for every zero).
func canonNumber(b []byte, n string, limit int) ([]byte, bool) {
	if limit >= 0 && len(n) > limit+maxNumberDigits {
		return b, false // longer than any number of limit bytes, trailing zeros included
	}
	neg := strings.HasPrefix(n, "-")
	n = strings.TrimPrefix(n, "-")
	mant, exp := n, 0
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		mant = n[:i]
		e, err := strconv.Atoi(strings.TrimPrefix(n[i+1:], "+"))
		if err != nil {
			return b, false // beyond any bound CheckNumbers lets through
		}
		exp = e
	}
	digits := mant
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		digits = mant[:i] + mant[i+1:]
		exp -= len(mant) - i - 1
	}
	digits = strings.TrimLeft(digits, "0")
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	b = append(b, 'd')
	if trimmed == "" {
		b = append(b, "0e0;"...)
		return b, limit < 0 || len(b) <= limit
	}
	if neg {
		b = append(b, '-')
	}
	b = append(b, trimmed...)
	b = append(b, 'e')
	b = strconv.AppendInt(b, int64(exp), 10)
	b = append(b, ';')
	return b, limit < 0 || len(b) <= limit
}

// isDuration is the library's duration format (the ISO 8601 ABNF of RFC
// 3339, appendix A), read once: P, then date units (digits then a letter)
// that are a suffix of "YMD", or one week "W", then optionally T and time
// units that are a suffix of "HMS" — the library accepts exactly the units
// strings.Index finds in "YMD" and "HMS", that is substrings of them.
func isDuration(v any) bool {
	s, ok := v.(string)
	if !ok {
		return true
	}
	if len(s) == 0 || s[0] != 'P' {
		return false
	}
	s = s[1:]
	// units reads digit-letter pairs up to T or the end, and returns the
	// letters, stopping early (false) at a malformed pair; at most len(set)
	// letters are kept, which is all a substring of set can have.
	units := func(set string) (string, bool) {
		var u []byte
		for len(s) > 0 && s[0] != 'T' {
			i := 0
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			if i == 0 || i == len(s) {
				return "", false
			}
			if len(u) <= len(set) {
				u = append(u, s[i])
			}
			s = s[i+1:]
		}
		return string(u), true
	}
	date, ok := units("YMD")
	if !ok {
		return false
	}
	if date == "W" {
		return len(s) == 0
	}
	if len(date) > 0 {
		if !strings.Contains("YMD", date) {
			return false
		}
		if len(s) == 0 {
			return true
		}
	}
	if len(s) == 0 || s[0] != 'T' {
		return false
	}
	s = s[1:]
	t, ok := units("HMS")
	return ok && len(s) == 0 && len(t) > 0 && strings.Contains("HMS", t)
}

// isPeriod is the library's period format: two date-times, or a date-time
// and a duration, around a slash.
func isPeriod(v any) bool {
	s, ok := v.(string)
	if !ok {
		return true
	}
	start, end, found := strings.Cut(s, "/")
	if !found {
		return false
	}
	dateTime := jsonschema.Formats["date-time"]
	if dateTime(start) {
		return dateTime(end) || isDuration(end)
	}
	return isDuration(start) && dateTime(end)
}

// isRegex is the library's regex format without compiling the program:
// regexp.Compile fails exactly when the parse does.
func isRegex(v any) bool {
	s, ok := v.(string)
	if !ok {
		return true
	}
	_, err := syntax.Parse(s, syntax.Perl)
	return err == nil
}
