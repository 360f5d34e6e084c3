package toolsearch

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/schema"
	"github.com/toolsearch/toolsearch/internal/text"
)

const draft7 = `"$schema":"http://json-schema.org/draft-07/schema#",`

// callSession returns a Session over a registry holding tool T with the
// given input schema.
func callSession(t *testing.T, schema string, opts *SessionOptions) *Session {
	t.Helper()
	reg, err := NewRegistry(nil, Tool{Name: "T", InputSchema: json.RawMessage(schema)})
	require.NoError(t, err, schema)
	return NewSession(reg, opts)
}

// TestArgumentSizeLimit: arguments over MaxArgumentBytes are refused
// before they are decoded, also through CallTool.
func TestArgumentSizeLimit(t *testing.T) {
	s := callSession(t, `{"type":"object"}`, &SessionOptions{CallBridge: true})
	pad := func(n int) string { return `{"a":"` + strings.Repeat("x", n-len(`{"a":""}`)) + `"}` }
	_, err := s.CheckCall("T", json.RawMessage(pad(defaultMaxArgumentBytes)))
	require.NoError(t, err, "arguments of exactly the limit are checked")
	for _, call := range []struct{ name, args string }{
		{"T", pad(defaultMaxArgumentBytes + 1)},
		{"T", pad(100 << 20)},
		{CallToolName, `{"name":"T","arguments":` + pad(defaultMaxArgumentBytes) + `}`},
	} {
		_, err := s.CheckCall(call.name, json.RawMessage(call.args))
		require.ErrorIs(t, err, ErrInvalidArguments, "%s with %d bytes", call.name, len(call.args))
		require.ErrorIs(t, err, ErrLimit)
		assert.Contains(t, err.Error(), fmt.Sprintf("are %d bytes long; the limit is %d bytes", len(call.args), defaultMaxArgumentBytes))
	}
	small := callSession(t, `{"type":"object"}`, &SessionOptions{MaxArgumentBytes: 10})
	_, err = small.CheckCall("T", json.RawMessage(`{"a":"xyz"}`))
	require.ErrorIs(t, err, ErrLimit, "the option is honoured")
}

// TestValidationWorkIsBounded: arguments whose validation would cost the
// schema library seconds and gigabytes (a long string against a pattern
// with a large program, a long regex to compile, a big array against a big
// enum, one string against many formats, deep members with long names) are
// refused before it runs; realistic calls of the same size pass.
func TestValidationWorkIsBounded(t *testing.T) {
	big := strings.Repeat("a", 100_000)
	strs := `[` + strings.TrimSuffix(strings.Repeat(`"abc",`, 100_000), ",") + `]`
	enum := distinctEnum(1000)
	formats := strings.TrimSuffix(strings.Repeat(`{"format":"email"},`, 100), ",")
	deepKey := strings.Repeat("k", 100)
	deep := strings.Repeat(`{"`+deepKey+`":`, 3000) + `1` + strings.Repeat(`}`, 3000)
	for _, tc := range []struct {
		name, schema, args string
	}{
		{"a 100 KB string against a pattern of a thousand instructions",
			`{"properties":{"a":{"type":"string","pattern":"[^x]{1000}y"}}}`, `{"a":"` + big + `"}`},
		{"a 100 KB string as a regex to compile",
			`{` + draft7 + `"properties":{"a":{"format":"regex"}}}`, `{"a":"` + strings.Repeat("a{1000}", 14_000) + `"}`},
		{"100,000 strings against an enum of a thousand",
			`{"properties":{"a":{"type":"array","items":{"enum":` + enum + `}}}}`, `{"a":` + strs + `}`},
		{"one 100 KB string against a hundred formats",
			`{` + draft7 + `"properties":{"a":{"allOf":[` + formats + `]}}}`, `{"a":"` + big + `"}`},
		{"100,000 values against a small schema",
			`{"properties":{"a":{"type":"array","items":{"type":"string"}}}}`, `{"a":` + strs + `}`},
		{"members 3,000 deep with 100-byte names, failing at the leaf (the library's cost is cubic in the depth)",
			`{"type":"object","additionalProperties":{"$ref":"#"}}`, deep},
		{"patternProperties over long names",
			`{"patternProperties":{"[^x]{1000}y":{}}}`, `{"` + big + `":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := callSession(t, tc.schema, nil)
			_, err := s.CheckCall("T", json.RawMessage(tc.args))
			require.ErrorIs(t, err, ErrInvalidArguments)
			require.ErrorIs(t, err, ErrLimit)
			assert.Contains(t, err.Error(), "validating them against the tool's schema would take too long")
		})
	}
	tight := callSession(t, `{"type":"object"}`, &SessionOptions{MaxValidationWork: schema.WorkApply - 1})
	_, err := tight.CheckCall("T", json.RawMessage(`{"a":1}`))
	require.ErrorIs(t, err, ErrLimit, "the option is honoured")

	for _, tc := range []struct {
		name, schema, args string
	}{
		{"a 500 KB file to write, with a path pattern",
			`{"type":"object","properties":{"path":{"type":"string","pattern":"^/[^\\x00]*$"},"content":{"type":"string"}},"required":["path","content"]}`,
			`{"path":"/tmp/x","content":"` + strings.Repeat("line of text\\n", 40_000) + `"}`},
		{"a 1 MB string against a small pattern",
			`{"properties":{"a":{"type":"string","pattern":"^[a-z]*$"}}}`, `{"a":"` + strings.Repeat("a", 1_000_000) + `"}`},
		{"a thousand values against an enum of a thousand",
			`{"properties":{"a":{"type":"array","items":{"enum":` + enum + `}}}}`, `{"a":[` + strings.TrimSuffix(strings.Repeat(`"x999",`, 1000), ",") + `]}`},
		{"a tree 60 levels deep",
			`{"type":"object","properties":{"child":{"$ref":"#"},"n":{"type":"integer"}}}`,
			strings.Repeat(`{"n":1,"child":`, 60) + `{"n":"x"}` + strings.Repeat(`}`, 60)},
		{"ten thousand numbers",
			`{"properties":{"a":{"type":"array","items":{"type":"number","minimum":0}}}}`, `{"a":[` + strings.TrimSuffix(strings.Repeat(`1.5,`, 10_000), ",") + `]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := callSession(t, tc.schema, nil).CheckCall("T", json.RawMessage(tc.args))
			if strings.Contains(tc.args, `"x"}`) {
				require.ErrorIs(t, err, ErrInvalidArguments)
				assert.NotErrorIs(t, err, ErrLimit)
				assert.Contains(t, err.Error(), "expected integer, but got string", "the bad leaf is found")
				return
			}
			require.NoError(t, err, "a realistic call is validated")
		})
	}
}

