package schema

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// The quick check of an input schema. Compiling a schema with the schema
// library costs 60–200 µs, 85 % of it validating the schema against the
// draft's metaschema, and a registry of 10,000 tools from many servers has
// thousands of distinct schemas. The quick check proves a schema valid in a
// few microseconds, by checking what the metaschema checks, keyword by
// keyword, on a parsed document (document.go), and builds the same work
// graph (work.go) as the compiled schema has. It only ever answers
// "valid": whatever it is not sure of (a keyword value the metaschema
// refuses, $id or anchors, a reference it does not follow, a draft other
// than 2020-12 and draft-07, a key given twice, a number out of bounds, a
// nesting too deep, a work bound exceeded) it leaves to the full check,
// which compiles the schema with the library and words the error as
// before. So a schema is refused exactly when the library refuses it; the
// tests (quick_test.go) check on every real schema and on generated
// and hostile ones that what the quick check accepts the library accepts,
// with the same work graph. The validator for Session.CheckCall is
// compiled by the library the first time a call needs it.

// quickMaxDepth is the deepest document the quick check reads; a deeper
// one (allowed by a larger Limits.MaxDepth) goes to the full check.
const quickMaxDepth = 256

// quickSchema returns the work graph of raw, a schema within lim's size,
// when it proves raw a valid JSON Schema that needs no external document;
// ok is false when the full check must decide.
func quickSchema(raw json.RawMessage, lim Limits) (g *workNode, ok bool) {
	d := parseSchemaDoc(string(raw), min(lim.MaxDepth, quickMaxDepth))
	defer d.put()
	if d.unfit || d.vals[d.root].kind != docObject {
		return nil, false
	}
	q := quickCheck{d: d, draft: schemaDraft(d)}
	if q.draft == 0 {
		return nil, false
	}
	return q.run()
}

// schemaDraft returns the draft a document is compiled under: 2020 (2020-12)
// without "$schema", else the draft it names, 7 for draft-07; 0 for any
// other (left to the full check).
func schemaDraft(d *schemaDoc) int {
	v := d.member(d.root, "$schema")
	if v < 0 {
		return 2020
	}
	if d.vals[v].kind != docString {
		return 0
	}
	u := d.vals[v].text
	if rest, ok := strings.CutPrefix(u, "http://"); ok {
		u = "https://" + rest
	}
	if strings.HasSuffix(u, "#") || strings.HasSuffix(u, "#/") {
		u = u[:strings.IndexByte(u, '#')]
	}
	switch u {
	case "https://json-schema.org/schema", "https://json-schema.org/draft/2020-12/schema":
		return 2020
	case "https://json-schema.org/draft-07/schema":
		return 7
	}
	return 0
}

// quickCheck checks the subschemas of one document, from the root down.
type quickCheck struct {
	d     *schemaDoc
	draft int
	nodes map[int32]*workNode // the subschemas checked, by value
	todo  []int32
	refs  []quickRef
	ok    bool
}

// quickRef is a $ref to follow once every subschema is checked.
type quickRef struct {
	from *workNode
	ptr  string
}

func (q *quickCheck) run() (*workNode, bool) {
	q.ok = true
	q.nodes = make(map[int32]*workNode, 8)
	root := q.subschema(q.d.root)
	for len(q.todo) > 0 && q.ok {
		v := q.todo[len(q.todo)-1]
		q.todo = q.todo[:len(q.todo)-1]
		q.check(v)
	}
	for _, r := range q.refs {
		if !q.ok {
			break
		}
		to := q.nodes[q.resolve(r.ptr)]
		if to == nil {
			// A target that is not a subschema checked here (or none):
			// the library may read it differently or refuse it.
			return nil, false
		}
		r.from.add(edgeSame, to)
	}
	return root, q.ok
}

// fail marks the document as not proven valid.
func (q *quickCheck) fail() { q.ok = false }

// subschema returns the node of value v, a subschema, queued for checking;
// a subschema is an object or a boolean.
func (q *quickCheck) subschema(v int32) *workNode {
	if k := q.d.vals[v].kind; k != docObject && k != docTrue && k != docFalse {
		q.fail()
		return &workNode{}
	}
	n := &workNode{}
	q.nodes[v] = n
	if q.d.vals[v].kind == docObject {
		q.todo = append(q.todo, v)
	}
	return n
}

// schemas checks that v is an object whose values are subschemas and
// returns their nodes.
func (q *quickCheck) schemaMap(v int32) []*workNode {
	if q.d.vals[v].kind != docObject {
		q.fail()
		return nil
	}
	var ns []*workNode
	for _, m := range q.d.items(v) {
		ns = append(ns, q.subschema(m.val))
	}
	return ns
}

// schemaArray checks that v is a non-empty array of subschemas and returns
// their nodes.
func (q *quickCheck) schemaArray(v int32) []*workNode {
	if q.d.vals[v].kind != docArray || len(q.d.items(v)) == 0 {
		q.fail()
		return nil
	}
	var ns []*workNode
	for _, m := range q.d.items(v) {
		ns = append(ns, q.subschema(m.val))
	}
	return ns
}

