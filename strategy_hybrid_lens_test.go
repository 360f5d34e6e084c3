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

// A posting's weight from the tables (hybridLens.weight, four reads and
// no branch) is, bit for bit, the weight computed from the posting's
// counts and its tool's length normalisations (but a zero's sign, and
// NaN's bits, with weights that make them), on catalogs whose stems are
// in names, hints, first sentences, later sentences and arguments, with
// the default weights and others, negative, infinite and NaN ones too.
func TestHybridTableWeight(t *testing.T) {
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
			Description: pick(1+rng.IntN(12)) + ". " + pick(rng.IntN(40)),
			ShouldDefer: true,
		}
		if rng.IntN(3) == 0 {
			t.SearchHint = pick(1 + rng.IntN(2))
		}
		if rng.IntN(2) == 0 {
			t.InputSchema = json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{%q:{"type":"string","description":%q}}}`,
				vocab[rng.IntN(len(vocab))], pick(rng.IntN(8))))
		}
		switch i % 20 {
		case 0: // counts of 4 and more, whose weights are not in the tables
			w := vocab[rng.IntN(len(vocab))]
			t.SearchHint = strings.Repeat(w+" ", 4+rng.IntN(3))
		case 1:
			w := vocab[rng.IntN(len(vocab))]
			t.Description = strings.Repeat(w+" ", 4+rng.IntN(3)) + ". " + t.Description
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
		name string
		p    hybridParams
	}{
		{"defaults", hybridDefaults},
		{"b 0", variant(func(p *hybridParams) { p.b = 0 })},
		{"no hint or argument weight", variant(func(p *hybridParams) { p.hint, p.arg = 0, 0 })},
		{"large lead", variant(func(p *hybridParams) { p.lead = 7 })},
		{"b 1", variant(func(p *hybridParams) { p.b = 1 })},
		{"b negative", variant(func(p *hybridParams) { p.b = -0.1 })},
		{"negative hint", variant(func(p *hybridParams) { p.hint = -1 })},
		{"negative zero weights", variant(func(p *hybridParams) {
			p.hint, p.lead, p.arg = math.Copysign(0, -1), math.Copysign(0, -1), math.Copysign(0, -1)
		})},
		{"infinite argument", variant(func(p *hybridParams) { p.arg = math.Inf(1) })},
		{"NaN name", variant(func(p *hybridParams) { p.name = math.NaN() })},
	} {
		t.Run(v.name, func(t *testing.T) {
			x := indexFor(hybridStrategy{v.p}, c, nil).(*hybridIndex)
			l := x.lens
			kinds := map[string]int{}
			for _, w := range vocab {
				for ps := range x.post.Get(words.Stem(w)).All() {
					if ps.hint >= hybridFastCounts {
						kinds["hint 4 or more"]++
					}
					if ps.lead >= hybridFastCounts {
						kinds["lead 4 or more"]++
					}
					if !fastWeight(&ps) {
						continue
					}
					nd, na := x.norms(l, &ps)
					want := x.p.weight(float64(ps.hint), float64(ps.lead), float64(ps.desc), float64(ps.arg), nd, na, ps.flags&postName != 0)
					got := l.weight(&ps)
					switch {
					case want == 0 || want != want:
						require.True(t, got == 0 && want == 0 || got != got && want != want, "%s: %+v: %v, want %v", w, ps, got, want)
					default:
						require.Equal(t, math.Float32bits(want), math.Float32bits(got), "%s: %+v", w, ps)
					}
					kinds[fmt.Sprintf("hint %d", ps.hint)]++
					kinds[fmt.Sprintf("lead %d", ps.lead)]++
					kinds[fmt.Sprintf("argument %d", ps.arg)]++
					kinds[fmt.Sprintf("name %v", ps.flags&postName != 0)]++
				}
			}
			for _, k := range []string{"hint 0", "hint 1", "lead 0", "lead 1", "lead 2", "lead 3", "argument 0", "argument 1", "name true", "name false",
				"hint 4 or more", "lead 4 or more"} {
				require.Greater(t, kinds[k], 10, "postings of %s", k)
			}
		})
	}
}
