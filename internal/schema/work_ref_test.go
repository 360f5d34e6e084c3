package schema

import (
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// refSchemaWork is schemaWork as it was written on compiled schemas
// before the work graph, kept to check the graph against. It bounds the
// work of validating one value against s: the most
// subschemas applied to any single value of an instance nested up to
// levels deep, following $ref, allOf, anyOf and the other keywords that
// apply to the same value. Each value below the top is an object or an
// array, the same for every subschema applied to it; a member gets the
// subschema of its key plus those of the patterns it matches, or else
// additionalProperties; an item gets its positional subschema (prefixItems,
// items or additionalItems) plus contains. It stops at limit and returns
// limit+1 when it is exceeded, or when subschemas apply to the same value
// in a loop.
func refSchemaWork(s *jsonschema.Schema, levels, limit int) int {
	w := &refWorkWalker{memo: map[refWorkKey]int{}, limit: limit}
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

type refWorkKey struct {
	s    *jsonschema.Schema
	d    int
	kind valueKind
}

type refWorkWalker struct {
	memo  map[refWorkKey]int // -1 while being computed
	limit int
}

// below returns the most subschemas s applies to one value d ≥ 1 levels
// below the value it is applied to, over the kinds that value may be; for
// d = 0, the subschemas it applies to that value itself.
func (w *refWorkWalker) below(s *jsonschema.Schema, d int) int {
	if d == 0 {
		return w.at(s, 0, leaf)
	}
	return max(w.at(s, d, object), w.at(s, d, array))
}

// at returns how many subschemas s applies to one value d levels below the
// value of kind k it is applied to, at most limit+1.
func (w *refWorkWalker) at(s *jsonschema.Schema, d int, k valueKind) int {
	if s == nil {
		return 0
	}
	key := refWorkKey{s, d, k}
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
