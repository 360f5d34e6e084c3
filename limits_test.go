package toolsearch

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/text"
	"github.com/toolsearch/toolsearch/internal/words"
)

// nested returns a schema whose objects nest depth deep: {} is 1.
func nested(depth int) string {
	return strings.Repeat(`{"items":`, depth-1) + `{}` + strings.Repeat(`}`, depth-1)
}

// sizedSchema returns a valid schema of exactly n bytes (n ≥ 40).
func sizedSchema(n int) string {
	const head, tail = `{"type":"object","description":"`, `"}`
	return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
}

func TestLimitsDefaults(t *testing.T) {
	got := NewSearcher(&Registry{}, &SearchOptions{MaxQueryTerms: -3}).opts
	assert.Equal(t, SearchOptions{
		MaxResults:           defaultMaxResults,
		MaxResultsCap:        defaultMaxResultsCap,
		MaxQueryBytes:        defaultMaxQueryBytes,
		MaxQueryTerms:        defaultMaxQueryTerms,
		MaxSelectNames:       defaultMaxSelectNames,
		MaxResultSchemaBytes: defaultMaxResultSchemaBytes,
		MaxQueryWork:         defaultMaxQueryWork,
	}, got, "zero and negative fields mean the defaults")
	assert.Equal(t, RegistryOptions{
		MaxSchemaBytes:      defaultMaxSchemaBytes,
		MaxSchemaDepth:      defaultMaxSchemaDepth,
		MaxDescriptionBytes: defaultMaxDescriptionBytes,
		MaxSchemaWork:       defaultMaxSchemaWork,
		MaxHintBytes:        defaultMaxHintBytes,
	}, (&RegistryOptions{MaxSchemaDepth: -1}).withDefaults(), "zero and negative fields mean the defaults")
	assert.Equal(t, 7, NewSearcher(&Registry{}, &SearchOptions{MaxQueryTerms: 7}).opts.MaxQueryTerms, "a set field is kept")
	assert.Less(t, defaultMaxSchemaBytes, defaultMaxResultSchemaBytes,
		"with the defaults, the largest schema a tool may have always fits in a result on its own")
}

func TestQueryLimits(t *testing.T) {
	r := specPool(t)
	s := NewSearcher(r, &SearchOptions{MaxQueryBytes: 40, MaxQueryTerms: 3})
	for _, tc := range []struct {
		name, query string
		wantErr     string // "" = answered
		wantNote    string // "" = no note
	}{
		{name: "at the byte limit", query: strings.Repeat("a", 40)},
		{name: "over the byte limit", query: strings.Repeat("a", 41), wantErr: "the query is 41 bytes long, the limit is 40"},
		{name: "select over the byte limit", query: "select:" + strings.Repeat("a", 34), wantErr: "the query is 41 bytes long"},
		{name: "at the term limit", query: "web search fetch"},
		{name: "over the term limit is answered", query: "web search fetch page", wantNote: "the query has 4 terms and this search reads at most 3: repeated terms were counted once, and these were left out (stop words and the most common words first): \"web\"."},
		{name: "whitespace is not a term", query: "  web \u3000 search\t\nfetch  "},
		{name: "repeats count once over the limit", query: "web Web web fetch", wantNote: "the query has 4 terms and this search reads at most 3: repeated terms were counted once."},
		{name: "select names are not terms", query: "select:a, b, c, d, e"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, call := range []struct {
				name string
				do   func() (*Result, error)
			}{
				{"Search", func() (*Result, error) { return s.Search(tc.query, 0) }},
				{"Call", func() (*Result, error) {
					args, _ := json.Marshal(map[string]string{"query": tc.query})
					return s.Call(args)
				}},
			} {
				res, err := call.do()
				if tc.wantErr == "" {
					require.NoError(t, err, "%s(%q)", call.name, tc.query)
					if tc.wantNote == "" {
						assert.Empty(t, res.Notes, "%s(%q)", call.name, tc.query)
					} else {
						assert.Equal(t, []string{tc.wantNote}, res.Notes, "%s(%q)", call.name, tc.query)
					}
					continue
				}
				require.ErrorIs(t, err, ErrInvalidQuery, "%s(%q)", call.name, tc.query)
				require.ErrorIs(t, err, ErrLimit, "%s(%q)", call.name, tc.query)
				assert.Contains(t, err.Error(), tc.wantErr, "%s(%q)", call.name, tc.query)
				assert.Nil(t, res)
			}
		})
	}
}

func TestCountFields(t *testing.T) {
	for _, tc := range []struct {
		s    string
		upTo int
		want int
	}{
		{"", 10, 0},
		{"   ", 10, 0},
		{"a", 10, 1},
		{" a  b\u00a0c\u2028d ", 10, 4},
		{"a b c d e f", 3, 3},
	} {
		assert.Equal(t, tc.want, text.CountFields(tc.s, tc.upTo), "text.CountFields(%q, %d)", tc.s, tc.upTo)
		if tc.upTo > len(words.Fields(tc.s)) {
			assert.Len(t, words.Fields(tc.s), tc.want, "countFields agrees with splitSpace on %q", tc.s)
		}
	}
}

