package tseino

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"

	"github.com/eino-contrib/jsonschema"
	orderedmap "github.com/wk8/go-ordered-map/v2"
)

// Keywords of eino's JSON Schema type, by the shape of their value.
var (
	// subschemaKeywords hold one schema.
	subschemaKeywords = map[string]func(s *jsonschema.Schema, sub *jsonschema.Schema){
		"not":                  func(s, sub *jsonschema.Schema) { s.Not = sub },
		"if":                   func(s, sub *jsonschema.Schema) { s.If = sub },
		"then":                 func(s, sub *jsonschema.Schema) { s.Then = sub },
		"else":                 func(s, sub *jsonschema.Schema) { s.Else = sub },
		"items":                func(s, sub *jsonschema.Schema) { s.Items = sub },
		"contains":             func(s, sub *jsonschema.Schema) { s.Contains = sub },
		"additionalProperties": func(s, sub *jsonschema.Schema) { s.AdditionalProperties = sub },
		"propertyNames":        func(s, sub *jsonschema.Schema) { s.PropertyNames = sub },
		"contentSchema":        func(s, sub *jsonschema.Schema) { s.ContentSchema = sub },
	}
	// listKeywords hold an array of schemas.
	listKeywords = map[string]func(s *jsonschema.Schema, subs []*jsonschema.Schema){
		"allOf":       func(s *jsonschema.Schema, subs []*jsonschema.Schema) { s.AllOf = subs },
		"anyOf":       func(s *jsonschema.Schema, subs []*jsonschema.Schema) { s.AnyOf = subs },
		"oneOf":       func(s *jsonschema.Schema, subs []*jsonschema.Schema) { s.OneOf = subs },
		"prefixItems": func(s *jsonschema.Schema, subs []*jsonschema.Schema) { s.PrefixItems = subs },
	}
	// mapKeywords hold an object of schemas ("properties" keeps its order
	// and is handled apart).
	mapKeywords = map[string]func(s *jsonschema.Schema, subs map[string]*jsonschema.Schema){
		"$defs":             func(s *jsonschema.Schema, subs map[string]*jsonschema.Schema) { s.Definitions = subs },
		"patternProperties": func(s *jsonschema.Schema, subs map[string]*jsonschema.Schema) { s.PatternProperties = subs },
		"dependentSchemas":  func(s *jsonschema.Schema, subs map[string]*jsonschema.Schema) { s.DependentSchemas = subs },
	}
	// valueKeywords hold any JSON value; their numbers are kept as written.
	valueKeywords = map[string]func(s *jsonschema.Schema, v any) bool{
		"enum": func(s *jsonschema.Schema, v any) bool {
			a, ok := v.([]any)
			s.Enum = a
			return ok && len(a) > 0
		},
		"examples": func(s *jsonschema.Schema, v any) bool {
			a, ok := v.([]any)
			s.Examples = a
			return ok && len(a) > 0
		},
		"const":   func(s *jsonschema.Schema, v any) bool { s.Const = v; return v != nil },
		"default": func(s *jsonschema.Schema, v any) bool { s.Default = v; return v != nil },
	}
	// scalarKeywords are the other keywords the type has a field for.
	scalarKeywords = map[string]bool{
		"$schema": true, "$id": true, "$anchor": true, "$ref": true, "$dynamicRef": true, "$comment": true,
		"type": true, "multipleOf": true, "maximum": true, "exclusiveMaximum": true, "minimum": true,
		"exclusiveMinimum": true, "maxLength": true, "minLength": true, "pattern": true, "maxItems": true,
		"minItems": true, "uniqueItems": true, "maxContains": true, "minContains": true, "maxProperties": true,
		"minProperties": true, "required": true, "dependentRequired": true, "format": true,
		"contentEncoding": true, "contentMediaType": true, "title": true, "description": true,
		"deprecated": true, "readOnly": true, "writeOnly": true,
	}
)

