package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/require"
)

// The quick check is sound when every schema it accepts is one the full
// check (the schema library, then the work bound) accepts, with the same
// work at every level. These tests check that on every real schema, on
// schemas generated from the metaschemas' keywords with good and bad
// values, on mutations of the real schemas, on the hostile schemas of the
// other tests, and under fuzzing (FuzzQuickSchema). They also check that
// the quick check decides the real schemas itself, which is what makes
// registration fast.

// quickVerdict compares the two checks on raw and fails t when the quick
// check accepts a schema the full check refuses, or builds a work graph
// that differs from the compiled schema's. It returns whether each check
// accepted raw.
func quickVerdict(t testing.TB, raw string) (quick, full bool) {
	t.Helper()
	lim := DefaultLimits
	g, ok := quickSchema(json.RawMessage(raw), lim)
	quick = ok && len(raw) <= lim.MaxBytes && schemaWork(g, schemaWorkLevels, lim.MaxWork) <= lim.MaxWork
	s, fullErr := compileFull(json.RawMessage(raw), lim)
	full = fullErr == nil
	if quick && !full {
		t.Fatalf("the quick check accepts a schema the library refuses (%v):\n%s", fullErr, raw)
	}
	if quick {
		// The library compiled it under the same draft (it tries the
		// others only when that fails), so to the same graph.
		sameWork(t, raw, g, workGraph(s))
	}
	return quick, full
}

// sameWork fails t unless graphs a and b have the same work at every level
// and for each kind of value, and as many nodes and edges of each kind
// reachable from the root. It runs for every schema of the sweeps, so it
// calls t.Fatalf only on a difference (a testify call per check walks the
// stack for t.Helper).
func sameWork(t testing.TB, raw string, a, b *workNode) {
	t.Helper()
	if sa, sb := graphShape(a), graphShape(b); sa != sb {
		t.Fatalf("nodes and edges of each kind reachable: quick %v, library %v, schema %s", sa, sb, raw)
	}
	wa := &workWalker{memo: map[workKey]int{}, limit: 1 << 40, root: a}
	wb := &workWalker{memo: map[workKey]int{}, limit: 1 << 40, root: b}
	for d := range schemaWorkLevels + 1 {
		for _, k := range []valueKind{leaf, object, array} {
			if d == 0 && k != leaf || d > 0 && k == leaf {
				continue
			}
			if qa, qb := wa.at(a, d, k), wb.at(b, d, k); qa != qb {
				t.Fatalf("work %d levels down in a value of kind %d: quick %d, library %d, schema %s", d, k, qa, qb, raw)
			}
		}
	}
}

// graphShape counts the nodes and the edges of each kind reachable from n.
func graphShape(n *workNode) [8]int {
	var c [8]int
	seen := map[*workNode]bool{}
	var walk func(n *workNode)
	walk = func(n *workNode) {
		if seen[n] {
			return
		}
		seen[n] = true
		c[7]++
		for _, e := range n.edges {
			c[e.kind]++
			walk(e.to)
		}
	}
	walk(n)
	return c
}

