package toolsearch

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHugeNumbersInArguments: a number with a huge exponent or too many
// digits in tool-call arguments is refused before the schema library sees
// it, for every keyword that makes the library compare numbers (it crashed
// on 1e1000001 and spent tens of milliseconds on 1e999999), and the error
// names where it is.
func TestHugeNumbersInArguments(t *testing.T) {
	keywords := map[string]string{
		"integer":     `{"type":"integer"}`,
		"minimum":     `{"minimum":0}`,
		"multipleOf":  `{"multipleOf":2}`,
		"enum":        `{"enum":[1,2]}`,
		"const":       `{"const":1}`,
		"uniqueItems": `{"type":"array","uniqueItems":true}`,
	}
	for kw, sch := range keywords {
		reg, err := NewRegistry(nil, Tool{Name: "T", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":` + sch + `}}`)})
		require.NoError(t, err)
		s := NewSession(reg, &SessionOptions{CallBridge: true})
		for _, tc := range []struct{ value, where, want string }{
			{"1e1000001", "/a", "the number 1e1000001 has an exponent beyond ±400"},
			{"1e999999", "/a", "the number 1e999999 has an exponent beyond ±400"},
			{"[1,2,-1e-999999]", "/a/2", "the number -1e-999999 has an exponent beyond ±400"},
			{strings.Repeat("7", 5000), "/a", "… (5000 bytes) has 5000 digits, more than 100"},
			{"[" + strings.Repeat("1e999999,", 99) + "1]", "/a/0", "has an exponent beyond ±400"},
		} {
			args := `{"a":` + tc.value + `}`
			for _, call := range []struct{ name, args string }{{"T", args}, {CallToolName, `{"name":"T","arguments":` + args + `}`}} {
				_, err := s.CheckCall(call.name, json.RawMessage(call.args))
				require.ErrorIs(t, err, ErrInvalidArguments, "%s: %s(%.60s)", kw, call.name, call.args)
				require.ErrorIs(t, err, ErrLimit, "%s: %s(%.60s)", kw, call.name, call.args)
				assert.Contains(t, err.Error(), tc.where+": the number ", "%s: the error names where", kw)
				assert.Contains(t, err.Error(), tc.want)
				assert.Less(t, len(err.Error()), 400, "%s: the error quotes a short prefix", kw)
			}
		}
		_, err = s.CheckCall(CallToolName, json.RawMessage(`{"name":1e1000001,"arguments":{}}`))
		require.ErrorIs(t, err, ErrLimit, "%s: a number anywhere in CallTool's arguments", kw)
		assert.Contains(t, err.Error(), "/name: the number 1e1000001")
		_, err = s.CheckCall("T", json.RawMessage(`{"a":1e308}`))
		if err != nil {
			assert.NotErrorIs(t, err, ErrLimit, "%s: 1e308 is within bounds and validated as usual", kw)
		}
	}
}

// TestHugeNumbersInToolSearchArguments: max_results (or any other member)
// with a huge number is refused before validation; 1e308 is still lowered
// to the cap.
func TestHugeNumbersInToolSearchArguments(t *testing.T) {
	s := NewSearcher(specPool(t), nil)
	for _, args := range []string{
		`{"query":"web","max_results":1e1000001}`,
		`{"query":"web","max_results":1e999999}`,
		`{"query":"web","max_results":` + strings.Repeat("9", 1000) + `}`,
		`{"query":"web","other":[1e1000001]}`,
	} {
		_, err := s.Call(json.RawMessage(args))
		require.ErrorIs(t, err, ErrInvalidQuery, "Call(%.60s)", args)
		require.ErrorIs(t, err, ErrLimit, "Call(%.60s)", args)
		assert.Contains(t, err.Error(), "Invalid ToolSearch input: arguments: /")
		assert.Less(t, len(err.Error()), 400)
	}
	for _, args := range []string{
		`{"query":"web","pad":"` + strings.Repeat("x", 100<<20) + `"}`,
		`{"query":"` + strings.Repeat(`\u0041`, 12_000) + `"}`,
	} {
		_, err := s.Call(json.RawMessage(args))
		require.ErrorIs(t, err, ErrLimit, "Call with %d bytes of arguments", len(args))
		assert.Contains(t, err.Error(), fmt.Sprintf("the arguments are %d bytes long, the limit is %d", len(args), 8*defaultMaxQueryBytes+1024))
	}
	res, err := s.Call(json.RawMessage(`{"query":"` + strings.Repeat(`\u0041`, defaultMaxQueryBytes) + `"}`))
	require.NoError(t, err, "a query of MaxQueryBytes fits however it is escaped")
	assert.Len(t, res.Query, defaultMaxQueryBytes)
	res, err = s.Call(json.RawMessage(`{"query":"web","max_results":1e308}`))
	require.NoError(t, err)
	assert.Equal(t, []string{maxResultsLowered(1<<31-1, defaultMaxResultsCap)}, res.Notes)
}

// TestHugeNumbersInSchemas: a server's schema with such a number is refused
// at registration (the compiler crashed on a tiny multipleOf and silently
// dropped a huge minimum), naming the tool and where the number is.
func TestHugeNumbersInSchemas(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"multipleOf":1e-1000001}`, "/multipleOf: the number 1e-1000001 has an exponent beyond ±400"},
		{`{"minimum":1e1000001}`, "/minimum: the number 1e1000001"},
		{`{"properties":{"a":{"enum":[1,1e999999]}}}`, "/properties/a/enum/1: the number 1e999999"},
		{`{"const":` + strings.Repeat("1", 200) + `}`, "/const: the number 1111"},
		{`{"default":1e1000}`, "/default: the number 1e1000"},
	} {
		var r Registry
		err := r.Register(Tool{Name: "T", InputSchema: json.RawMessage(tc.schema)})
		require.ErrorIs(t, err, ErrInvalidSchema, tc.schema)
		require.ErrorIs(t, err, ErrLimit, tc.schema)
		assert.Contains(t, err.Error(), `register "T"`)
		assert.Contains(t, err.Error(), tc.want)

		lazy := Tool{Name: "Lazy", ShouldDefer: true, LoadSchema: func() (json.RawMessage, error) { return json.RawMessage(tc.schema), nil }}
		require.NoError(t, r.Register(lazy))
		_, err = NewSession(&r, nil).CheckCall("Lazy", json.RawMessage(`{}`))
		require.ErrorIs(t, err, ErrToolUnavailable, "a lazy schema is held to the same bounds")
		assert.Contains(t, err.Error(), tc.want)
	}
	var r Registry
	require.NoError(t, r.Register(Tool{Name: "Fine", InputSchema: json.RawMessage(`{"properties":{"a":{"maximum":1.7976931348623157e308,"multipleOf":1e-300}}}`)}))
}
