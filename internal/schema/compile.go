// Package schema checks and compiles the input JSON Schemas of tools
// (github.com/santhosh-tekuri/jsonschema/v5 underneath) and bounds what
// they can cost: the size, depth and numbers of a schema, the work of
// validating against it (Check), the work of one validation given the
// arguments (Validator.Work), and the messages of a failed validation. A
// schema is inert: it never makes the library read a file or open a
// connection. Errors say what is wrong without a package prefix: the
// caller classifies them (Error.Limit) and wraps them in its own.
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Limits bound what a schema may cost: its size in bytes, the nesting of
// its objects and arrays ({} is depth 1) and the work of validating one
// value against it (see Check).
type Limits struct {
	MaxBytes, MaxDepth, MaxWork int
}

// The limits a registry uses when it is not told.
const (
	DefaultMaxBytes = 64 << 10 // bytes in one schema
	DefaultMaxDepth = 64       // nesting of objects and arrays in one schema
	DefaultMaxWork  = 10_000   // subschemas applied to one value when validating
)

// DefaultLimits are the default limits as one value.
var DefaultLimits = Limits{MaxBytes: DefaultMaxBytes, MaxDepth: DefaultMaxDepth, MaxWork: DefaultMaxWork}

// Error is a schema refused: Msg says why, Limit that it is over one of
// the Limits (or holds a number out of bounds).
type Error struct {
	Msg   string
	Limit bool
}

func (e *Error) Error() string { return e.Msg }

func invalid(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

func overLimit(format string, args ...any) error {
	return &Error{Msg: "limit exceeded: " + fmt.Sprintf(format, args...), Limit: true}
}

// schemaURL is the base URL a tool schema is compiled under. Relative
// references resolve against it and are refused by refuseLoad.
const schemaURL = "toolsearch:///input_schema.json"

// errExternalRef is returned for any document a schema refers to outside
// itself: schemas are inert, they never make the library read a file or
// open a connection.
var errExternalRef = fmt.Errorf("refusing to load an external document: schemas may only use references inside themselves")

func refuseLoad(url string) (io.ReadCloser, error) {
	return nil, fmt.Errorf("%w: %s", errExternalRef, url)
}

// Compile compiles raw as a JSON Schema without ever loading an
// external document. A schema that declares no $schema is read as draft
// 2020-12 (the MCP default); if it is invalid there but valid as draft-07 or
// draft-04, dialects MCP servers still emit, it is accepted as such.
func Compile(raw json.RawMessage) (*jsonschema.Schema, error) {
	if !json.Valid(raw) {
		return nil, invalid("not valid JSON")
	}
	if b := bytes.TrimLeft(raw, " \t\r\n"); len(b) == 0 || b[0] != '{' {
		return nil, invalid("not a JSON object")
	}
	var first error
	for _, d := range []*jsonschema.Draft{jsonschema.Draft2020, jsonschema.Draft7, jsonschema.Draft4} {
		c := jsonschema.NewCompiler()
		c.Draft = d
		c.LoadURL = refuseLoad
		for name, f := range formats {
			c.Formats[name] = f
		}
		if err := c.AddResource(schemaURL, bytes.NewReader(raw)); err != nil {
			return nil, invalid("%v", err)
		}
		s, err := compileGuarded(c)
		if err == nil {
			replaceKeywords(s)
			return s, nil
		}
		if first == nil {
			first = err
		}
		if errors.Is(err, errExternalRef) || bytes.Contains(raw, []byte(`"$schema"`)) {
			break // not a dialect problem
		}
	}
	return nil, invalid("%v", first)
}

// compileGuarded compiles the schema added to c, turning a panic of the
// schema library into an error. The library reads a few keywords its
// metaschema does not describe with unchecked type assertions
// ({"regexProperties":1}), and compiles a reference to a list of property
// names (#/dependencies/x) as if it were a schema: on input from a server,
// that must be a refusal, not a crash.
func compileGuarded(c *jsonschema.Compiler) (s *jsonschema.Schema, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("the schema library failed on it: %v", p)
		}
	}()
	return c.Compile(schemaURL)
}

// Check checks raw against the size and depth limits of lim, then
// compiles it and bounds the work of validating against it: the most
// subschemas that validation may apply to any one value of arguments
// nested up to 64 levels, following $ref, allOf, anyOf, oneOf and the
// like, must be at most lim.MaxWork. A schema holding a number with more
// than 100 digits or an exponent beyond ±400 is refused too. The error is
// an *Error. The size and
// depth are checked first, so that an enormous or deeply nested schema is
// never handed to the compiler. A schema the quick check proves valid
// (quick.go) is not compiled here: the library would accept it with
// the same work bound, and compiles it when a call is first checked.
func Check(raw json.RawMessage, lim Limits) error {
	if m := lim.MaxBytes; len(raw) > m {
		return overLimit("the schema is %d bytes, the limit is %d", len(raw), m)
	}
	if g, ok := quickSchema(raw, lim); ok && schemaWork(g, schemaWorkLevels, lim.MaxWork) <= lim.MaxWork {
		return nil // proven valid (quick.go)
	}
	return checkSchemaFull(raw, lim)
}

// checkSchemaFull is Check by the schema library alone, for a schema
// within the size limit: it decides what the quick check leaves, and words
// every refusal.
func checkSchemaFull(raw json.RawMessage, lim Limits) error {
	if m := lim.MaxDepth; jsonDepth(raw, m+1) > m {
		return overLimit("the schema nests objects and arrays more than %d deep", m)
	}
	if err := checkSchemaNumbers(raw); err != nil {
		return err
	}
	s, err := Compile(raw)
	if err != nil {
		return err
	}
	if m := lim.MaxWork; schemaWork(workGraph(s), schemaWorkLevels, m) > m {
		return overLimit("validating one value may apply more than %d subschemas: its references fan out", m)
	}
	return nil
}

// checkSchemaNumbers checks the numbers of a schema (see CheckNumbers)
// before the compiler reads them. A schema that is not JSON is left to the
// compiler to refuse.
func checkSchemaNumbers(raw json.RawMessage) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	if err := CheckNumbers(v); err != nil {
		return overLimit("%v", err)
	}
	return nil
}

// jsonDepth returns the deepest nesting of objects and arrays in the valid
// JSON text raw, stopping as soon as it reaches upTo.
func jsonDepth(raw []byte, upTo int) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > deepest {
				if deepest = depth; deepest >= upTo {
					return deepest
				}
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// ArgumentTexts returns the argument names and descriptions of an input
// schema: the keys of every "properties" object and the "description" of
// every property, nested ones included, keys sorted at each level. A schema that
// does not decode gives none.
func ArgumentTexts(schema json.RawMessage) (names, descs []string) {
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