func TestSelectNamesLimitCutsAndSaysSo(t *testing.T) {
	r := specPool(t)
	s := NewSearcher(r, &SearchOptions{MaxSelectNames: 2})

	res := search(t, s, "select:WebFetch,TaskList,NotebookEdit,Nope", 0)
	assert.Equal(t, []string{"WebFetch", "TaskList"}, matchNames(res), "the first MaxSelectNames names are looked up")
	assert.Empty(t, res.NotFound, "names cut by the limit are not reported as missing tools")
	require.Len(t, res.Notes, 1)
	assert.Equal(t, "select: named 4 tools; the limit is 2 a query, so these were not looked up: \"NotebookEdit\", \"Nope\". Ask for them in another query.", res.Notes[0])
	assert.Contains(t, res.functions(), res.Notes[0], "the note reaches the model in every rendering")

	res = search(t, s, "select:WebFetch,TaskList", 0)
	assert.Equal(t, []string{"WebFetch", "TaskList"}, matchNames(res))
	assert.Empty(t, res.Notes, "no note when nothing was cut")
}

func TestResultSchemaBudget(t *testing.T) {
	var r Registry
	big, small := sizedSchema(600), sizedSchema(100)
	require.NoError(t, r.Register(
		Tool{Name: "AlphaBig", Description: "alpha", InputSchema: json.RawMessage(big), ShouldDefer: true},
		Tool{Name: "BetaSmall", Description: "alpha", InputSchema: json.RawMessage(small), ShouldDefer: true},
		Tool{Name: "GammaBig", Description: "alpha", InputSchema: json.RawMessage(big), ShouldDefer: true},
	))
	s := NewSearcher(&r, &SearchOptions{MaxResultSchemaBytes: 1000})

	res := search(t, s, "select:AlphaBig,GammaBig,BetaSmall", 0)
	assert.Equal(t, []string{"AlphaBig", "BetaSmall"}, matchNames(res), "a match that does not fit is left out; later ones that fit are kept")
	assert.Equal(t, []string{"GammaBig was left out: its schema is 600 bytes and this result has 400 of its 1000 schema bytes left. Select it in a query of its own."}, res.Notes)
	total := 0
	for _, m := range res.Matches {
		total += len(m.Schema)
	}
	assert.LessOrEqual(t, total, 1000, "the schemas returned stay within the limit")

	res = search(t, s, "alpha", 5)
	assert.Equal(t, []string{"AlphaBig", "BetaSmall"}, matchNames(res), "the keyword form is cut the same way, best first")
	require.Len(t, res.Notes, 1)
	assert.Contains(t, res.Notes[0], "GammaBig was left out")

	res = search(t, s, "select:GammaBig", 0)
	assert.Equal(t, []string{"GammaBig"}, matchNames(res), "alone it fits")
	assert.Empty(t, res.Notes)
}

func TestSchemaSizeAndDepthLimits(t *testing.T) {
	for _, tc := range []struct {
		name    string
		limits  RegistryOptions
		schema  string
		wantErr string // "" = accepted
	}{
		{"at the size limit", RegistryOptions{MaxSchemaBytes: 100}, sizedSchema(100), ""},
		{"over the size limit", RegistryOptions{MaxSchemaBytes: 100}, sizedSchema(101), "the schema is 101 bytes, the limit is 100"},
		{"default size limit", RegistryOptions{}, sizedSchema(defaultMaxSchemaBytes + 1), fmt.Sprintf("the limit is %d", defaultMaxSchemaBytes)},
		{"at the depth limit", RegistryOptions{MaxSchemaDepth: 5}, nested(5), ""},
		{"over the depth limit", RegistryOptions{MaxSchemaDepth: 5}, nested(6), "nests objects and arrays more than 5 deep"},
		{"arrays count", RegistryOptions{MaxSchemaDepth: 3}, `{"enum":[[[1]]]}`, "more than 3 deep"},
		{"brackets in strings do not count", RegistryOptions{MaxSchemaDepth: 2}, `{"description":"[[[{{{\"[[["}`, ""},
		{"default depth limit", RegistryOptions{}, nested(defaultMaxSchemaDepth + 1), fmt.Sprintf("more than %d deep", defaultMaxSchemaDepth)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRegistry(t, &tc.limits)
			err := r.Register(Tool{Name: "T", InputSchema: json.RawMessage(tc.schema)})
			if tc.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrInvalidSchema)
			require.ErrorIs(t, err, ErrLimit)
			assert.Contains(t, err.Error(), tc.wantErr)
			assert.Contains(t, err.Error(), `register "T"`, "the error names the tool")
			assert.Equal(t, 0, registeredCount(r))
		})
	}
}