// check checks the keywords of subschema v, an object, as the draft's
// metaschema does, and adds the edges of its node as the library compiles
// them.
func (q *quickCheck) check(v int32) {
	d, n := q.d, q.nodes[v]
	has := func(k string) bool { return d.member(v, k) >= 0 }
	// Draft-07 ignores every other keyword of a subschema with $ref; the
	// metaschema still checks them.
	edges := q.draft != 7 || !has("$ref")
	link := func(kind edgeKind, to ...*workNode) {
		if edges {
			for _, t := range to {
				n.add(kind, t)
			}
		}
	}
	is2020 := q.draft == 2020
	for _, m := range d.items(v) {
		x := d.vals[m.val]
		switch m.key {
		case "$ref":
			if x.kind != docString {
				q.fail()
			} else {
				q.refs = append(q.refs, quickRef{n, x.text})
			}
		case "$schema":
			if v != d.root {
				q.fail() // checked at the root by schemaDraft
			}
		case "$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$recursiveRef", "$recursiveAnchor", "regexProperties":
			q.fail() // base URIs, anchors, vocabularies: left to the library
		case "$comment", "title", "description", "format", "contentEncoding", "contentMediaType":
			q.want(x.kind == docString)
		case "default", "const":
		case "examples":
			q.want(x.kind == docArray)
		case "readOnly", "writeOnly", "uniqueItems":
			q.want(x.kind == docTrue || x.kind == docFalse)
		case "deprecated":
			q.want(!is2020 || x.kind == docTrue || x.kind == docFalse)
		case "multipleOf":
			q.want(x.kind == docNumber && positive(x.text))
		case "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum":
			q.want(x.kind == docNumber)
		case "maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties":
			q.want(nonNegativeInteger(x))
		case "maxContains", "minContains":
			q.want(!is2020 || nonNegativeInteger(x))
		case "pattern":
			q.want(x.kind == docString && isRegexp(x.text))
		case "required":
			q.want(q.stringSet(m.val))
		case "dependentRequired":
			if is2020 {
				q.want(x.kind == docObject)
				for _, r := range d.items(m.val) {
					q.want(q.stringSet(r.val))
				}
			}
		case "type":
			q.want(q.typeValue(m.val))
		case "enum":
			q.want(x.kind == docArray && (is2020 || len(d.items(m.val)) > 0 && q.distinct(m.val)))
		case "$defs":
			if is2020 {
				q.schemaMap(m.val)
			}
		case "definitions":
			q.schemaMap(m.val)
		case "not":
			link(edgeSame, q.subschema(m.val))
		case "allOf", "anyOf", "oneOf":
			link(edgeSame, q.schemaArray(m.val)...)
		case "if":
			link(edgeSame, q.subschema(m.val))
		case "then", "else":
			s := q.subschema(m.val)
			if has("if") { // compiled only with if
				link(edgeSame, s)
			}
		case "properties":
			link(edgeProperty, q.schemaMap(m.val)...)
		case "patternProperties":
			if x.kind == docObject {
				for _, p := range d.items(m.val) {
					q.want(isRegexp(p.key))
				}
			}
			link(edgePattern, q.schemaMap(m.val)...)
		case "additionalProperties":
			s := q.subschema(m.val)
			if x.kind == docObject { // false and true are kept as booleans
				link(edgeAdditional, s)
			}
		case "propertyNames":
			link(edgeMember, q.subschema(m.val))
		case "contains":
			link(edgeItem, q.subschema(m.val))
		case "unevaluatedProperties":
			if is2020 {
				link(edgeMember, q.subschema(m.val))
			}
		case "unevaluatedItems":
			if is2020 {
				link(edgeItem, q.subschema(m.val))
			}
		case "prefixItems":
			if is2020 {
				link(edgePosition, q.schemaArray(m.val)...)
			}
		case "items":
			if !is2020 && x.kind == docArray {
				link(edgePosition, q.schemaArray(m.val)...)
			} else {
				link(edgePosition, q.subschema(m.val))
			}
		case "additionalItems":
			if !is2020 {
				s := q.subschema(m.val)
				// Compiled only after an array of items, and only as an
				// object (false and true are kept as booleans).
				if it := d.member(v, "items"); x.kind == docObject && it >= 0 && d.vals[it].kind == docArray {
					link(edgePosition, s)
				}
			}
		case "dependentSchemas":
			if is2020 {
				link(edgeSame, q.schemaMap(m.val)...)
			}
		case "dependencies":
			if x.kind != docObject {
				q.fail()
				break
			}
			for _, dep := range d.items(m.val) {
				if d.vals[dep.val].kind == docArray {
					q.want(q.stringSet(dep.val))
				} else {
					link(edgeSame, q.subschema(dep.val))
				}
			}
		case "contentSchema":
			if has("contentMediaType") {
				q.fail() // compiled then, in a loop check of its own
			} else if is2020 {
				q.subschema(m.val)
			}
		}
		if !q.ok {
			return
		}
	}
}

