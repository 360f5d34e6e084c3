package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// typical is a schema as most tools have.
const typical = `{"type":"object","properties":{"q":{"type":"string"}}}`

// nested returns a schema whose objects nest depth deep: {} is 1.
func nested(depth int) string {
	return strings.Repeat(`{"items":`, depth-1) + `{}` + strings.Repeat(`}`, depth-1)
}

func TestJSONDepth(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{`1`, 0},
		{`{}`, 1},
		{`[{},[{}]]`, 3},
		{`{"a":"}}}{{{"}`, 1},
		{`{"a":"\\"}`, 1},
		{`{"a":"\"{"}`, 1},
	} {
		assert.Equal(t, tc.want, jsonDepth([]byte(tc.in), 100), "jsonDepth(%s)", tc.in)
	}
	assert.Equal(t, 3, jsonDepth([]byte(nested(1000)), 3), "the scan stops at upTo")
}

// anyOfChain returns a schema of n definitions, each an anyOf of two
// references to the next: validating a value that matches none applies
// 2ⁿ subschemas.
func anyOfChain(n int) string {
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	for i := range n {
		fmt.Fprintf(&b, `"d%d":{"anyOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]},`, i, i+1, i+1)
	}
	fmt.Fprintf(&b, `"d%d":{"type":"string"}},"$ref":"#/$defs/d0"}`, n)
	return b.String()
}

// branchingRecursion returns a schema that applies itself twice to its
// member "a": validating arguments nested d deep applies 2ᵈ subschemas.
const branchingRecursion = `{"type":"object","anyOf":[{"properties":{"a":{"$ref":"#"}}},{"properties":{"a":{"$ref":"#"}}}]}`

func TestSchemaWork(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema string
		levels int
		want   int
	}{
		{"flat object", typical, 64, 1},
		{"one definition", `{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"},"b":{"$ref":"#/$defs/s"}}}`, 64, 2},
		// d_i applies itself and two references, each applying d_i+1:
		// w(d_i) = 3 + 2·w(d_i+1), w(d_n) = 1, so w(d_0) = 2ⁿ⁺² − 3, and
		// the root's $ref adds 1.
		{"anyOf chain of 3", anyOfChain(3), 64, 1<<5 - 2},
		{"anyOf chain of 10", anyOfChain(10), 64, 1<<12 - 2},
		{"recursion as a tree", `{"properties":{"child":{"$ref":"#"},"kids":{"items":{"$ref":"#"}}}}`, 64, 2},
		// w₀ = 3 (the root and its two branches); member "a" gets the
		// reference and the root from both branches: w₁ = 2·(1+3) = 8, and
		// each level doubles: w_d = 2ᵈ⁺².
		{"branching recursion, 5 levels", branchingRecursion, 5, 1 << 7},
		{"a JSON value: object or array of itself", `{"anyOf":[{"type":"object","additionalProperties":{"$ref":"#"}},{"type":"array","items":{"$ref":"#"}}]}`, 64, 4},
		{"a tuple then items of itself", `{"prefixItems":[{"$ref":"#"}],"items":{"$ref":"#"},"properties":{"a":{"$ref":"#"}},"additionalProperties":{"$ref":"#"}}`, 64, 2},
		// A key such as "ab" gets both references and the root through
		// each: w₀ = 1, w₁ = 2·(1+1) = 4, w_d = 2ᵈ⁺¹.
		{"two patterns matching one key apply both", `{"patternProperties":{"a":{"$ref":"#"},"b":{"$ref":"#"}}}`, 5, 1 << 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Compile(json.RawMessage(tc.schema))
			require.NoError(t, err)
			assert.Equal(t, tc.want, schemaWork(workGraph(s), tc.levels, 1<<30))
			assert.Equal(t, tc.want, refSchemaWork(s, tc.levels, 1<<30), "the work written on compiled schemas")
		})
	}
}