// realSchemas returns every distinct input schema of the demo catalog and
// the bench datasets.
func realSchemas(t testing.TB) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range []string{"../demo/catalog.json", "../../testdata/bench/livemcpbench.json", "../../testdata/bench/bfcl.json", "../../testdata/bench/seal_tools.json", "../../testdata/bench/metatool.json"} {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		var catalog struct {
			Tools []struct {
				InputSchema json.RawMessage `json:"input_schema"`
			} `json:"tools"`
		}
		require.NoError(t, json.Unmarshal(data, &catalog), "%s", p)
		for _, tool := range catalog.Tools {
			if s := string(tool.InputSchema); s != "" && s != "null" && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

func TestQuickSchemaOnRealSchemas(t *testing.T) {
	schemas := realSchemas(t)
	require.Greater(t, len(schemas), 6000)
	quick, full := 0, 0
	for _, raw := range schemas {
		q, f := quickVerdict(t, raw)
		quick += b2i(q)
		full += b2i(f)
	}
	t.Logf("%d real schemas: the library accepts %d, the quick check %d", len(schemas), full, quick)
	require.Equal(t, len(schemas), full, "every real schema is valid")
	require.GreaterOrEqual(t, quick, full*99/100, "the quick check decides at least 99%% of the real schemas itself")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestQuickSchemaCases: schemas near each rule the quick check follows,
// valid and not.
func TestQuickSchemaCases(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		quick        bool // the quick check accepts it (else the full check decides)
	}{
		{"typical", typical, true},
		{"empty", `{}`, true},
		{"draft-07 declared", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string"}}}`, true},
		{"draft-07 without #", `{"$schema":"https://json-schema.org/draft-07/schema","items":[{"type":"string"}],"additionalItems":{"type":"number"}}`, true},
		{"draft-07 with a trailing slash is another document", `{"$schema":"http://json-schema.org/draft-07/schema/"}`, false},
		{"2020-12 declared", `{"$schema":"https://json-schema.org/draft/2020-12/schema","prefixItems":[{}],"items":false}`, true},
		{"2019-09 is left to the library", `{"$schema":"https://json-schema.org/draft/2019-09/schema"}`, false},
		{"draft-04 style", `{"properties":{"n":{"type":"integer","minimum":0,"exclusiveMinimum":true}}}`, false},
		{"refs to $defs", `{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"},"b":{"$ref":"#/$defs/s"}}}`, true},
		{"recursion through properties", `{"properties":{"child":{"$ref":"#"},"kids":{"items":{"$ref":"#"}}}}`, true},
		{"a ref to an array item", `{"anyOf":[{"type":"string"},{"$ref":"#/anyOf/0"}]}`, true},
		{"a loop", `{"$ref":"#"}`, false},
		{"a loop through allOf", `{"allOf":[{"$ref":"#"}]}`, false},
		{"a missing target", `{"$ref":"#/$defs/none"}`, false},
		{"an escaped pointer", `{"$defs":{"a b":{}},"$ref":"#/$defs/a%20b"}`, false},
		{"an external ref", `{"$ref":"other.json"}`, false},
		{"an anchor", `{"$defs":{"a":{"$anchor":"x"}},"$ref":"#x"}`, false},
		{"$id", `{"$id":"https://example.com/s"}`, false},
		{"type 5", `{"type":5}`, false},
		{"type list with a repeat", `{"type":["string","string"]}`, false},
		{"required with a repeat", `{"required":["a","a"]}`, false},
		{"enum may repeat in 2020-12", `{"enum":[1,1]}`, true},
		{"enum may not repeat in draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","enum":[1,1.0]}`, false},
		{"minLength 1.0 is an integer", `{"minLength":1.0}`, true},
		{"minLength -1", `{"minLength":-1}`, false},
		{"multipleOf 0", `{"multipleOf":0}`, false},
		{"a pattern Go cannot compile", `{"pattern":"(?=a)"}`, false},
		{"a pattern key Go cannot compile", `{"patternProperties":{"(?<=a)":{}}}`, false},
		{"a key given twice", `{"type":5,"type":"string"}`, false},
		{"then without if", `{"then":{"$ref":"#"}}`, true},
		{"then with if", `{"if":{},"then":{"$ref":"#"}}`, false},
		{"contentSchema with a media type", `{"contentMediaType":"application/json","contentSchema":{}}`, false},
		{"regexProperties", `{"regexProperties":true}`, false},
		{"a number out of bounds", `{"default":1e999999}`, false},
		{"draft-07 ignores what sits beside $ref", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{}},"$ref":"#/definitions/a","allOf":[{},{}]}`, true},
		{"draft-07 checks what sits beside $ref", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{}},"$ref":"#/definitions/a","type":5}`, false},
		{"dependencies", `{"dependencies":{"a":["b"],"c":{"required":["d"]}}}`, true},
		{"a ref to a list of names", `{"dependencies":{"a":["b"]},"$ref":"#/dependencies/a"}`, false},
		{"boolean subschemas", `{"properties":{"a":true,"b":false},"additionalProperties":false,"items":true}`, true},
		{"not an object", `[]`, false},
		{"not JSON", `{"type":`, false},
		{"fan out", anyOfChain(25), false},
		{"branching recursion", branchingRecursion, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := quickVerdict(t, tc.schema)
			require.Equal(t, tc.quick, q, "quick check of %s", tc.schema)
		})
	}
}

// TestQuickSchemaOnHostileSchemas runs the hostile schemas of the other
// tests and the fuzz seeds through both checks.
func TestQuickSchemaOnHostileSchemas(t *testing.T) {
	schemas := []string{hostileWideSchema(), anyOfChain(3), anyOfChain(12), branchingRecursion,
		`{"default":` + strings.Repeat("[", 30000) + strings.Repeat("]", 30000) + `}`,
		`{"properties":{"a":` + strings.Repeat(`{"properties":{"a":`, 70) + `{}` + strings.Repeat(`}}`, 70) + `}}`,
		"{\"description\":\"\\ud800\\u0074ype\",\"\\u0074ype\":\"string\"}",
		`{"\u0074ype":5}`,
	}
	schemas = append(schemas, hostileSchemaShapes()...)
	for _, raw := range schemas {
		quickVerdict(t, raw)
	}
}

// hostileSchemaShapes are shapes a hostile server might list.
func hostileSchemaShapes() []string {
	return []string{
		`{"$ref":"file:///etc/passwd"}`, `{"$ref":"http://example.com/s.json"}`, `{"$ref":"#/properties"}`,
		`{"properties":{"type":{"type":"string"}},"$ref":"#/properties"}`,
		`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
		`{"properties":{"p":{"$ref":"#/$defs/w"}},"if":{"$ref":"#/$defs/w"},"$defs":{"w":{"allOf":[{"$ref":"#"}]}}}`,
		`{"additionalItems":{"$ref":5},"$ref":"#/additionalItems"}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","$defs":{"a":{"type":5}},"$ref":"#/$defs/a"}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","contentMediaType":"application/json","contentSchema":{"$ref":"#"}}`,
		`{"$schema":5}`, `{"$schema":"https://json-schema.org/schema","type":"string"}`,
		`{"items":[{}]}`, `{"enum":[]}`, `{"allOf":[]}`, `{"required":"a"}`, `{"examples":{}}`,
		`{"dependentRequired":{"a":["b","b"]}}`, `{"minContains":1.5}`, `{"deprecated":"yes"}`,
		`{"propertyNames":{"pattern":"["}}`, `{"$comment":1}`, `{"definitions":[]}`,
	}
}

// keywordValues are the values the generator puts under each keyword: the
// keywords of both metaschemas, with values of every kind the metaschemas
// allow and refuse.
var keywordValues = map[string][]string{
	"type":                  {`"string"`, `"object"`, `"integer"`, `["string","null"]`, `[]`, `["string","string"]`, `"text"`, `5`},
	"enum":                  {`["a","b"]`, `[1,2]`, `[1,1.0]`, `[]`, `[{"a":1},{"a":1}]`, `"a"`, `[null,true,"x"]`},
	"const":                 {`1`, `"x"`, `{"a":[1]}`},
	"required":              {`["a"]`, `["a","b"]`, `["a","a"]`, `[]`, `[1]`, `"a"`},
	"minLength":             {`0`, `3`, `1.0`, `1e1`, `-1`, `1.5`, `"3"`},
	"maxItems":              {`0`, `10`, `-0`, `2.5`},
	"minContains":           {`1`, `-1`},
	"multipleOf":            {`1`, `0.5`, `0`, `-2`, `1e-5`},
	"minimum":               {`0`, `-1.5`, `"0"`, `true`},
	"exclusiveMinimum":      {`0`, `true`, `false`},
	"pattern":               {`"^[a-z]+$"`, `"(?=x)"`, `"["`, `5`},
	"format":                {`"date"`, `"regex"`, `5`},
	"uniqueItems":           {`true`, `"yes"`},
	"title":                 {`"T"`, `5`},
	"description":           {`"d"`, `null`},
	"default":               {`null`, `[1]`, `{"a":1}`},
	"examples":              {`[1]`, `1`},
	"deprecated":            {`true`, `1`},
	"readOnly":              {`false`, `0`},
	"$comment":              {`"c"`, `[]`},
	"$ref":                  {`"#"`, `"#/$defs/a"`, `"#/definitions/a"`, `"#/properties/p"`, `"#/allOf/0"`, `"#/items"`, `"#/dependencies/d"`, `"#/$defs/none"`, `"other.json"`, `"#a"`, `"#/$defs/a/properties/p"`, `5`},
	"$defs":                 {`{"a":{"type":"string"}}`, `{"a":{"$ref":"#"}}`, `{"a":5}`, `{"a":{"properties":{"p":{"$ref":"#"}}}}`},
	"definitions":           {`{"a":{"type":"number"}}`, `{"a":{"allOf":[{"$ref":"#/definitions/a"}]}}`, `[]`},
	"properties":            {`{"p":{"type":"string"}}`, `{"p":true,"q":false}`, `{"p":{"$ref":"#"}}`, `{"p":5}`, `[]`},
	"patternProperties":     {`{"^x":{}}`, `{"[":{}}`, `{"^a":{"$ref":"#"},"b":{"$ref":"#"}}`},
	"additionalProperties":  {`false`, `true`, `{"type":"string"}`, `{"$ref":"#"}`, `5`},
	"propertyNames":         {`{"pattern":"^a"}`, `{"maxLength":3}`, `"x"`},
	"items":                 {`{"type":"string"}`, `[{"type":"string"},{}]`, `[]`, `true`, `{"$ref":"#"}`, `5`},
	"prefixItems":           {`[{}]`, `[]`, `{}`},
	"additionalItems":       {`{"type":"number"}`, `false`, `5`},
	"contains":              {`{"type":"string"}`, `{"$ref":"#"}`},
	"unevaluatedProperties": {`false`, `{"type":"string"}`, `[]`},
	"unevaluatedItems":      {`true`, `{"$ref":"#"}`},
	"allOf":                 {`[{}]`, `[{"$ref":"#"}]`, `[{"type":"string"},{"minLength":1}]`, `[]`, `{}`},
	"anyOf":                 {`[{"type":"string"},{"type":"null"}]`, `[{"$ref":"#/$defs/a"},{"$ref":"#/$defs/a"}]`, `[5]`},
	"oneOf":                 {`[{"required":["a"]},{"required":["b"]}]`, `[true,false]`},
	"not":                   {`{}`, `{"$ref":"#"}`, `[]`},
	"if":                    {`{"required":["a"]}`, `{"$ref":"#"}`, `null`},
	"then":                  {`{"required":["b"]}`, `{"$ref":"#"}`},
	"else":                  {`false`, `5`},
	"dependencies":          {`{"d":["e"]}`, `{"d":{"required":["e"]}}`, `{"d":{"$ref":"#"}}`, `{"d":["e","e"]}`, `{"d":5}`},
	"dependentSchemas":      {`{"d":{}}`, `{"d":{"$ref":"#"}}`, `{"d":5}`},
	"dependentRequired":     {`{"d":["e"]}`, `{"d":[1]}`},
	"contentMediaType":      {`"application/json"`, `5`},
	"contentSchema":         {`{"type":"object"}`, `{"$ref":"#"}`, `5`},
	"$schema":               {`"http://json-schema.org/draft-07/schema#"`, `"https://json-schema.org/draft/2020-12/schema"`, `"http://json-schema.org/draft-04/schema#"`, `"https://json-schema.org/draft/2019-09/schema"`, `"https://json-schema.org/schema"`, `"http://json-schema.org/draft-07/schema"`},
	"$id":                   {`"https://example.com/s"`, `"#x"`},
	"$anchor":               {`"x"`},
	"x-custom":              {`{"type":5}`, `[1,2]`},
	"id":                    {`"x"`, `5`},
}

// genSchema returns a random schema object depth levels deep at most.
func genSchema(r *rand.Rand, depth int, root bool) string {
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range keywordValues {
			if !yield(k) {
				return
			}
		}
	})
	n := r.IntN(4) + 1
	var parts []string
	for range n {
		k := keys[r.IntN(len(keys))]
		if k == "$schema" && !root && r.IntN(4) > 0 {
			continue
		}
		vs := keywordValues[k]
		v := vs[r.IntN(len(vs))]
		if depth > 0 && r.IntN(3) == 0 {
			// a nested subschema in place of a value
			switch r.IntN(4) {
			case 0:
				v = `{"p":` + genSchema(r, depth-1, false) + `,"q":` + genSchema(r, depth-1, false) + `}`
				k = "properties"
			case 1:
				v = `[` + genSchema(r, depth-1, false) + `]`
				k = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}[r.IntN(5)]
			case 2:
				v = genSchema(r, depth-1, false)
				k = []string{"items", "not", "if", "then", "additionalProperties", "contains", "propertyNames", "unevaluatedItems"}[r.IntN(8)]
			default:
				v = `{"a":` + genSchema(r, depth-1, false) + `}`
				k = []string{"$defs", "definitions", "dependentSchemas", "dependencies"}[r.IntN(4)]
			}
		}
		parts = append(parts, fmt.Sprintf("%q:%s", k, v))
	}
	if r.IntN(8) == 0 && len(parts) > 0 {
		parts = append(parts, parts[0]) // a key given twice
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// TestQuickSchemaOnGeneratedSchemas runs random schemas made of every
// keyword of both metaschemas, with good and bad values, through both
// checks.
func TestQuickSchemaOnGeneratedSchemas(t *testing.T) {
	n := sweepSize(2_000, 20_000)
	r := rand.New(rand.NewPCG(13, 2))
	var quick, full int
	for range n {
		q, f := quickVerdict(t, genSchema(r, 3, true))
		quick += b2i(q)
		full += b2i(f)
	}
	t.Logf("%d generated schemas: the library accepts %d, the quick check %d", n, full, quick)
	require.Greater(t, quick, n/10, "the generator reaches the schemas the quick check accepts")
	require.Greater(t, full-quick, n/50, "and the ones it leaves to the library")
}

// TestQuickSchemaOnMutatedRealSchemas puts a keyword with a good or bad
// value into a random subschema of each real schema.
func TestQuickSchemaOnMutatedRealSchemas(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 3))
	schemas := realSchemas(t)
	schemas = schemas[:sweepSize(1000, len(schemas))]
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range keywordValues {
			if !yield(k) {
				return
			}
		}
	})
	var quick, full int
	for _, raw := range schemas {
		var doc any
		require.NoError(t, json.Unmarshal([]byte(raw), &doc))
		var objs []map[string]any
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				objs = append(objs, v)
				for _, k := range slices.Sorted(func(yield func(string) bool) {
					for k := range v {
						if !yield(k) {
							return
						}
					}
				}) {
					walk(v[k])
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		walk(doc)
		o := objs[r.IntN(len(objs))]
		k := keys[r.IntN(len(keys))]
		vs := keywordValues[k]
		var v any
		require.NoError(t, json.Unmarshal([]byte(vs[r.IntN(len(vs))]), &v))
		o[k] = v
		b, err := json.Marshal(doc)
		require.NoError(t, err)
		q, f := quickVerdict(t, string(b))
		quick += b2i(q)
		full += b2i(f)
	}
	t.Logf("%d mutated real schemas: the library accepts %d, the quick check %d", len(schemas), full, quick)
}