func (q *quickCheck) want(ok bool) {
	if !ok {
		q.fail()
	}
}

// simpleTypes are the names the metaschema allows in "type".
var simpleTypes = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// typeValue reports whether v is a simple type name or a non-empty array
// of distinct ones.
func (q *quickCheck) typeValue(v int32) bool {
	x := q.d.vals[v]
	switch x.kind {
	case docString:
		return isSimpleType(x.text)
	case docArray:
		ms := q.d.items(v)
		if len(ms) == 0 {
			return false
		}
		for i, m := range ms {
			t := q.d.vals[m.val]
			if t.kind != docString || !isSimpleType(t.text) {
				return false
			}
			for _, p := range ms[:i] {
				if q.d.vals[p.val].text == t.text {
					return false
				}
			}
		}
		return true
	}
	return false
}

func isSimpleType(s string) bool {
	for _, t := range simpleTypes {
		if s == t {
			return true
		}
	}
	return false
}

// stringSet reports whether v is an array of distinct strings.
func (q *quickCheck) stringSet(v int32) bool {
	if q.d.vals[v].kind != docArray {
		return false
	}
	ms := q.d.items(v)
	for _, m := range ms {
		if q.d.vals[m.val].kind != docString {
			return false
		}
	}
	return q.distinct(v)
}

// distinct reports whether the items of array v are distinct JSON values,
// numbers compared by value as the library does; an array holding objects
// or arrays is not decided here (false).
func (q *quickCheck) distinct(v int32) bool {
	ms := q.d.items(v)
	if len(ms) <= 32 {
		for i, m := range ms {
			a := q.d.vals[m.val]
			if a.kind == docArray || a.kind == docObject {
				return false
			}
			for _, p := range ms[:i] {
				if sameScalar(a, q.d.vals[p.val]) {
					return false
				}
			}
		}
		return true
	}
	seen := make(map[string]struct{}, len(ms))
	for _, m := range ms {
		a := q.d.vals[m.val]
		var k string
		switch a.kind {
		case docArray, docObject:
			return false
		case docNumber:
			r, ok := new(big.Rat).SetString(a.text)
			if !ok {
				return false
			}
			k = "n" + r.RatString()
		case docString:
			k = "s" + a.text
		default:
			k = strconv.Itoa(int(a.kind))
		}
		if _, dup := seen[k]; dup {
			return false
		}
		seen[k] = struct{}{}
	}
	return true
}

// sameScalar reports whether two strings, numbers, booleans or nulls are
// equal as JSON values.
func sameScalar(a, b docVal) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case docString:
		return a.text == b.text
	case docNumber:
		if a.text == b.text {
			return true
		}
		x, okx := new(big.Rat).SetString(a.text)
		y, oky := new(big.Rat).SetString(b.text)
		return okx && oky && x.Cmp(y) == 0
	}
	return true
}

// digits reports whether s is a non-empty run of decimal digits.
func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// nonNegativeInteger reports whether x is a number with an integer value ≥
// 0 (1.0 and 1e2 are).
func nonNegativeInteger(x docVal) bool {
	if x.kind != docNumber {
		return false
	}
	if digits(x.text) {
		return true
	}
	r, ok := new(big.Rat).SetString(x.text)
	return ok && r.IsInt() && r.Sign() >= 0
}

// positive reports whether the number text n is greater than 0.
func positive(n string) bool {
	if digits(n) {
		return strings.Trim(n, "0") != ""
	}
	r, ok := new(big.Rat).SetString(n)
	return ok && r.Sign() > 0
}

// isRegexp reports whether the library accepts s as a pattern (it compiles
// it with Go's regexp).
func isRegexp(s string) bool {
	_, err := regexp.Compile(s)
	return err == nil
}

// resolve returns the value a $ref inside the document points to, or -1:
// "#" or a JSON pointer "#/a/0" whose tokens are plain (letters, digits,
// "_", "-", ".", "$"), so that the library reads it the same way.
func (q *quickCheck) resolve(ptr string) int32 {
	d := q.d
	if ptr == "#" {
		return d.root
	}
	rest, ok := strings.CutPrefix(ptr, "#/")
	if !ok {
		return -1
	}
	v := d.root
	for tok := range strings.SplitSeq(rest, "/") {
		if !plainToken(tok) {
			return -1
		}
		switch x := d.vals[v]; x.kind {
		case docObject:
			if v = d.member(v, tok); v < 0 {
				return -1
			}
		case docArray:
			i, err := strconv.Atoi(tok)
			if err != nil || !digits(tok) || len(tok) > 1 && tok[0] == '0' || i >= int(x.hi-x.lo) {
				return -1
			}
			v = d.members[int(x.lo)+i].val
		default:
			return -1
		}
	}
	return v
}

func plainToken(tok string) bool {
	if tok == "" {
		return false
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '$') {
			return false
		}
	}
	return true
}
