package toolsearch

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomJSONText returns a string made of the characters JSON encoding
// treats specially, and ordinary ones.
func randomJSONText(rng *rand.Rand) string {
	pieces := []string{"a", "Zz", " ", "\"", "\\", "<", ">", "&", "\n", "\t", "\r", "\b", "\f", "\x00", "\x1f", "\x7f",
		"é", "—", "\u2028", "\u2029", "\xff", "\xe2\x80", "日本", "😀", "/", "'"}
	var b strings.Builder
	for range rng.IntN(12) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

// randomSchema returns a valid JSON schema text, compact or not, with
// descriptions that may need escaping.
func randomSchema(rng *rand.Rand) json.RawMessage {
	d, _ := json.Marshal(randomJSONText(rng))
	s := `{"type":"object","properties":{"x":{"type":"string","description":` + string(d) + `}}}`
	switch rng.IntN(5) {
	case 0:
		s = strings.ReplaceAll(s, ":", ": ")
	case 1:
		s = "\n" + s + " "
	case 2:
		s = `{"description":"a <b> & c \u2028 ` + "\u2029" + `"}`
	case 3:
		return nil
	}
	return json.RawMessage(s)
}

// Result.JSON writes the bytes json.Marshal writes, for any strings,
// schemas compact or not, and empty or nil lists.
func TestResultJSONMatchesMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	strs := func() []string {
		switch rng.IntN(3) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		var l []string
		for range 1 + rng.IntN(3) {
			l = append(l, randomJSONText(rng))
		}
		return l
	}
	for i := range 3000 {
		r := &Result{Query: randomJSONText(rng), TotalDeferredTools: rng.IntN(1 << 20), PendingMCPServers: strs(), NotFound: strs(), Notes: strs()}
		if rng.IntN(4) > 0 {
			r.Matches = []Match{}
			for range rng.IntN(4) {
				r.Matches = append(r.Matches, Match{Name: randomJSONText(rng), Description: randomJSONText(rng), Schema: randomSchema(rng), Score: 3})
			}
		}
		switch rng.IntN(3) {
		case 0:
			r.Suggestions = map[string][]string{}
		case 1:
			r.Suggestions = map[string][]string{randomJSONText(rng): strs(), randomJSONText(rng): strs(), "b": {"x"}}
		}
		want, err := json.Marshal(r)
		require.NoError(t, err)
		require.Equal(t, string(want), string(r.JSON()), "case %d: %#v", i, r)
	}
}

// A Searcher's Result, whose schemas Result.JSON copies without a look
// when they need no escaping, renders as json.Marshal renders it.
func TestSearchResultJSONMatchesMarshal(t *testing.T) {
	var r Registry
	require.NoError(t, r.Register(
		Tool{Name: "plain_tool", Description: "Plain.", ShouldDefer: true, InputSchema: json.RawMessage(`{ "type": "object", "properties": { "a": { "type": "string", "description": "spaced out" } } }`)},
		Tool{Name: "html_tool", Description: "Has <b> & co.", ShouldDefer: true, InputSchema: json.RawMessage(`{"type":"object","description":"a <b> & \u2028 c"}`)},
		Tool{Name: "sep_tool", Description: "Separators.", ShouldDefer: true, InputSchema: json.RawMessage("{\"type\":\"object\",\"description\":\"x \u2029 y\"}")},
		Tool{Name: "bare_tool", Description: "No schema.", ShouldDefer: true},
	))
	s := NewSearcher(&r, nil)
	for _, q := range []string{"tool", "select:plain_tool,html_tool,sep_tool,bare_tool,nope", "html"} {
		res, err := s.Search(q, 10)
		require.NoError(t, err)
		require.NotEmpty(t, res.Matches, "Search(%q)", q)
		want, err := json.Marshal(res)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(res.JSON()), "Search(%q)", q)
	}
}