// TestSchemaWorkStopsEarly checks that schemaWork, which stops at the first
// level no subschema reaches, agrees with a walk over every level, on the
// table above, the hostile shapes and every distinct schema of the real MCP catalog.
func TestSchemaWorkStopsEarly(t *testing.T) {
	everyLevel := func(s *workNode, levels, limit int) int {
		w := &workWalker{memo: map[workKey]int{}, limit: limit, root: s}
		most := w.at(s, 0, leaf)
		for d := 1; d <= levels && most <= limit; d++ {
			most = max(most, w.below(s, d))
		}
		return most
	}
	schemas := []string{typical, anyOfChain(3), anyOfChain(12), branchingRecursion, hostileWideSchema(),
		`{"properties":{"a":{"properties":{"b":{"items":{"properties":{"c":{"type":"string"}}}}}}}}`,
		`{"properties":{"child":{"$ref":"#"},"kids":{"items":{"$ref":"#"}}}}`}
	seen := map[string]bool{}
	for _, path := range []string{"../../testdata/bench/livemcpbench.json", "../../testdata/bench/metatool.json"} {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		var catalog struct {
			Tools []struct {
				InputSchema json.RawMessage `json:"input_schema"`
			} `json:"tools"`
		}
		require.NoError(t, json.Unmarshal(data, &catalog), "%s", path)
		for _, tool := range catalog.Tools {
			if raw := string(tool.InputSchema); raw != "" && raw != "null" && !seen[raw] {
				seen[raw] = true
				schemas = append(schemas, raw)
			}
		}
	}
	require.Greater(t, len(schemas), 400)
	for _, raw := range schemas {
		s, err := Compile(json.RawMessage(raw))
		require.NoError(t, err)
		g := workGraph(s)
		for _, limit := range []int{100, DefaultLimits.MaxWork, 1 << 30} {
			want := everyLevel(g, schemaWorkLevels, limit)
			require.Equal(t, want, schemaWork(g, schemaWorkLevels, limit), "limit %d, schema %.200s", limit, raw)
			require.Equal(t, want, refSchemaWork(s, schemaWorkLevels, limit), "the work written on compiled schemas: limit %d, schema %.200s", limit, raw)
		}
	}
}

// hostileWideSchema returns a schema just under DefaultLimits.MaxBytes whose
// definitions refer to each other through properties and items: the work
// bound has to follow every reference at every level.
func hostileWideSchema() string {
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	n := 0
	for i := 0; ; i++ {
		def := fmt.Sprintf(`"d%d":{"properties":{"a":{"$ref":"#/$defs/d%d"},"b":{"$ref":"#/$defs/d%d"}},"allOf":[{"$ref":"#/$defs/e%d"}]},"e%d":{"items":{"$ref":"#/$defs/d%d"}},`, i, i+1, i/2, i, i, i/3)
		if b.Len()+len(def)+200 > DefaultLimits.MaxBytes {
			n = i
			break
		}
		b.WriteString(def)
	}
	fmt.Fprintf(&b, `"d%d":{}},"$ref":"#/$defs/d0"}`, n)
	return b.String()
}

// BenchmarkRegisterSchema measures what registering one tool costs: a
// typical MCP schema, and the hostile schema above (the cost a hostile
// server can impose per tool, within the default limits).

// TestMetaschemaChecksAreCharged: a subschema of a metaschema (which a
// "$ref" may name, and which is shared, so not rewritten) keeps the
// library's own uniqueItems, and its cost per pair is charged.
func TestMetaschemaChecksAreCharged(t *testing.T) {
	s, err := Compile(json.RawMessage(`{"properties":{"s":{"$ref":"http://json-schema.org/draft-07/schema#"}}}`))
	require.NoError(t, err)
	names := make([]string, 5000)
	for i := range names {
		names[i] = fmt.Sprintf("%q", fmt.Sprint("n", i))
	}
	inst, _, err := DecodeArgs(json.RawMessage(`{"s":{"required":[` + strings.Join(names, ",") + `]}}`))
	require.NoError(t, err)
	require.ErrorIs(t, NewValidator(s).Work(inst, 10_000_000), ErrTooMuchWork, "5,000 items compared pairwise by the library")
	small, _, err := DecodeArgs(json.RawMessage(`{"s":{"required":["a","b"]}}`))
	require.NoError(t, err)
	require.NoError(t, NewValidator(s).Work(small, 10_000_000))
	require.NoError(t, NewValidator(s).Validate(small))
}