// FuzzQuickSchema: whatever the bytes, the quick check accepts only what
// the full check accepts, with the same work graph.
func FuzzQuickSchema(f *testing.F) {
	f.Add(typical)
	f.Add(branchingRecursion)
	f.Add(anyOfChain(3))
	for _, s := range hostileSchemaShapes() {
		f.Add(s)
	}
	r := rand.New(rand.NewPCG(13, 4))
	for range 20 {
		f.Add(genSchema(r, 2, true))
	}
	f.Fuzz(func(t *testing.T, raw string) {
		quickVerdict(t, raw)
	})
}

// BenchmarkCheckSchema measures the ways of checking a schema at
// registration, one distinct real schema per iteration (6,247 of them,
// 495 bytes on average): the full compile by the schema library, the
// library's metaschema validation alone (what compiling a validator only
// on first use would leave at registration), and the quick check as
// registration runs it (Check: the full check for what the quick one
// leaves).
func BenchmarkCheckSchema(b *testing.B) {
	schemas := realSchemas(b)
	raws := make([]json.RawMessage, len(schemas))
	for i, s := range schemas {
		raws[i] = json.RawMessage(s)
	}
	lim := DefaultLimits
	meta, err := jsonschema.NewCompiler().Compile("https://json-schema.org/draft/2020-12/schema")
	require.NoError(b, err)
	for _, bc := range []struct {
		name  string
		check func(raw json.RawMessage) error
	}{
		{"library-compile", func(raw json.RawMessage) error { return checkSchemaFull(raw, lim) }},
		{"library-metaschema-only", func(raw json.RawMessage) error {
			d := json.NewDecoder(bytes.NewReader(raw))
			d.UseNumber()
			var v any
			if err := d.Decode(&v); err != nil {
				return err
			}
			return meta.Validate(v)
		}},
		{"quick", func(raw json.RawMessage) error { return Check(raw, lim) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				_ = bc.check(raws[i%len(raws)])
				i++
			}
		})
	}
}

