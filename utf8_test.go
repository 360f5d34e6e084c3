package toolsearch

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOutputIsValidUTF8: invalid UTF-8 given to the library directly (not
// through a JSON decoder, which would already have replaced it) in a
// description, a search hint, a schema, a lazy schema, a query, a tool
// name or tool-call arguments never reaches an output: every rendering is
// valid UTF-8, checked with utf8.Valid (json.Valid accepts invalid UTF-8
// inside strings).
func TestOutputIsValidUTF8(t *testing.T) {
	bad := "\xff\xfe\xc3"
	var r Registry
	require.NoError(t, r.Register(
		Tool{Name: "Bad", Description: "bad " + bad + " text", SearchHint: "hint " + bad, ShouldDefer: true,
			InputSchema: json.RawMessage(`{"type":"object","description":"` + bad + `","properties":{"a":{"enum":["` + bad + `"]}}}`)},
		Tool{Name: "Lazy", Description: "lazy bad", ShouldDefer: true,
			LoadSchema: func() (json.RawMessage, error) { return json.RawMessage(`{"description":"` + bad + `"}`), nil }},
		Tool{Name: "Core", Description: "core " + bad},
	))
	tl, ok := r.Lookup("Bad")
	require.True(t, ok)
	assert.Equal(t, "bad \ufffd\ufffd\ufffd text", tl.Description, "replaced at registration, byte by byte, as a JSON decoder does")
	assert.True(t, utf8.Valid(tl.InputSchema))

	valid := func(what string, b []byte) {
		t.Helper()
		assert.True(t, utf8.Valid(b), "%s is not valid UTF-8: %q", what, b)
	}
	// A query given directly is read as a JSON decoder would read it, so
	// that nothing derived from it (names not found, names cut by
	// MaxSelectNames, the query itself) holds invalid UTF-8.
	cut := NewSearcher(&r, &SearchOptions{MaxSelectNames: 1})
	res, err := cut.Search("select:Bad,Nope"+bad+",More"+bad, 0)
	require.NoError(t, err)
	assert.True(t, utf8.ValidString(res.Query), "Result.Query %q", res.Query)
	for _, n := range res.Notes {
		assert.True(t, utf8.ValidString(n), "note %q", n)
	}
	for _, opts := range []*SessionOptions{nil, {CallBridge: true}, {Format: FormatToolReference}} {
		s := NewSession(&r, opts)
		valid("Announce", []byte(s.Announce().Text))
		valid("SystemPromptSection", []byte(s.SystemPromptSection()))
		for _, q := range []string{"bad", "select:Bad,Lazy,Nope" + bad, "lazy " + bad, bad, "Bad"} {
			res, err := s.searcher.Search(q, 0)
			require.NoError(t, err, q)
			if strings.HasPrefix(q, "select:") {
				require.Len(t, res.Matches, 2, "select:Bad,Lazy finds both")
			}
			valid("Result.JSON for "+q, res.JSON())
			for _, f := range []Format{FormatInline, FormatToolReference, FormatFunctions} {
				for _, b := range allBlocks(res, f) {
					valid("Content("+f.String()+") for "+q, []byte(b.Text))
				}
			}
			_, err = s.Call(json.RawMessage(`{"query":"` + q + `"}`))
			require.NoError(t, err)
		}
		defs, skipped := s.Tools()
		require.Empty(t, skipped)
		js, err := json.Marshal(defs)
		require.NoError(t, err)
		valid("Tools", js)
		for _, d := range defs {
			valid("Tools: "+d.Name, []byte(d.Description))
			valid("Tools: "+d.Name, d.InputSchema)
		}
		call, err := s.CheckCall("Bad", json.RawMessage(`{"a":"`+bad+`"}`))
		require.NoError(t, err, "the decoder reads the invalid bytes as U+FFFD, as the schema does")
		valid("ToolCall.Arguments", call.Arguments)
		_, err = s.CheckCall("Bad", json.RawMessage(`{"a":"x`+bad+`"}`))
		require.Error(t, err)
		valid("CheckCall error", []byte(err.Error()))
		_, err = s.CheckCall("Nope"+bad, nil)
		require.Error(t, err)
		valid("CheckCall unknown", []byte(err.Error()))
	}
}

// TestHintLimit: a search hint over MaxHintBytes is refused, also from an
// MCP server's _meta; it used to be accepted at any size and scanned by
// every punctuation query.
func TestHintLimit(t *testing.T) {
	var r Registry
	for _, tl := range []Tool{
		{Name: "Big", SearchHint: strings.Repeat("word ", 2<<20)},
		NewMCPTool("s", "t", "", nil, map[string]any{"anthropic/searchHint": strings.Repeat("x ", defaultMaxHintBytes)}),
	} {
		err := r.Register(tl)
		require.ErrorIs(t, err, ErrLimit, "%s with a hint of %d bytes", tl.Name, len(tl.SearchHint))
		assert.Contains(t, err.Error(), "the search hint is")
		assert.Contains(t, err.Error(), "the limit is 1024")
	}
	require.NoError(t, r.Register(Tool{Name: "Fits", SearchHint: strings.Repeat("x", defaultMaxHintBytes)}))
	small, err := NewRegistry(&RegistryOptions{MaxHintBytes: 4}, Tool{Name: "A", SearchHint: "abcd"})
	require.NoError(t, err)
	require.ErrorIs(t, small.Register(Tool{Name: "B", SearchHint: "abcde"}), ErrLimit, "the option is honoured")
}