// jsonSchema converts raw, a JSON Schema whose root is an object, into
// eino's JSON Schema type without losing anything: a keyword the type
// has no field for, or whose value its field cannot hold exactly (a
// draft-04 boolean exclusiveMaximum, an array-form items, an empty
// required list that its encoding would drop), is kept in Extras as
// written. The result encodes to JSON equal to raw (same members and
// values; the order of members other than properties may differ), which
// is checked.
func jsonSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	want, err := decodeJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: the input schema is not JSON: %v", ErrSchema, err)
	}
	if _, ok := want.(map[string]any); !ok {
		return nil, fmt.Errorf("%w: the input schema is %s, not a JSON object", ErrSchema, kind(want))
	}
	s, err := objectSchema(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSchema, err)
	}
	out, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSchema, err)
	}
	got, err := decodeJSON(out)
	if err != nil || !equalJSON(want, got) {
		return nil, fmt.Errorf("%w: the schema would not be sent as given (it reads back as %s)", ErrSchema, out)
	}
	return s, nil
}

// subschema converts a schema that may be an object or a boolean; ok is
// false for any other JSON value.
func subschema(raw json.RawMessage) (s *jsonschema.Schema, ok bool, err error) {
	switch t := bytes.TrimSpace(raw); {
	case bytes.Equal(t, []byte("true")):
		c := *jsonschema.TrueSchema
		return &c, true, nil
	case bytes.Equal(t, []byte("false")):
		c := *jsonschema.FalseSchema
		return &c, true, nil
	case len(t) > 0 && t[0] == '{':
		s, err := objectSchema(t)
		return s, err == nil, err
	}
	return nil, false, nil
}

// objectSchema converts one schema object.
func objectSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	keys, members, err := objectMembers(raw)
	if err != nil {
		return nil, err
	}
	s := &jsonschema.Schema{}
	extras := map[string]any{}
	scalars := map[string]json.RawMessage{}
	for _, k := range keys {
		v := members[k]
		kept, err := setKeyword(s, k, v, scalars)
		if err != nil {
			return nil, err
		}
		if !kept {
			extras[k] = v
		}
	}
	if len(scalars) > 0 {
		b, err := json.Marshal(scalars)
		if err != nil {
			return nil, err
		}
		var t jsonschema.Schema
		if err := json.Unmarshal(b, &t); err != nil {
			return nil, err
		}
		copyScalars(s, &t)
	}
	if len(extras) > 0 || len(keys) == 0 {
		// A schema with no field set encodes as true; {} must stay {}.
		s.Extras = extras
	}
	return s, nil
}

// setKeyword sets keyword k of s from v, or adds it to scalars to be set
// together; kept is false when v must go to Extras instead.
func setKeyword(s *jsonschema.Schema, k string, v json.RawMessage, scalars map[string]json.RawMessage) (kept bool, err error) {
	if set, ok := subschemaKeywords[k]; ok {
		sub, ok, err := subschema(v)
		if ok {
			set(s, sub)
		}
		return ok, err
	}
	if set, ok := listKeywords[k]; ok {
		subs, ok, err := schemaList(v)
		if ok {
			set(s, subs)
		}
		return ok, err
	}
	if set, ok := mapKeywords[k]; ok {
		subs, ok, err := schemaMap(v)
		if ok {
			set(s, subs)
		}
		return ok, err
	}
	if k == "properties" {
		props, ok, err := properties(v)
		if ok {
			s.Properties = props
		}
		return ok, err
	}
	if set, ok := valueKeywords[k]; ok {
		x, err := decodeJSON(v)
		if err != nil {
			return false, err
		}
		if !set(s, x) {
			set(s, nil)
			return false, nil
		}
		return true, nil
	}
	if scalarKeywords[k] && scalarFits(k, v) {
		scalars[k] = v
		return true, nil
	}
	return false, nil
}

// scalarFits reports whether the type's field for keyword k holds v and
// encodes it back as written.
func scalarFits(k string, v json.RawMessage) bool {
	one, err := json.Marshal(map[string]json.RawMessage{k: v})
	if err != nil {
		return false
	}
	var t jsonschema.Schema
	if json.Unmarshal(one, &t) != nil {
		return false
	}
	back, err := json.Marshal(&t)
	if err != nil {
		return false
	}
	got, err := decodeJSON(back)
	if err != nil {
		return false
	}
	want, err := decodeJSON(one)
	return err == nil && equalJSON(want, got)
}

