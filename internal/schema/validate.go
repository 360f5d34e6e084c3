package schema

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/toolsearch/toolsearch/internal/text"
)

// Validating a tool call's arguments (Session.CheckCall) is the schema
// library's work, and its cost is the product of what the model sends and
// what the server's schema asks: a long string against a pattern with a
// large program, a big object against many subschemas, the same string
// against many formats. Before the library runs, a walk of the arguments
// along the schema adds up an upper bound of that work, in units of about
// ten nanoseconds, and refuses the call when it exceeds
// SessionOptions.MaxValidationWork. The walk itself stops as soon as the
// bound is passed, so it never costs more than the work it allows. The
// checks of the library that cost more than linear time were replaced
// (keywords.go), so that every charge below is linear in what it reads.
//
// The weights, measured on the schema library (one unit ≈ one step of a
// regular-expression program over one byte):
//   - a subschema applied to a value: 300, plus an eighth of the bytes of
//     the value's location, twice those of the subschema's own location
//     (copied into every error, several times) and the square of the
//     number of subschemas being applied around it (the library rebuilds
//     its location strings from those on every failure, so deep arguments
//     against a recursive schema cost the cube of their depth); plus the
//     bytes of the texts its errors quote from the schema (a pattern, the
//     required names); plus 200 per member when the value is
//     an object and 40 per item when it is an array (the library copies
//     the keys or indexes of the value for every subschema applied to it);
//   - a number checked against minimum, maximum, multipleOf or the type
//     integer: 3 × (20 + 2 × (its length + the size of its exponent)) (the
//     library turns it into an exact rational);
//   - a string checked against a pattern: its length plus one, times the
//     pattern's program size; against a format: twice its length
//     (checked, then quoted in the error), 8,000 times for the format
//     "regex" (parsed), and the same for a property name that must be a
//     regular expression (regexProperties);
//   - an enum or const: twice the longest canonical text of its values
//     plus 64 and the bytes of its message, at most 512 (the value is
//     canonicalised up to that length once, then looked up);
//   - uniqueItems: the bytes of the array's canonical text plus 20 per
//     item;
//   - an object: 2 per property, required name or dependency listed.
//
// Decoding the arguments is charged on top, before they are decoded
// (DecodeWork): 30 per value, 60 more per object member, 1 per byte.
//
// A subschema of a metaschema (a "$ref" may name one) is checked by the
// library itself: its enum costs the bytes of its values plus 2,000 per
// number in them, and its uniqueItems 1,000 per pair of items.
const (
	WorkApply     = 300
	workPerMatch  = 2
	workRegexFmt  = 8000
	workMember    = 200
	workItem      = 40
	workUnique    = 20
	workLibNumber = 2000
	workLibPair   = 1000
)

// Validator is a tool's compiled input schema with what bounding the
// work of a validation needs, computed once per tool definition.
type Validator struct {
	schema *jsonschema.Schema
	progs  map[*regexp.Regexp]int     // the program size of each pattern
	values map[*jsonschema.Schema]int // bytes of a subschema's enum and const values
}

// NewValidator returns the validator of the compiled schema s.
func NewValidator(s *jsonschema.Schema) *Validator {
	cv := &Validator{schema: s, progs: map[*regexp.Regexp]int{}, values: map[*jsonschema.Schema]int{}}
	seen := map[*jsonschema.Schema]bool{}
	var walk func(s *jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.Pattern != nil {
			cv.progs[s.Pattern] = ProgramSize(s.Pattern)
		}
		for re := range s.PatternProperties {
			cv.progs[re] = ProgramSize(re)
		}
		if n := valuesWork(s); n > 0 {
			cv.values[s] = n
		}
		for c := range subschemas(s) {
			walk(c)
		}
	}
	walk(s)
	return cv
}

// valuesWork is the work of checking a value against s's enum and const,
// and of the texts from the schema its errors quote.
func valuesWork(s *jsonschema.Schema) int {
	n := 0
	if s.Pattern != nil {
		n += len(s.Pattern.String()) // quoted in its error
	}
	for _, r := range s.Required {
		n += len(r) + 4 // listed in its error
	}
	if k, ok := s.Extensions["toolsearch"].(*keywords); ok {
		if k.hasConst || k.enum != nil {
			n += 2*k.longest + 64 + len(k.constMsg) + len(k.enumMsg)
		}
		return n
	}
	for _, v := range append(s.Enum, s.Constant...) {
		b, _ := json.Marshal(v)
		n += 2*len(b) + workLibNumber*countNumbers(v) // compared, then quoted in the error
	}
	return n
}