func TestLazySchemaLimits(t *testing.T) {
	r := newRegistry(t, &RegistryOptions{MaxSchemaBytes: 100, MaxSchemaDepth: 4})
	lazy := func(s string) func() (json.RawMessage, error) {
		return func() (json.RawMessage, error) { return json.RawMessage(s), nil }
	}
	require.NoError(t, r.Register(
		Tool{Name: "Big", Description: "lazy", ShouldDefer: true, LoadSchema: lazy(sizedSchema(101))},
		Tool{Name: "Deep", Description: "lazy", ShouldDefer: true, LoadSchema: lazy(nested(5))},
		Tool{Name: "Fine", Description: "lazy", ShouldDefer: true, LoadSchema: lazy(nested(4))},
	))
	res := search(t, NewSearcher(r, nil), "lazy", 5)
	assert.Equal(t, []string{"Fine"}, matchNames(res))
	require.Len(t, res.Notes, 2)
	assert.Contains(t, res.Notes[0], `Big was left out: load schema of "Big"`)
	assert.Contains(t, res.Notes[0], "the schema is 101 bytes, the limit is 100")
	assert.Contains(t, res.Notes[1], `Deep was left out: load schema of "Deep"`)
	assert.Contains(t, res.Notes[1], "more than 4 deep")
	for _, n := range res.Notes {
		assert.NotContains(t, n, "toolsearch:", "a note is for the model: no Go prefix")
	}
}

func TestDescriptionLimit(t *testing.T) {
	r := newRegistry(t, &RegistryOptions{MaxDescriptionBytes: 10})
	require.NoError(t, r.Register(Tool{Name: "Ok", Description: strings.Repeat("d", 10)}))
	err := r.Register(Tool{Name: "Long", Description: strings.Repeat("d", 11)})
	require.ErrorIs(t, err, ErrLimit)
	assert.EqualError(t, err, `register "Long": toolsearch: limit exceeded: the description is 11 bytes, the limit is 10`)

	var z Registry // the zero Registry applies the default
	err = z.Register(Tool{Name: "Long", Description: strings.Repeat("d", defaultMaxDescriptionBytes+1)})
	require.ErrorIs(t, err, ErrLimit)
	require.NoError(t, z.Register(Tool{Name: "Max", Description: strings.Repeat("d", defaultMaxDescriptionBytes)}))
}

// The limits are fixed when the registry is made: another registry made
// with other limits does not change this one's.
func TestRegistryLimitsAreFixed(t *testing.T) {
	opts := &RegistryOptions{MaxSchemaDepth: 5}
	r := newRegistry(t, opts)
	opts.MaxSchemaDepth = 100 // options are copied
	require.ErrorIs(t, r.Register(Tool{Name: "Deep", InputSchema: json.RawMessage(nested(6))}), ErrLimit)
	other := newRegistry(t, nil)
	require.NoError(t, other.Register(Tool{Name: "Deep", InputSchema: json.RawMessage(nested(6))}), "nil means the defaults")
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

func TestSchemaWorkLimit(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
	}{
		{"anyOf chain of 25 (2²⁵ applications)", anyOfChain(25)},
		{"branching recursion (2 to the arguments' depth)", branchingRecursion},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r Registry
			err := r.Register(Tool{Name: "Fan", InputSchema: json.RawMessage(tc.schema)})
			require.ErrorIs(t, err, ErrInvalidSchema)
			require.ErrorIs(t, err, ErrLimit)
			assert.EqualError(t, err, `register "Fan": toolsearch: invalid input schema: limit exceeded: validating one value may apply more than 10000 subschemas: its references fan out`)
		})
	}
	r := newRegistry(t, &RegistryOptions{MaxSchemaWork: 100})
	require.NoError(t, r.Register(Tool{Name: "Small", InputSchema: json.RawMessage(anyOfChain(4))}), "2⁴ fits in 100")
	require.ErrorIs(t, r.Register(Tool{Name: "Fan", InputSchema: json.RawMessage(anyOfChain(6))}), ErrLimit, "2⁶ does not")
}

func TestRealSchemasWithinLimits(t *testing.T) {
	loadCatalog(t, "testdata/bench/livemcpbench.json") // 527 schemas of real MCP servers, all accepted
}

// hostileWideSchema returns a schema just under defaultMaxSchemaBytes whose
// definitions refer to each other through properties and items: the work
// bound has to follow every reference at every level.
func hostileWideSchema() string {
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	n := 0
	for i := 0; ; i++ {
		def := fmt.Sprintf(`"d%d":{"properties":{"a":{"$ref":"#/$defs/d%d"},"b":{"$ref":"#/$defs/d%d"}},"allOf":[{"$ref":"#/$defs/e%d"}]},"e%d":{"items":{"$ref":"#/$defs/d%d"}},`, i, i+1, i/2, i, i, i/3)
		if b.Len()+len(def)+200 > defaultMaxSchemaBytes {
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
func BenchmarkRegisterSchema(b *testing.B) {
	typical := `{"type":"object","properties":{"owner":{"type":"string"},"repo":{"type":"string"},"title":{"type":"string"},"body":{"type":"string"},"labels":{"type":"array","items":{"type":"string"}}},"required":["owner","repo","title"]}`
	for _, bc := range []struct{ name, schema string }{
		{"typical", typical},
		{"hostile_64KiB", hostileWideSchema()},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var r Registry
				if err := r.Register(Tool{Name: "T", InputSchema: json.RawMessage(bc.schema)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
