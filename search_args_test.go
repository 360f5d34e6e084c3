package toolsearch

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/jsonfast"
)

// The plain-arguments reader agrees with the general one wherever it
// answers, and answers the usual shapes.
func TestPlainArgsAgree(t *testing.T) {
	var r Registry
	s := NewSearcher(&r, nil)
	check := func(args string) bool {
		q, k, ok := jsonfast.PlainArgs([]byte(args))
		if !ok {
			return false
		}
		wq, wk, err := s.parseArgsChecked([]byte(args))
		require.NoError(t, err, "parseArgsChecked(%q), which parsePlainArgs accepted", args)
		assert.Equal(t, wq, q, "query of %q", args)
		assert.Equal(t, wk, k, "max_results of %q", args)
		return true
	}
	for _, args := range []string{
		`{"query":"slack send"}`, `{"query":"select:Read,Edit","max_results":3}`, ` { "max_results" : 12 , "query" : "+github issue" } `,
		`{"query":"日本語 café"}`, `{"query":""}`, "{\"query\":\"a\"}\n", `{"query":"x","max_results":999999999}`,
	} {
		assert.True(t, check(args), "jsonfast.PlainArgs(%q) answers", args)
	}
	for _, args := range []string{
		`{"query":"a\"b"}`, `{"query":"x","max_results":0}`, `{"query":"x","max_results":1.0}`, `{"query":"x","max_results":1e2}`,
		`{"query":"x","max_results":1000000000}`, `{"query":"x","query":"y"}`, `{"query":"x","other":1}`, `{"max_results":5}`,
		`{"query":"x"}}`, `{"query":"x"} x`, `{"query":5}`, "{\"query\":\"\xff\"}", `{"query":"x",}`, `[]`, ``, `{}`,
		`{"query":"x","max_results":-1}`, `{"query":"x","max_results":01}`, `{"qu\u0065ry":"x"}`, "{\"query\":\"a\tb\"}",
	} {
		assert.False(t, check(args), "jsonfast.PlainArgs(%q) leaves it to the general reader", args)
	}
	// Random arguments made of the pieces of both.
	rng := rand.New(rand.NewPCG(13, 2))
	pieces := []string{`{`, `}`, `"query"`, `"max_results"`, `:`, `,`, ` `, "\n", `"a b"`, `"x\"y"`, `5`, `0`, `12`, `1.5`, `-3`, `1e3`, `null`, `"日本"`, "\"\xfe\"", `[`, `]`, `"other"`, `true`}
	answered := 0
	for range 20000 {
		var b strings.Builder
		if rng.IntN(2) == 0 {
			b.WriteString(`{"query":`)
		}
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if check(b.String()) {
			answered++
		}
	}
	// Random arguments of the usual shape, with odd spacing and values.
	wsp := []string{"", " ", "\n", "\t ", "\r\n"}
	vals := []string{`"a b"`, `"+x y"`, `"日本"`, `"x\\y"`, "\"\xfe\"", `""`, `5`, `"5"`}
	nums := []string{`1`, `5`, `10`, `999999999`, `0`, `1.0`, `2e1`, `-1`, `"3"`, `null`, `1234567890`}
	for range 20000 {
		w := func() string { return wsp[rng.IntN(len(wsp))] }
		q := w() + `"query"` + w() + ":" + w() + vals[rng.IntN(len(vals))] + w()
		m := w() + `"max_results"` + w() + ":" + w() + nums[rng.IntN(len(nums))] + w()
		var args string
		switch rng.IntN(3) {
		case 0:
			args = "{" + q + "}"
		case 1:
			args = "{" + q + "," + m + "}"
		default:
			args = "{" + m + "," + q + "}"
		}
		if check(w() + args + w()) {
			answered++
		}
	}
	t.Logf("%d random arguments read the plain way", answered)
}