// copyScalars copies the scalar keyword fields of t into s.
func copyScalars(s, t *jsonschema.Schema) {
	s.Version, s.ID, s.Anchor, s.Ref, s.DynamicRef, s.Comments = t.Version, t.ID, t.Anchor, t.Ref, t.DynamicRef, t.Comments
	s.Type, s.TypeEnhanced = t.Type, t.TypeEnhanced
	s.MultipleOf, s.Maximum, s.ExclusiveMaximum, s.Minimum, s.ExclusiveMinimum = t.MultipleOf, t.Maximum, t.ExclusiveMaximum, t.Minimum, t.ExclusiveMinimum
	s.MaxLength, s.MinLength, s.Pattern = t.MaxLength, t.MinLength, t.Pattern
	s.MaxItems, s.MinItems, s.UniqueItems, s.MaxContains, s.MinContains = t.MaxItems, t.MinItems, t.UniqueItems, t.MaxContains, t.MinContains
	s.MaxProperties, s.MinProperties, s.Required, s.DependentRequired = t.MaxProperties, t.MinProperties, t.Required, t.DependentRequired
	s.Format, s.ContentEncoding, s.ContentMediaType = t.Format, t.ContentEncoding, t.ContentMediaType
	s.Title, s.Description, s.Deprecated, s.ReadOnly, s.WriteOnly = t.Title, t.Description, t.Deprecated, t.ReadOnly, t.WriteOnly
}

func schemaList(raw json.RawMessage) ([]*jsonschema.Schema, bool, error) {
	items, ok := arrayMembers(raw)
	if !ok || len(items) == 0 {
		return nil, false, nil
	}
	out := make([]*jsonschema.Schema, len(items))
	for i, it := range items {
		s, ok, err := subschema(it)
		if err != nil || !ok {
			return nil, false, err
		}
		out[i] = s
	}
	return out, true, nil
}

func schemaMap(raw json.RawMessage) (map[string]*jsonschema.Schema, bool, error) {
	keys, members, err := objectMembers(raw)
	if err != nil || len(keys) == 0 {
		return nil, false, nil
	}
	out := make(map[string]*jsonschema.Schema, len(keys))
	for _, k := range keys {
		s, ok, err := subschema(members[k])
		if err != nil || !ok {
			return nil, false, err
		}
		out[k] = s
	}
	return out, true, nil
}

// properties keeps the order in which the properties are written.
func properties(raw json.RawMessage) (*orderedmap.OrderedMap[string, *jsonschema.Schema], bool, error) {
	keys, members, err := objectMembers(raw)
	if err != nil {
		return nil, false, nil
	}
	out := orderedmap.New[string, *jsonschema.Schema]()
	for _, k := range keys {
		s, ok, err := subschema(members[k])
		if err != nil || !ok {
			return nil, false, err
		}
		out.Set(k, s)
	}
	return out, true, nil
}

// objectMembers returns the member names of a JSON object in the order
// written (a repeated name counts once, with its last value) and the
// values.
func objectMembers(raw json.RawMessage) ([]string, map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, fmt.Errorf("not a JSON object: %.40s", raw)
	}
	var keys []string
	members := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, seen := members[k]; !seen {
			keys = append(keys, k)
		}
		members[k] = v
	}
	return keys, members, nil
}

func arrayMembers(raw json.RawMessage) ([]json.RawMessage, bool) {
	var items []json.RawMessage
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &items) != nil {
		return nil, false
	}
	return items, true
}

// decodeJSON decodes one JSON value, keeping numbers as written.
func decodeJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

// equalJSON compares two values decoded by decodeJSON; numbers are equal
// when they are the same number (1, 1.0 and 1e0 are).
func equalJSON(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		m, ok := b.(map[string]any)
		if !ok || len(m) != len(a) {
			return false
		}
		for k, v := range a {
			w, ok := m[k]
			if !ok || !equalJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		s, ok := b.([]any)
		if !ok || len(s) != len(a) {
			return false
		}
		for i := range a {
			if !equalJSON(a[i], s[i]) {
				return false
			}
		}
		return true
	case json.Number:
		n, ok := b.(json.Number)
		if !ok {
			return false
		}
		x, okx := new(big.Rat).SetString(string(a))
		y, oky := new(big.Rat).SetString(string(n))
		return okx && oky && x.Cmp(y) == 0
	default:
		return a == b
	}
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}
