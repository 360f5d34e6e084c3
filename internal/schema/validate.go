package schema

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/toolsearch/toolsearch/internal/text"
)

// Validating a tool call's arguments (Session.CheckCall) is the schema
// library's work, and its cost is the product of what the model sends and
// what the server's schema asks: a long string against a pattern with a
// large program, a big array against an enum of a thousand values, the
// same string against many formats. Before the library runs, a walk of the
// arguments along the schema adds up an upper bound of that work, in units
// of about ten nanoseconds, and refuses the call when it exceeds
// SessionOptions.MaxValidationWork. The walk itself stops as soon as the
// bound is passed, so it never costs more than the work it allows.
//
// The weights, measured on the schema library (one unit ≈ one step of a
// regular-expression program over one byte):
//   - a subschema applied to a value: 300, plus an eighth of the bytes of
//     the value's location and half the square of the number of
//     subschemas being applied around it (the library rebuilds its
//     location strings from those on every failure, so deep arguments
//     against a recursive schema cost the cube of their depth);
//   - a string checked against a pattern: its length times the pattern's
//     program size; against a format: twice its length (checked, then
//     quoted in the error), 8,000 times for the format "regex" (compiled);
//   - an enum or const: the bytes of its values;
//   - an object: 2 per property, required name or dependency listed.
const (
	WorkApply    = 300
	workPerMatch = 2
	workRegexFmt = 8000
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
		n := 0
		for _, v := range append(s.Enum, s.Constant...) {
			b, _ := json.Marshal(v)
			n += len(b)
		}
		if n > 0 {
			cv.values[s] = n
		}
		for c := range subschemas(s) {
			walk(c)
		}
	}
	walk(s)
	return cv
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
	if !w.spend(WorkApply + w.path/8 + w.depth*w.depth/2 + w.cv.values[s]) {
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
	if s.Pattern != nil && !w.spend(n*w.cv.progs[s.Pattern]) {
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
		for re, c := range s.PatternProperties {
			if !w.spend(len(k) * w.cv.progs[re]) {
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
	if s.UniqueItems && !w.spend(WorkApply*len(v)) {
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
