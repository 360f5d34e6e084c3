package toolsearch

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDuplicateKeysAreRefused: arguments that give a key twice, at any
// depth and however the key is written, are refused, directly and through
// CallTool, naming the key and its object; the bytes handed on are the
// ones validated.
func TestDuplicateKeysAreRefused(t *testing.T) {
	s := callSession(t, `{"type":"object","properties":{"path":{"enum":["notes.txt"]}}}`, &SessionOptions{CallBridge: true})
	for _, tc := range []struct{ name, args, where string }{
		{"T", `{"path":"/etc/passwd","path":"notes.txt"}`, `the key "path" is given twice in the object at /`},
		{"T", `{"path":"notes.txt","path":"/etc/passwd"}`, `the key "path" is given twice in the object at /`},
		{"T", `{"path":"notes.txt","a":[0,{"b":{"x":1,"\u0078":2}}]}`, `the key "x" is given twice in the object at /a/1/b`},
		{"T", "{\"path\":\"notes.txt\",\"k\":{\"\xff\":1,\"\xfe\":2}}", `the key "` + "\ufffd" + `" is given twice in the object at /k`},
		{"T", `{"path":"notes.txt","k":{"\ud800":1,"\udbff":2}}`, `the key "` + "\ufffd" + `" is given twice in the object at /k`},
		{CallToolName, `{"name":"T","arguments":{"path":"/etc/passwd","path":"notes.txt"}}`, `the key "path" is given twice in the object at /`},
		{CallToolName, `{"name":"T","name":"U","arguments":{}}`, `the key "name" is given twice in the object at /`},
	} {
		_, err := s.CheckCall(tc.name, json.RawMessage(tc.args))
		require.ErrorIs(t, err, ErrInvalidArguments, "CheckCall(%s, %s)", tc.name, tc.args)
		assert.Contains(t, err.Error(), "give a key twice: "+tc.where, tc.args)
		assert.Contains(t, err.Error(), "Send each key once")
	}
	for _, tc := range []struct{ name, args, sent string }{
		{"T", `{"path":"notes.txt","a":{"path":1},"b":[{"x":1},{"x":2}]}`, `{"path":"notes.txt","a":{"path":1},"b":[{"x":1},{"x":2}]}`},
		{"T", `{"path":"notes.txt","s":"\ud800\udc00 \udc00 \\ud800 \ud800\u0041"}`, `{"path":"notes.txt","s":"\ud800\udc00 \ufffd \\ud800 \ufffd\u0041"}`},
	} {
		call, err := s.CheckCall(tc.name, json.RawMessage(tc.args))
		require.NoError(t, err, tc.args)
		assert.Equal(t, tc.sent, string(call.Arguments), "the bytes handed on for %s", tc.args)
		assert.Equal(t, "T", call.Tool.Name)
	}
}

// TestReplacedChecksStayLinear: the schema library's checks that cost
// more than linear time (the duration format, uniqueItems with colliding
// hashes, enum of numbers) are replaced: the calls that took it seconds
// are validated within the bound, with the library's verdicts.
func TestReplacedChecksStayLinear(t *testing.T) {
	t.Run("duration", func(t *testing.T) {
		s := callSession(t, `{`+draft7+`"properties":{"d":{"format":"duration"}}}`, nil)
		long := `{"d":"P` + strings.Repeat("1Y", 50_000) + `"}`
		var err error
		n := allocated(func() { _, err = s.CheckCall("T", json.RawMessage(long)) })
		require.ErrorIs(t, err, ErrInvalidArguments)
		require.NotErrorIs(t, err, ErrLimit, "validated, not refused")
		assert.Contains(t, err.Error(), "d: 'P1Y1Y")
		assert.Less(t, n, uint64(16<<20), "a 100 KB duration allocates %d bytes", n)
		for _, d := range []string{"P1Y", "P1Y2M3D", "PT1H", "P1DT2H3M4S", "P2W", "P1MT1M"} {
			_, err := s.CheckCall("T", json.RawMessage(`{"d":"`+d+`"}`))
			assert.NoError(t, err, d)
		}
	})
	t.Run("uniqueItems", func(t *testing.T) {
		s := callSession(t, `{"properties":{"a":{"type":"array","uniqueItems":true}}}`, nil)
		items := signVariants(12) // 4,096 distinct arrays that all hash alike in the library
		_, err := s.CheckCall("T", json.RawMessage(`{"a":[`+strings.Join(items, ",")+`]}`))
		require.NoError(t, err, "distinct items are validated, not refused")
		_, err = s.CheckCall("T", json.RawMessage(`{"a":[`+strings.Join(items, ",")+`,`+strings.ReplaceAll(items[7], "1", "1.0")+`]}`))
		require.ErrorIs(t, err, ErrInvalidArguments)
		assert.Contains(t, err.Error(), fmt.Sprintf("items at index 7 and %d are equal", len(items)))
	})
	t.Run("enum of numbers", func(t *testing.T) {
		years := make([]string, 201)
		for i := range years {
			years[i] = fmt.Sprint(1900 + i)
		}
		s := callSession(t, `{"properties":{"a":{"type":"array","items":{"enum":[`+strings.Join(years, ",")+`]}},"c":{"const":1e2}}}`, nil)
		args := `{"c":100.0,"a":[` + strings.TrimSuffix(strings.Repeat("2000,", 8_000), ",") + `]}`
		_, err := s.CheckCall("T", json.RawMessage(args))
		require.NoError(t, err, "40 KB of integers against a 201-value enum are validated")
		_, err = s.CheckCall("T", json.RawMessage(`{"a":[2000,2101]}`))
		require.ErrorIs(t, err, ErrInvalidArguments)
		assert.Contains(t, err.Error(), "a/1: value must be one of")
	})
}