// TestNumbersInsideContent: a string that the schema decodes as JSON
// (contentMediaType with contentSchema, checked in draft 7) has its numbers
// bounded like any argument's; the schema library crashed on them.
func TestNumbersInsideContent(t *testing.T) {
	schema := `{` + draft7 + `"properties":{"a":{"type":"string","contentMediaType":"application/json","contentSchema":{"type":"object","properties":{"n":{"type":"integer"}}}},` +
		`"b":{"type":"string","contentEncoding":"base64","contentMediaType":"application/json","contentSchema":{"properties":{"n":{"minimum":0}}}}}}`
	s := callSession(t, schema, nil)
	for _, args := range []string{
		`{"a":"{\"n\":1e1000001}"}`,
		`{"b":"` + base64.StdEncoding.EncodeToString([]byte(`{"n":1e1000001}`)) + `"}`,
	} {
		_, err := s.CheckCall("T", json.RawMessage(args))
		require.ErrorIs(t, err, ErrLimit, args)
		assert.Contains(t, err.Error(), "/n: the number 1e1000001 has an exponent beyond ±400")
	}
	_, err := s.CheckCall("T", json.RawMessage(`{"a":"{\"n\":1.5}"}`))
	require.ErrorIs(t, err, ErrInvalidArguments, "the content is still validated")
	assert.Contains(t, err.Error(), "expected integer")
}

// TestValidationMessagesAreShort: a call with many failures, or values the
// library quotes whole, gives a short message for the model.
func TestValidationMessagesAreShort(t *testing.T) {
	enum := distinctEnum(1000)
	s := callSession(t, `{"properties":{"a":{"type":"array","items":{"enum":`+enum+`}},"b":{"format":"email"}},"$schema":"http://json-schema.org/draft-07/schema#"}`, nil)
	_, err := s.CheckCall("T", json.RawMessage(`{"a":[`+strings.TrimSuffix(strings.Repeat(`"z",`, 500), ",")+`],"b":"`+strings.Repeat("\xff", 5000)+`"}`))
	require.ErrorIs(t, err, ErrInvalidArguments)
	assert.Less(t, len(err.Error()), (schema.MaxMessages+1)*(text.MaxClip+200), "at most %d messages of %d bytes", schema.MaxMessages, text.MaxClip)
	assert.Contains(t, err.Error(), "more")
	assert.True(t, utf8.ValidString(err.Error()))
}

// distinctEnum returns a JSON array of n distinct strings.
func distinctEnum(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"x%d"`, i)
	}
	return b.String() + "]"
}