// docAny returns value v of d as a JSON decoder with UseNumber returns it.
func docAny(d *schemaDoc, v int32) any {
	x := d.vals[v]
	switch x.kind {
	case docNull:
		return nil
	case docFalse, docTrue:
		return x.kind == docTrue
	case docNumber:
		return json.Number(x.text)
	case docString:
		return x.text
	case docArray:
		a := []any{}
		for _, m := range d.items(v) {
			a = append(a, docAny(d, m.val))
		}
		return a
	}
	o := map[string]any{}
	for _, m := range d.items(v) {
		o[m.key] = docAny(d, m.val)
	}
	return o
}

// checkSchemaDoc fails t unless parsing raw agrees with encoding/json: a
// document read is valid JSON (json.Valid) and reads as a decoder reads
// it; a valid one is read unless it is one the quick check leaves out.
func checkSchemaDoc(t testing.TB, raw []byte) {
	d := parseSchemaDoc(string(raw), quickMaxDepth)
	defer d.put()
	valid := json.Valid(raw)
	if d.unfit {
		if valid && jsonDepth(raw, quickMaxDepth+1) <= quickMaxDepth && checkSchemaNumbers(raw) == nil {
			// Only a key given twice is left then.
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			var v any
			require.NoError(t, dec.Decode(&v))
			require.True(t, repeatsAKey(raw), "valid JSON the parser refused: %q", raw)
		}
		return
	}
	require.True(t, valid, "the parser read what json.Valid refuses: %q", raw)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var want any
	require.NoError(t, dec.Decode(&want))
	require.Equal(t, want, docAny(d, d.root), "parsed %q", raw)
}