// signVariants returns the 2ⁿ arrays of n numbers ±1.
func signVariants(n int) []string {
	out := make([]string, 0, 1<<n)
	for m := range 1 << n {
		v := make([]string, n)
		for i := range v {
			v[i] = "1"
			if m>>i&1 == 1 {
				v[i] = "-1"
			}
		}
		out = append(out, "["+strings.Join(v, ",")+"]")
	}
	return out
}

// TestReplacedChecksAgreeWithTheLibrary: enum, const, uniqueItems and the
// duration, period and regex formats give the library's verdicts.
func TestReplacedChecksAgreeWithTheLibrary(t *testing.T) {
	schemas := []string{
		`{"enum":[1,"1",[1,{"a":null}],{"a":[true,1.5]},-0,1e2,null]}`,
		`{"const":{"a":[1,2],"b":"x"}}`,
		`{"const":12.5e-1}`,
		`{"uniqueItems":true}`,
		`{` + draft7 + `"format":"duration"}`,
		`{` + draft7 + `"format":"period"}`,
		`{` + draft7 + `"format":"regex"}`,
	}
	values := []string{`1`, `1.0`, `10e-1`, `"1"`, `[1,{"a":null}]`, `[1.0,{"a":null}]`, `{"a":[true,1.5]}`, `{"a":[true,15e-1],"b":1}`, `0`, `-0.0`, `100`, `null`,
		`{"b":"x","a":[1,2]}`, `{"b":"x","a":[2,1]}`, `1.25`, `125e-2`, `[1,1]`, `[1,1.0]`, `[1,-1]`, `[[1],[1.0]]`, `[{"a":1},{"a":1e0}]`, `["a","b"]`, `[]`,
		`"P1Y"`, `"P1Y2M3D"`, `"P1YD"`, `"P1M2Y"`, `"PT1H2M"`, `"PT"`, `"P"`, `"P1W"`, `"P1W1D"`, `"P1DT1S"`, `"P1T"`, `"PT1H1H"`, `"P1Y2M3D4"`,
		`"2020-01-01T00:00:00Z/P1D"`, `"P1D/2020-01-01T00:00:00Z"`, `"P1D/P1D"`, `"a(b"`, `"a{2}"`, `"(?P<x>y)"`, `"\\p{Greek}"`, `"[z-a]"`}
	for _, raw := range schemas {
		ours, err := compileSchema(json.RawMessage(raw))
		require.NoError(t, err, raw)
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft2020
		if strings.Contains(raw, "draft-07") {
			c.Draft = jsonschema.Draft7
		}
		require.NoError(t, c.AddResource("x.json", strings.NewReader(raw)))
		lib, err := c.Compile("x.json")
		require.NoError(t, err, raw)
		for _, v := range values {
			inst, err := decodeNumbers(v)
			require.NoError(t, err)
			assert.Equal(t, lib.Validate(inst) == nil, ours.Validate(inst) == nil, "schema %s, value %s", raw, v)
		}
	}
}

func decodeNumbers(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	return v, d.Decode(&v)
}

