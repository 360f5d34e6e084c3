package toolsearch

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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

// The loops that score a page of postings (termRun.page for a term at a
// time, freshRun.page for a probed query's candidates) write post's work
// out; on every posting list of a catalog, with credits and marks set at
// random, each leaves the accumulators, marks and credits as post called
// on the same postings does (freshRun: only on the candidates').
func TestRunPagesMatchPost(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var tools []Tool
	vocab := []string{"alpha", "bravo", "delta", "echo", "golf", "hotel", "india", "kilo"}
	for i := range 300 {
		w := func() string { return vocab[rng.IntN(len(vocab))] }
		tl := Tool{Name: fmt.Sprintf("mcp__s%d__%s_%s%d", i%5, w(), w(), i), ShouldDefer: true,
			Description: w() + " " + w() + ". " + strings.Repeat(w()+" ", rng.IntN(9))}
		if i%10 == 0 {
			tl.SearchHint = strings.Repeat(w()+" ", 5) // counts the tables do not hold
		}
		tools = append(tools, tl)
	}
	r := newRegistry(t, nil)
	require.NoError(t, r.Register(tools...))
	x := indexFor(HybridStrategy(), corpusOf(r, r.load()), nil).(*hybridIndex)
	q := x.newQuery()
	slots := x.c.Slots()
	bits := func(p float64) []uint64 {
		m := make([]uint64, (slots+63)/64)
		for d := range slots {
			if rng.Float64() < p {
				m[d>>6] |= 1 << (d & 63)
			}
		}
		return m
	}
	slow := 0
	for _, w := range vocab {
		stem := words.Stem(w)
		pages := x.post.Get(stem).Pages()
		// termRun: marked tools have a credit in their accumulator's rules.
		mark := bits(0.3)
		acc := make([]hybridAcc, slots)
		for d := range acc {
			acc[d].rules = Rule(rng.IntN(4)) << creditShift
		}
		a := termRun{acc: slices.Clone(acc), mark: slices.Clone(mark), lens: x.lens, credits: q.credits,
			weight: 1.7, k1: 1.2, k1p1: 2.2, matched: 1, needed: 1, both: true}
		b := a
		b.acc, b.mark = slices.Clone(acc), slices.Clone(mark)
		for _, pg := range pages {
			for i := 0; ; i++ {
				if i = a.page(pg, i); i >= len(pg) {
					break
				}
				a.post(&pg[i], float64(x.postWeight(&q, &pg[i], stem)))
				slow++
			}
			for i := range pg {
				b.post(&pg[i], float64(x.postWeight(&q, &pg[i], stem)))
			}
		}
		require.Equal(t, b.acc, a.acc, "%s: termRun accumulators", w)
		require.Equal(t, b.mark, a.mark, "%s: termRun marks", w)
		require.Equal(t, b.all, a.all, "%s: termRun tools reached", w)
		// freshRun: candidates in fresh, credits at a term's two bits.
		fresh := bits(0.5)
		credOf := make([]uint32, slots)
		for d := range credOf {
			credOf[d] = uint32(rng.IntN(1 << 8))
		}
		fa := freshRun{acc: make([]hybridAcc, slots), fresh: fresh, credOf: slices.Clone(credOf), lens: x.lens,
			credits: q.credits, weight: 0.9, k1: 1.2, k1p1: 2.2, matched: 1, sh: 2 * uint(rng.IntN(4))}
		fb := fa
		fb.acc, fb.credOf = make([]hybridAcc, slots), slices.Clone(credOf)
		for _, pg := range pages {
			for i := 0; ; i++ {
				if i = fa.page(pg, i); i >= len(pg) {
					break
				}
				fa.post(&pg[i], float64(x.postWeight(&q, &pg[i], stem)))
			}
			for i := range pg {
				if d := pg[i].slot; fresh[d>>6]&(1<<(d&63)) != 0 {
					fb.post(&pg[i], float64(x.postWeight(&q, &pg[i], stem)))
				}
			}
		}
		require.Equal(t, fb.acc, fa.acc, "%s: freshRun accumulators", w)
		require.Equal(t, fb.credOf, fa.credOf, "%s: freshRun credits", w)
	}
	require.Greater(t, slow, 10, "postings whose weight is not in the tables")
}