func countNumbers(v any) int {
	switch v := v.(type) {
	case json.Number, float64:
		return 1
	case []any:
		n := 0
		for _, x := range v {
			n += countNumbers(x)
		}
		return n
	case map[string]any:
		n := 0
		for _, x := range v {
			n += countNumbers(x)
		}
		return n
	}
	return 0
}

// numberWork is the work of turning the JSON number n into an exact
// rational, as the library does for each numeric keyword.
func numberWork(n string) int {
	w := 20 + 2*len(n)
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		if e, err := strconv.Atoi(strings.TrimLeft(n[i+1:], "+-")); err == nil {
			w += 2 * e
		}
	}
	return w
}

// numeric reports whether s checks numbers by their value.
func numeric(s *jsonschema.Schema) bool {
	return s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil ||
		s.MultipleOf != nil || slices.Contains(s.Types, "integer")
}

// Validate validates v, a JSON value decoded with UseNumber, against the
// schema. Check the work first (Work): validation itself is not bounded.
func (cv *Validator) Validate(v any) error { return cv.schema.Validate(v) }

// ProgramSize returns the number of instructions of re's program: matching
// a text costs at most about that many steps per byte.
func ProgramSize(re *regexp.Regexp) int {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return 1
	}
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return 1
	}
	return max(1, len(prog.Inst))
}

// ErrTooMuchWork is what Work returns when the bound is passed.
var ErrTooMuchWork = errors.New("too much work")

// Work returns nil when validating v costs at most limit units,
// ErrTooMuchWork when it may cost more, or the error of a number out of
// bounds found in a string the schema decodes as JSON (contentSchema).
func (cv *Validator) Work(v any, limit int) error {
	w := &workWalk{cv: cv, left: limit}
	if !w.apply(cv.schema, v) {
		if w.err != nil {
			return w.err
		}
		return ErrTooMuchWork
	}
	return nil
}

type workWalk struct {
	cv    *Validator
	left  int
	path  int // bytes of the current value's location, which the library builds per subschema
	depth int // subschemas being applied
	err   error
}

// spend takes n units, reporting false when they are not left.
func (w *workWalk) spend(n int) bool {
	w.left -= n
	return w.left >= 0
}

// apply adds the work of applying s to v and everything s applies below it,
// reporting false as soon as the bound is passed. It counts every
// subschema the library may apply (both branches of if, every branch of
// anyOf and oneOf), so it is an upper bound.
func (w *workWalk) apply(s *jsonschema.Schema, v any) bool {
	if s == nil {
		return true
	}
	cost := WorkApply + w.path/8 + 2*len(s.Location) + w.depth*w.depth + w.cv.values[s]
	switch v := v.(type) {
	case map[string]any:
		cost += workMember * len(v)
	case []any:
		cost += workItem * len(v)
	case json.Number:
		if numeric(s) {
			cost += 3 * numberWork(string(v))
		}
	}
	if !w.spend(cost) {
		return false
	}
	if s.Always != nil {
		return true
	}
	w.depth++
	defer func() { w.depth-- }()
	switch v := v.(type) {
	case string:
		if !w.str(s, v) {
			return false
		}
	case map[string]any:
		if !w.object(s, v) {
			return false
		}
	case []any:
		if !w.array(s, v) {
			return false
		}
	}
	for c := range sameValue(s) {
		if !w.apply(c, v) {
			return false
		}
	}
	return true
}

func (w *workWalk) str(s *jsonschema.Schema, v string) bool {
	n := len(v)
	if s.MinLength >= 0 || s.MaxLength >= 0 {
		if !w.spend(n / 8) {
			return false
		}
	}
	if s.Pattern != nil && !w.spend((n+1)*w.cv.progs[s.Pattern]) {
		return false
	}
	if s.Format != "" && formatAsserted(s) {
		cost := 2 * n // checked, and quoted in the error when it fails
		if s.Format == "regex" {
			cost = n * workRegexFmt
		}
		if !w.spend(cost) {
			return false
		}
	}
	if s.ContentSchema != nil && (s.ContentEncoding == "" || s.ContentEncoding == "base64") {
		return w.content(s, v)
	}
	return true
}

