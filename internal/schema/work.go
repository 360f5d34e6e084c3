package schema

import (
	"iter"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// schemaWorkLevels is how many levels of nesting of a tool's arguments
// MaxSchemaWork is checked for.
const schemaWorkLevels = 64

// schemaWork bounds the work of validating one value against g: the most
// subschemas applied to any single value of an instance nested up to
// levels deep, following $ref, allOf, anyOf and the other keywords that
// apply to the same value. Each value below the top is an object or an
// array, the same for every subschema applied to it; a member gets the
// subschema of its key plus those of the patterns it matches, or else
// additionalProperties; an item gets its positional subschema (prefixItems,
// items or additionalItems) plus contains. It stops at limit and returns
// limit+1 when it is exceeded, or when subschemas apply to the same value
// in a loop.
func schemaWork(g *workNode, levels, limit int) int {
	w := &workWalker{memo: map[workKey]int{}, limit: limit, root: g}
	most := w.at(g, 0, leaf)
	for d := 1; d <= levels && most <= limit; d++ {
		n := w.below(g, d)
		if n == 0 {
			// Values d levels down are reached only through subschemas
			// applied d-1 levels down, so none applies deeper either.
			break
		}
		most = max(most, n)
	}
	return most
}

// workNode is a subschema as far as the work of validating goes: the
// subschemas it applies, each with how it applies it. It is built from a
// compiled schema (workGraph) or by the quick check of a schema
// (quickSchema); both give the same graph for the same schema.
type workNode struct {
	edges []workEdge
	in    int32 // edges to it
}

type workEdge struct {
	kind edgeKind
	to   *workNode
}

// edgeKind is how a subschema applies one of its subschemas.
type edgeKind uint8

const (
	edgeSame       edgeKind = iota // to the same value: $ref, not, if/then/else, allOf, anyOf, oneOf, dependentSchemas, dependencies
	edgeProperty                   // properties: to the member of its key
	edgePattern                    // patternProperties: to every member whose key matches
	edgeAdditional                 // additionalProperties: to the other members
	edgeMember                     // propertyNames, unevaluatedProperties: to every member
	edgePosition                   // prefixItems, items, additionalItems: to the items of its positions
	edgeItem                       // contains, unevaluatedItems: to every item
)

func (n *workNode) add(kind edgeKind, to *workNode) {
	n.edges = append(n.edges, workEdge{kind, to})
	to.in++
}

// workGraph returns the work graph of the compiled schema s: one node per
// compiled subschema, shared where the compiled schemas are.
func workGraph(s *jsonschema.Schema) *workNode {
	nodes := map[*jsonschema.Schema]*workNode{}
	var node func(s *jsonschema.Schema) *workNode
	node = func(s *jsonschema.Schema) *workNode {
		if n := nodes[s]; n != nil {
			return n
		}
		n := &workNode{}
		nodes[s] = n
		add := func(kind edgeKind, c *jsonschema.Schema) {
			if c != nil {
				n.add(kind, node(c))
			}
		}
		for c := range sameValue(s) {
			add(edgeSame, c)
		}
		for _, c := range s.Properties {
			add(edgeProperty, c)
		}
		for _, c := range s.PatternProperties {
			add(edgePattern, c)
		}
		if c, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
			add(edgeAdditional, c)
		}
		add(edgeMember, s.PropertyNames)
		add(edgeMember, s.UnevaluatedProperties)
		for _, c := range s.PrefixItems {
			add(edgePosition, c)
		}
		if items, ok := s.Items.([]*jsonschema.Schema); ok {
			for _, c := range items {
				add(edgePosition, c)
			}
		}
		for _, c := range []any{s.Items, s.AdditionalItems} {
			if c, ok := c.(*jsonschema.Schema); ok {
				add(edgePosition, c)
			}
		}
		add(edgePosition, s.Items2020)
		add(edgeItem, s.Contains)
		add(edgeItem, s.UnevaluatedItems)
		return n
	}
	return node(s)
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
	n    *workNode
	d    int
	kind valueKind
}

type workWalker struct {
	memo  map[workKey]int // -1 while being computed
	limit int
	root  *workNode
}

// below returns the most subschemas n applies to one value d ≥ 1 levels
// below the value it is applied to, over the kinds that value may be; for
// d = 0, the subschemas it applies to that value itself.
func (w *workWalker) below(n *workNode, d int) int {
	if d == 0 {
		return w.at(n, 0, leaf)
	}
	return max(w.at(n, d, object), w.at(n, d, array))
}

// at returns how many subschemas n applies to one value d levels below the
// value of kind k it is applied to, at most limit+1.
func (w *workWalker) at(n *workNode, d int, k valueKind) int {
	// Only a node with two edges to it, or the root with one, can be
	// reached twice for the same value, or in a loop: the others are
	// computed once per computation of their one parent, and remembered
	// with it.
	memo := n.in > 1 || n == w.root && n.in > 0
	key := workKey{n, d, k}
	if memo {
		if c, ok := w.memo[key]; ok {
			if c < 0 {
				return w.limit + 1 // applies to the same value in a loop
			}
			return c
		}
		w.memo[key] = -1
	}
	c := 0
	if d == 0 {
		c = 1
	}
	add := func(m int) { c = min(c+m, w.limit+1) }
	for _, e := range n.edges {
		if e.kind == edgeSame {
			add(w.at(e.to, d, k))
		}
	}
	if d > 0 {
		// A member gets the subschema of its key (the largest) plus those
		// of every pattern, or additionalProperties; an item the subschema
		// of its position; and every member or item the ones for all.
		var named, patterns, additional, all, position int
		for _, e := range n.edges {
			switch {
			case k == object && e.kind == edgeProperty:
				named = max(named, w.below(e.to, d-1))
			case k == object && e.kind == edgePattern:
				patterns += w.below(e.to, d-1)
			case k == object && e.kind == edgeAdditional:
				additional = max(additional, w.below(e.to, d-1))
			case k == object && e.kind == edgeMember, k == array && e.kind == edgeItem:
				all += w.below(e.to, d-1)
			case k == array && e.kind == edgePosition:
				position = max(position, w.below(e.to, d-1))
			}
		}
		add(max(named+patterns, additional, position))
		add(all)
	}
	if memo {
		w.memo[key] = c
	}
	return c
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