// repeatsAKey reports whether some object of the JSON document raw has a
// key twice.
func repeatsAKey(raw []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var stack []map[string]bool
	var inObj []bool
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{':
				stack = append(stack, map[string]bool{})
				inObj = append(inObj, true)
				expectKey = true
				continue
			case '[':
				stack = append(stack, nil)
				inObj = append(inObj, false)
			case '}', ']':
				stack, inObj = stack[:len(stack)-1], inObj[:len(inObj)-1]
			}
		case string:
			if expectKey {
				top := stack[len(stack)-1]
				if top[tok] {
					return true
				}
				top[tok] = true
				expectKey = false
				continue
			}
		}
		expectKey = len(inObj) > 0 && inObj[len(inObj)-1]
	}
}

func TestSchemaDocReadsJSON(t *testing.T) {
	cases := []string{`{}`, `[]`, `{"a":[1,-0,0.5,1e3,-2E-2,true,false,null,"x\u00e9\n\"\\\/"]}`, ` { "a" : { } } `,
		`{"a":1,}`, `[1,]`, `{"a" 1}`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`, `{"a":1e}`, `{"a":tru}`, `{"a":"\x"}`,
		`{"a":"\u12"}`, "{\"a\":\"\x01\"}", `{"a":1} x`, `{"a":1}}`, `{`, `"`, ``, `{"a":"\ud800"}`, `{"a":1,"a":2}`,
		`{"\u0061":1,"a":2}`, `[{"a":1},{"a":1}]`, `{"a":1e999999}`, strings.Repeat("[", 300) + strings.Repeat("]", 300)}
	for _, s := range append(cases, realSchemas(t)...) {
		checkSchemaDoc(t, []byte(s))
	}
}

// FuzzSchemaDoc: the parser of the quick check reads JSON exactly as
// encoding/json does.
func FuzzSchemaDoc(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,-0,0.5,1e3,true,null,"x\u00e9\n"]}`, `{"a":1,"a":2}`, `{"a":01}`, typical, branchingRecursion} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkSchemaDoc(t, raw)
	})
}