// content adds the work of validating the JSON a string holds, as the
// library decodes it, and checks its numbers as any argument's.
func (w *workWalk) content(s *jsonschema.Schema, v string) bool {
	if !w.spend(2 * len(v)) {
		return false
	}
	raw := []byte(v)
	if s.ContentEncoding == "base64" {
		var err error
		if raw, err = base64.StdEncoding.DecodeString(v); err != nil {
			return true // the library reports it; nothing is decoded
		}
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var doc any
	if d.Decode(&doc) != nil {
		return true
	}
	if err := CheckNumbers(doc); err != nil {
		w.err = err
		return false
	}
	return w.apply(s.ContentSchema, doc)
}

func (w *workWalk) object(s *jsonschema.Schema, v map[string]any) bool {
	listed := len(s.Properties) + len(s.Required) + len(s.Dependencies) + len(s.DependentRequired) + len(s.DependentSchemas)
	if !w.spend(workPerMatch * listed) {
		return false
	}
	for k, x := range v {
		matched := false
		if c, ok := s.Properties[k]; ok {
			matched = true
			if !w.member(c, k, x) {
				return false
			}
		}
		if s.RegexProperties && !w.spend((len(k)+1)*workRegexFmt) {
			return false
		}
		for re, c := range s.PatternProperties {
			if !w.spend((len(k) + 1) * w.cv.progs[re]) {
				return false
			}
			if re.MatchString(k) {
				matched = true
				if !w.member(c, k, x) {
					return false
				}
			}
		}
		if c, ok := s.AdditionalProperties.(*jsonschema.Schema); ok && !matched && !w.member(c, k, x) {
			return false
		}
		if !w.member(s.PropertyNames, k, k) || !w.member(s.UnevaluatedProperties, k, x) {
			return false
		}
	}
	return true
}

// member applies c to x, the member k of the current value.
func (w *workWalk) member(c *jsonschema.Schema, k string, x any) bool {
	if c == nil {
		return true
	}
	w.path += len(k) + 1
	ok := w.apply(c, x)
	w.path -= len(k) + 1
	return ok
}

func (w *workWalk) array(s *jsonschema.Schema, v []any) bool {
	if k, ok := s.Extensions["toolsearch"].(*keywords); ok && k.unique {
		if !w.spend(workUnique*len(v)) || !w.spend(canonSize(v, w.left+1)) {
			return false
		}
	}
	if s.UniqueItems && !w.spend(min(len(v)*len(v)/2, w.left+1)*workLibPair) {
		return false
	}
	items, _ := s.Items.([]*jsonschema.Schema)
	for i, x := range v {
		k := strconv.Itoa(i)
		var pos *jsonschema.Schema
		switch {
		case i < len(s.PrefixItems):
			pos = s.PrefixItems[i]
		case s.Items2020 != nil:
			pos = s.Items2020
		case i < len(items):
			pos = items[i]
		}
		if c, ok := s.Items.(*jsonschema.Schema); ok && !w.member(c, k, x) {
			return false
		}
		if c, ok := s.AdditionalItems.(*jsonschema.Schema); ok && i >= len(items) && items != nil && !w.member(c, k, x) {
			return false
		}
		if !w.member(pos, k, x) || !w.member(s.Contains, k, x) || !w.member(s.UnevaluatedItems, k, x) {
			return false
		}
	}
	return true
}

// canonSize returns the bytes of the canonical text of v (canon), or a
// number over limit as soon as it passes limit; its work is at most
// linear in the bytes it counts.
func canonSize(v any, limit int) int {
	n := 0
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case string:
			n += len(v) + 8
		case json.Number:
			n += len(v) + 8
		case []any:
			n += 2
			for _, x := range v {
				if n > limit || !walk(x) {
					return false
				}
			}
		case map[string]any:
			n += 2 + 16*len(v) // the keys are sorted
			for k, x := range v {
				n += len(k) + 8
				if n > limit || !walk(x) {
					return false
				}
			}
		default:
			n++
		}
		return n <= limit
	}
	walk(v)
	return n
}

// formatAsserted reports whether the library checks s's format: it does for
// drafts before 2019-09, and the package never asks it to for later ones.
func formatAsserted(s *jsonschema.Schema) bool {
	switch s.Draft {
	case jsonschema.Draft4, jsonschema.Draft6, jsonschema.Draft7:
		return true
	}
	return false
}

// MaxMessages is the most validation errors Message reports, each cut to
// text.MaxClip bytes (the schema library quotes whole values).
const MaxMessages = 10

// Message turns a jsonschema error into one line for the model.
func Message(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return text.Clip(err.Error())
	}
	var msgs []string
	more := 0
	for _, e := range ve.BasicOutput().Errors {
		if e.Error == "" || strings.HasPrefix(e.Error, "doesn't validate with") {
			continue
		}
		if len(msgs) == MaxMessages {
			more++
			continue
		}
		loc := strings.TrimPrefix(e.InstanceLocation, "/")
		if loc == "" {
			msgs = append(msgs, text.Clip(e.Error))
		} else {
			msgs = append(msgs, text.Clip(text.Echo(loc)+": "+e.Error))
		}
	}
	if len(msgs) == 0 {
		return text.Clip(ve.Error())
	}
	if more > 0 {
		msgs = append(msgs, "and "+strconv.Itoa(more)+" more")
	}
	return strings.Join(msgs, "; ")
}
