package toolsearch

import (
	"iter"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// schemaWorkLevels is how many levels of nesting of a tool's arguments
// MaxSchemaWork is checked for.
const schemaWorkLevels = 64

// schemaWork bounds the work of validating one value against s: the most
// subschemas applied to any single value of an instance nested up to
// levels deep, following $ref, allOf, anyOf and the other keywords that
// apply to the same value. Each value below the top is an object or an
// array, the same for every subschema applied to it; a member gets the
// subschema of its key plus those of the patterns it matches, or else
// additionalProperties; an item gets its positional subschema (prefixItems,
// items or additionalItems) plus contains. It stops at limit and returns
// limit+1 when it is exceeded, or when subschemas apply to the same value
// in a loop.
func schemaWork(s *jsonschema.Schema, levels, limit int) int {
	w := &workWalker{memo: map[workKey]int{}, limit: limit}
	most := w.at(s, 0, leaf)
	for d := 1; d <= levels && most <= limit; d++ {
		n := w.below(s, d)
		if n == 0 {
			// Values d levels down are reached only through subschemas
			// applied d-1 levels down, so none applies deeper either.
			break
		}
		most = max(most, n)
	}
	return most
}

// valueKind is the kind of the value a subschema is applied to, as far as
// reaching the values below it goes.
type valueKind uint8

const (
	leaf valueKind = iota // no value below it is counted
	object
	array
)

type workKey struct {
	s    *jsonschema.Schema
	d    int
	kind valueKind
}

type workWalker struct {
	memo  map[workKey]int // -1 while being computed
	limit int
}

// below returns the most subschemas s applies to one value d ≥ 1 levels
// below the value it is applied to, over the kinds that value may be; for
// d = 0, the subschemas it applies to that value itself.
func (w *workWalker) below(s *jsonschema.Schema, d int) int {
	if d == 0 {
		return w.at(s, 0, leaf)
	}
	return max(w.at(s, d, object), w.at(s, d, array))
}

// at returns how many subschemas s applies to one value d levels below the
// value of kind k it is applied to, at most limit+1.
func (w *workWalker) at(s *jsonschema.Schema, d int, k valueKind) int {
	if s == nil {
		return 0
	}
	key := workKey{s, d, k}
	if n, ok := w.memo[key]; ok {
		if n < 0 {
			return w.limit + 1 // applies to the same value in a loop
		}
		return n
	}
	w.memo[key] = -1
	n := 0
	if d == 0 {
		n = 1
	}
	add := func(m int) { n = min(n+m, w.limit+1) }
	for c := range sameValue(s) {
		add(w.at(c, d, k))
	}
	next := func(c *jsonschema.Schema) int { return w.below(c, d-1) }
	most := func(cs []*jsonschema.Schema) int {
		m := 0
		for _, c := range cs {
			m = max(m, next(c))
		}
		return m
	}
	switch {
	case d > 0 && k == object:
		named := 0
		for _, c := range s.Properties {
			named = max(named, next(c))
		}
		for _, c := range s.PatternProperties {
			named += next(c)
		}
		if c, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
			named = max(named, next(c))
		}
		add(named)
		add(next(s.PropertyNames) + next(s.UnevaluatedProperties))
	case d > 0 && k == array:
		pos := most(s.PrefixItems)
		if items, ok := s.Items.([]*jsonschema.Schema); ok {
			pos = max(pos, most(items))
		}
		for _, c := range []any{s.Items, s.AdditionalItems} {
			if c, ok := c.(*jsonschema.Schema); ok {
				pos = max(pos, next(c))
			}
		}
		pos = max(pos, next(s.Items2020))
		add(pos)
		add(next(s.Contains) + next(s.UnevaluatedItems))
	}
	w.memo[key] = n
	return n
}

// subschemas returns every subschema s holds directly: those it applies to
// the value it is applied to, and those it applies to the values below.
func subschemas(s *jsonschema.Schema) iter.Seq[*jsonschema.Schema] {
	return func(yield func(*jsonschema.Schema) bool) {
		for c := range sameValue(s) {
			if !yield(c) {
				return
			}
		}
		var below []*jsonschema.Schema
		for _, c := range s.Properties {
			below = append(below, c)
		}
		for _, c := range s.PatternProperties {
			below = append(below, c)
		}
		below = append(below, s.PrefixItems...)
		if items, ok := s.Items.([]*jsonschema.Schema); ok {
			below = append(below, items...)
		}
		for _, c := range []any{s.AdditionalProperties, s.Items, s.AdditionalItems} {
			if c, ok := c.(*jsonschema.Schema); ok {
				below = append(below, c)
			}
		}
		below = append(below, s.PropertyNames, s.UnevaluatedProperties, s.Items2020, s.Contains, s.UnevaluatedItems, s.ContentSchema)
		for _, c := range below {
			if c != nil && !yield(c) {
				return
			}
		}
	}
}

// sameValue returns the subschemas that s applies to the value it is
// applied to.
func sameValue(s *jsonschema.Schema) iter.Seq[*jsonschema.Schema] {
	return func(yield func(*jsonschema.Schema) bool) {
		for _, c := range [...]*jsonschema.Schema{s.Ref, s.RecursiveRef, s.DynamicRef, s.Not, s.If, s.Then, s.Else} {
			if c != nil && !yield(c) {
				return
			}
		}
		for _, cs := range [...][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf} {
			for _, c := range cs {
				if !yield(c) {
					return
				}
			}
		}
		for _, c := range s.DependentSchemas {
			if !yield(c) {
				return
			}
		}
		for _, c := range s.Dependencies {
			if c, ok := c.(*jsonschema.Schema); ok && !yield(c) {
				return
			}
		}
	}
}
