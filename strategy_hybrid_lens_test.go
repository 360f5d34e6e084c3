package toolsearch

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch/internal/words"
)

// A posting's weight from the tables (hybridLens.plainWeight for one
// found only in the description, hybridLens.weight for the others with
// small counts) is, bit for bit, the weight computed from the posting's
// counts and its tool's length normalisations, on catalogs whose stems
// are in names, hints, first sentences, later sentences and arguments,
// with the default weights and others; the table of the former is left
// unused (plainMask 0) for weights it would not hold exactly.
func TestHybridPlainWeight(t *testing.T) {
	vocab := []string{"alpha", "bravo", "delta", "echo", "golf", "hotel", "india", "kilo", "lima", "oscar", "papa", "tango"}
	rng := rand.New(rand.NewPCG(5, 6))
	pick := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = vocab[rng.IntN(len(vocab))]
		}
		return strings.Join(ws, " ")
	}
	var tools []Tool
	for i := range 400 {
		t := Tool{
			Name:        fmt.Sprintf("mcp__s%d__%s_%s", i%9, vocab[rng.IntN(len(vocab))], vocab[rng.IntN(len(vocab))]),
			Description: pick(1+rng.IntN(6)) + ". " + pick(rng.IntN(40)),
			ShouldDefer: true,
		}
		if rng.IntN(3) == 0 {
			t.SearchHint = pick(1 + rng.IntN(2))
		}
		if rng.IntN(2) == 0 {
			t.InputSchema = json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{%q:{"type":"string","description":%q}}}`,
				vocab[rng.IntN(len(vocab))], pick(rng.IntN(8))))
		}
		t.Name += fmt.Sprint(i)
		tools = append(tools, t)
	}
	r := newRegistry(t, nil)
	require.NoError(t, r.Register(tools...))
	c := corpusOf(r, r.load())
	variant := func(f func(p *hybridParams)) hybridParams {
		p := hybridDefaults
		f(&p)
		return p
	}
	for _, v := range []struct {
		name  string
		p     hybridParams
		plain bool // the table is used
	}{
		{"defaults", hybridDefaults, true},
		{"b 0", variant(func(p *hybridParams) { p.b = 0 }), true},
		{"no hint or argument weight", variant(func(p *hybridParams) { p.hint, p.arg = 0, 0 }), true},
		{"large lead", variant(func(p *hybridParams) { p.lead = 7 }), true},
		{"b 1", variant(func(p *hybridParams) { p.b = 1 }), false},
		{"b negative", variant(func(p *hybridParams) { p.b = -0.1 }), false},
		{"negative hint", variant(func(p *hybridParams) { p.hint = -1 }), false},
		{"infinite argument", variant(func(p *hybridParams) { p.arg = math.Inf(1) }), false},
		{"NaN argument", variant(func(p *hybridParams) { p.arg = math.NaN() }), false},
	} {
		t.Run(v.name, func(t *testing.T) {
			x := indexFor(hybridStrategy{v.p}, c, nil).(*hybridIndex)
			l := x.lens
			if !v.plain {
				require.Zero(t, l.plainMask)
			}
			plain, mixed := 0, 0
			leads := map[uint8]bool{}
			for _, w := range vocab {
				for ps := range x.post.Get(words.Stem(w)).All() {
					if !fastWeight(&ps) {
						continue
					}
					nd, na := x.norms(l, &ps)
					want := x.p.weight(float64(ps.hint), float64(ps.lead), float64(ps.desc), float64(ps.arg), nd, na, ps.flags&postName != 0)
					if ps.flags&l.plainMask == postFast {
						plain++
						leads[ps.lead] = true
						require.Equal(t, math.Float32bits(want), math.Float32bits(l.plainWeight(&ps)), "%s: %+v", w, ps)
						require.Zero(t, ps.hint|uint8(ps.arg))
					} else {
						mixed++
					}
					require.Equal(t, math.Float32bits(want), math.Float32bits(l.weight(&x.p, &ps)), "%s: %+v", w, ps)
				}
			}
			if v.plain {
				require.Greater(t, plain, 500, "postings whose weight is in the table")
				require.Len(t, leads, 4, "first-sentence counts 0 to 3")
			} else {
				require.Zero(t, plain)
			}
			require.Greater(t, mixed, 500, "postings with a name word, a hint or an argument")
		})
	}
}