// TestWorkChargesEveryApplication: what the schema library does for each
// subschema applied to a big value (copying an object's keys, an array's
// indexes), to a number (an exact rational per numeric keyword) or with a
// long location is charged, so that the calls that took it seconds are
// refused before it runs.
func TestWorkChargesEveryApplication(t *testing.T) {
	var keys strings.Builder
	for i := range 90_000 {
		fmt.Fprintf(&keys, `"k%d":1,`, i)
	}
	obj := `{` + strings.TrimSuffix(keys.String(), ",") + `}`
	few := strings.TrimSuffix(keys.String()[:strings.Index(keys.String(), `"k400":`)], ",")
	allOf := func(n int, sub string) string {
		return `{"allOf":[` + strings.TrimSuffix(strings.Repeat(sub+",", n), ",") + `]}`
	}
	longName := strings.Repeat("d", 30_000)
	bigNum := strings.Repeat("9", 100) + "e-400"
	for _, tc := range []struct{ name, schema, args string }{
		{"a 90k-key object against allOf of 60 object subschemas", allOf(60, `{"type":"object"}`), obj},
		{"a 90k-key object against one subschema", `{"type":"object"}`, obj},
		// Cheap to decode (5,000 members), dear to apply 200 times.
		{"a 5k-key object against allOf of 200 object subschemas", allOf(200, `{"type":"object"}`), `{` + strings.TrimSuffix(keys.String()[:strings.Index(keys.String(), `"k5000":`)], ",") + `}`},
		{"100k items against allOf of 10 array subschemas", allOf(10, `{"type":"array"}`), `[` + strings.TrimSuffix(strings.Repeat("1,", 100_000), ",") + `]`},
		{"numbers near the bounds against multipleOf", `{"items":{"multipleOf":7e400,"minimum":1e-400}}`, `[` + strings.TrimSuffix(strings.Repeat(bigNum+",", 5_000), ",") + `]`},
		{"400 members failing under a subschema with a 30 KB location", `{"$defs":{"` + longName + `":{"type":"string"}},"additionalProperties":{"$ref":"#/$defs/` + longName + `"}}`,
			`{` + few + `}`},
		{"long names that must be regular expressions", `{"regexProperties":true}`, `{"` + strings.Repeat("a", 200_000) + `":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := callSession(t, tc.schema, nil).CheckCall("T", json.RawMessage(tc.args))
			require.ErrorIs(t, err, ErrLimit)
			assert.Contains(t, err.Error(), "would take too long")
		})
	}
}

// TestDecodingIsCharged: decoding many small values is paid from
// MaxValidationWork before anything is decoded, whether a subschema
// reaches them or not (1 MiB of ones under {"type":"object"} took 200 ms
// and 57 MB that no bound counted), and a CallTool call pays for decoding
// its arguments twice.
func TestDecodingIsCharged(t *testing.T) {
	ones := `[` + strings.TrimSuffix(strings.Repeat("1,", 500_000), ",") + `]`
	empties := `[` + strings.TrimSuffix(strings.Repeat("{},", 340_000), ",") + `]`
	s := callSession(t, `{"type":"object"}`, &SessionOptions{CallBridge: true})
	for _, tc := range []struct{ label, name, args string }{
		{"500,000 ones", "T", `{"a":` + ones + `}`},
		{"340,000 empty objects", "T", `{"a":` + empties + `}`},
		{"500,000 ones through CallTool", CallToolName, `{"name":"T","arguments":{"a":` + ones + `}}`},
	} {
		var err error
		raw := json.RawMessage(tc.args)
		bytes := allocated(func() { _, err = s.CheckCall(tc.name, raw) })
		require.ErrorIs(t, err, ErrInvalidArguments, tc.label)
		require.ErrorIs(t, err, ErrLimit, tc.label)
		assert.Contains(t, err.Error(), "would take too long", tc.label)
		assert.Less(t, bytes, uint64(64<<10), "%s: refused before decoding (%d bytes allocated)", tc.label, bytes)
	}

	// Within a tight bound: arguments whose decoding is most of it pass
	// directly, not through CallTool, which decodes them twice.
	tight := callSession(t, `{"type":"object"}`, &SessionOptions{CallBridge: true, MaxValidationWork: 100_000})
	args := `{"a":[` + strings.TrimSuffix(strings.Repeat("1,", 1_800), ",") + `]}`
	_, err := tight.CheckCall("T", json.RawMessage(args))
	require.NoError(t, err, "1,800 values within a bound of 100,000")
	_, err = tight.CheckCall(CallToolName, json.RawMessage(`{"name":"T","arguments":`+args+`}`))
	require.ErrorIs(t, err, ErrLimit, "the same values decoded twice through CallTool")
}
