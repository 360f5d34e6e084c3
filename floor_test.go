package toolsearch

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/toolsearch/toolsearch/internal/benchdata"
	"github.com/toolsearch/toolsearch/internal/text"
	"github.com/toolsearch/toolsearch/internal/vocab"

	"slices"
	"strings"

	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch/internal/words"
)

// The floor: the default strategy's scoring done as cheaply as a static
// index allows, to measure the engine against (BenchmarkFloor). It is
// built once for one set of tools and never changes, so it needs no
// slots, shards or copy-on-write: a tool's number is its position in pool
// order (ties are broken by comparing two integers), one map finds a
// term's postings, a second one the tools whose adjacent name parts join
// into it, each vocabulary part knows its postings (the substring rule
// makes no map lookup), and the accumulator is 8 bytes per tool.
// TestFloorMatchesEngine checks that it ranks as the engine does.

type floorIndex struct {
	tok              map[string]int32 // token → id
	part, hint, desc [][]int32        // by token id: positions, ascending
	vocab            vocab.Vocabulary // the distinct name parts
	partTok          []int32          // vocabulary id → token id
	joins            map[string][]int32
	mcp              []bool // by position: scores as an MCP tool
	tools            []*entry
}

func buildFloor(tools []*entry) *floorIndex {
	f := &floorIndex{tok: map[string]int32{}, joins: map[string][]int32{}, tools: tools, mcp: make([]bool, len(tools))}
	id := func(tok string) int32 {
		i, ok := f.tok[tok]
		if !ok {
			i = int32(len(f.part))
			f.tok[strings.Clone(tok)] = i
			f.part, f.hint, f.desc = append(f.part, nil), append(f.hint, nil), append(f.desc, nil)
		}
		return i
	}
	add := func(l *[]int32, p int32) {
		if n := len(*l); n == 0 || (*l)[n-1] != p {
			*l = append(*l, p)
		}
	}
	for i, e := range tools {
		p := int32(i)
		f.mcp[i] = e.scoresMCP
		for _, part := range e.parts {
			t := id(part)
			if len(f.part[t]) == 0 {
				f.vocab.Add(part)
				f.partTok = append(f.partTok, t)
			}
			add(&f.part[t], p)
		}
		e.hint.Runs(func(w string) { add(&f.hint[id(w)], p) })
		e.desc.Runs(func(w string) { add(&f.desc[id(w)], p) })
		for a := range e.parts {
			joined := e.parts[a]
			for b := a + 1; b < len(e.parts); b++ {
				joined += e.parts[b]
				if !strings.ContainsAny(joined, "-.") {
					l := f.joins[joined]
					if !slices.Contains(l, p) {
						f.joins[joined] = append(l, p)
					}
				}
			}
		}
	}
	return f
}

// floorAcc is the per-query state: score and rules packed in one word, and
// the last term that gave the tool a name rule (or, for required terms,
// that it satisfied).
type floorAcc struct {
	c       []struct{ sr, gen uint32 }
	touched []int32
	gen     uint32
	top     []Hit
}

const floorAlive = 1 << 31 // sr: satisfied every required term

func (f *floorIndex) rank(a *floorAcc, query string, k int) []Hit {
	if len(a.c) < len(f.tools) {
		a.c = make([]struct{ sr, gen uint32 }, len(f.tools))
	}
	t := parseTerms(words.Lower(words.TrimSpace(query)))
	nreq := len(t.required)
	var prev uint32
	for j, term := range t.all {
		a.gen++
		g := a.gen
		req := j < nreq
		alive := func(s int32) bool { return !req || j == 0 || a.c[s].gen == prev }
		add := func(s int32, w uint32, r Rule) {
			c := &a.c[s]
			if c.sr == 0 {
				a.touched = append(a.touched, s)
			}
			c.sr = (c.sr + w) | uint32(r)<<24
		}
		tok, found := f.tok[term]
		if found {
			for _, s := range f.part[tok] {
				w := uint32(weightPartExact)
				if f.mcp[s] {
					w = weightMCPPartExact
				}
				add(s, w, RulePartExact)
				if alive(s) {
					a.c[s].gen = g
				}
			}
		}
		if partChars(term) {
			for _, id := range f.vocab.Candidates(term) {
				part := f.vocab.Parts[id]
				if len(part) <= len(term) || !strings.Contains(part, term) {
					continue
				}
				for _, s := range f.part[f.partTok[id]] {
					if a.c[s].gen == g || !alive(s) {
						continue
					}
					w := uint32(weightPartSubstring)
					if f.mcp[s] {
						w = weightMCPPartSubstring
					}
					add(s, w, RulePartSubstring)
					a.c[s].gen = g
				}
			}
		}
		if flat := text.Unseparated(term); len(flat) >= 2 {
			for _, s := range f.joins[flat] {
				if a.c[s].gen != g {
					add(s, weightFullName, RuleFullName)
				}
			}
		}
		sat := func(s int32) {
			if req && alive(s) {
				a.c[s].gen = g
			}
		}
		if text.OneRun(term) {
			if found {
				for _, s := range f.hint[tok] {
					add(s, weightHint, RuleHint)
					sat(s)
				}
				for _, s := range f.desc[tok] {
					add(s, weightDescription, RuleDescription)
					sat(s)
				}
			}
		} else {
			for i, e := range f.tools {
				s := int32(i)
				if e.hint.End(term) >= 0 {
					add(s, weightHint, RuleHint)
					sat(s)
				}
				if e.desc.End(term) >= 0 {
					add(s, weightDescription, RuleDescription)
					sat(s)
				}
			}
		}
		if req && j == nreq-1 {
			for _, s := range a.touched {
				if a.c[s].gen == g {
					a.c[s].sr |= floorAlive
				}
			}
		}
		prev = g
	}
	// The best k, by score then position.
	top := a.top[:0]
	for _, s := range a.touched {
		c := &a.c[s]
		sr := c.sr
		c.sr = 0
		if nreq > 0 && sr&floorAlive == 0 {
			continue
		}
		score := sr & (1<<24 - 1)
		if len(top) == k && (score < uint32(top[k-1].Score) || score == uint32(top[k-1].Score) && s > int32(top[k-1].Tool)) {
			continue
		}
		i := len(top)
		for i > 0 && (score > uint32(top[i-1].Score) || score == uint32(top[i-1].Score) && s < int32(top[i-1].Tool)) {
			i--
		}
		if len(top) < k {
			top = append(top, Hit{})
		}
		copy(top[i+1:], top[i:len(top)-1])
		top[i] = Hit{Tool: int(s), Score: float64(score), Rules: Rule(sr >> 24 &^ (floorAlive >> 24))}
	}
	a.touched = a.touched[:0]
	a.top = top
	return top
}

// TestFloorMatchesEngine checks that the floor ranks as the engine does
// (same tools, scores, rules and order), so that BenchmarkFloor compares
// the engine with the same work done another way.
func TestFloorMatchesEngine(t *testing.T) {
	catalogs := sweepSize(20, 200)
	checked := 0
	var a floorAcc
	for seed := range catalogs {
		rng := rand.New(rand.NewPCG(uint64(seed), 13))
		var r Registry
		m := &refModel{tools: map[string]*refTool{}, servers: map[string]ServerStatus{}}
		for range 6 {
			mutate(t, rng, &r, m)
		}
		snap := r.load()
		f := buildFloor(slices.Collect(snap.deferredTools()))
		var names []string
		for e := range snap.pool.All() {
			names = append(names, e.tool.Name)
		}
		all := NewSearcher(&r, &SearchOptions{MaxResultsCap: math.MaxInt, MaxResultSchemaBytes: math.MaxInt})
		for range 20 {
			q := diffQuery(rng, names)
			res, err := all.Search(q, math.MaxInt)
			require.NoError(t, err)
			if res.Form != FormRanked || slices.Contains(res.Notes, namesListedFirst()) { // the names form reorders: TestEngineMatchesReference checks it
				continue
			}
			for _, k := range []int{1, 3, math.MaxInt} {
				top := f.rank(&a, q, k)
				got := make([]Match, 0, len(top))
				for _, h := range top {
					got = append(got, Match{Name: snap.deferredAt(h.Tool).tool.Name, Score: h.Score, Rules: h.Rules})
				}
				want := make([]Match, 0, len(res.Matches))
				for _, m := range res.Matches[:min(k, len(res.Matches))] {
					want = append(want, Match{Name: m.Name, Score: m.Score, Rules: m.Rules})
				}
				require.Equal(t, want, got, "seed %d: floor ranking of %q, k %d", seed, q, k)
			}
			checked++
		}
	}
	t.Logf("%d queries ranked alike by the floor and the engine", checked)
}

// benchSizesFromEnv returns the catalog sizes of the engine benchmarks:
// 1k, 10k and 100k tools, or those TOOLSEARCH_BENCH_SIZES lists
// ("1000,1000000").
func benchSizesFromEnv() []int {
	v := os.Getenv("TOOLSEARCH_BENCH_SIZES")
	if v == "" {
		return []int{1_000, 10_000, 100_000}
	}
	var out []int
	for f := range strings.SplitSeq(v, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}

var (
	engineBenchMu   sync.Mutex
	engineBenchData *benchdata.Data
	engineBenchRegs = map[int]*Registry{}
)

// engineBenchRegistry returns the registry of the benchmark catalog of n
// tools (internal/benchdata), with schemas, built once.
func engineBenchRegistry(b testing.TB, n int) (*Registry, *benchdata.Data) {
	engineBenchMu.Lock()
	defer engineBenchMu.Unlock()
	if engineBenchData == nil {
		d, err := benchdata.Load(".")
		if err != nil {
			b.Fatal(err)
		}
		engineBenchData = d
	}
	if r := engineBenchRegs[n]; r != nil {
		return r, engineBenchData
	}
	cat := engineBenchData.Catalog(n)
	tools := make([]Tool, len(cat))
	for i, t := range cat {
		tools[i] = Tool{Name: t.Name, Description: t.Description, SearchHint: t.SearchHint,
			ShouldDefer: t.ShouldDefer, Server: t.Server, InputSchema: t.Schema}
	}
	r, err := NewRegistry(nil, tools...)
	if err != nil {
		b.Fatal(err)
	}
	engineBenchRegs[n] = r
	return r, engineBenchData
}

// BenchmarkFloor runs the keyword query shapes of BenchmarkSearch three
// ways on the same queries: "floor" (the floor above: the best 5 hits),
// "rank" (the engine's ranked form as the pipeline runs it: the term
// budget, the strategy's index, the scope, the best 5 hits) and "search"
// (Searcher.Search: every form tried, the Result with its schemas).
func BenchmarkFloor(b *testing.B) {
	for _, n := range benchSizesFromEnv() {
		r, d := engineBenchRegistry(b, n)
		snap := r.load()
		f := buildFloor(slices.Collect(snap.deferredTools()))
		s := NewSearcher(r, nil)
		for _, sh := range []struct {
			name  string
			terms int
			req   bool
		}{{"keywords-1", 1, false}, {"keywords-3", 3, false}, {"keywords-6", 6, false}, {"required-3", 3, true}, {"required-6", 6, true}} {
			qs := d.KeywordQueries(sh.terms, 200, sh.req)
			b.Run(sh.name+"/n="+strconv.Itoa(n/1000)+"k/floor", func(b *testing.B) {
				var a floorAcc
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					f.rank(&a, qs[i%len(qs)], 5)
					i++
				}
			})
			b.Run(sh.name+"/n="+strconv.Itoa(n/1000)+"k/rank", func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					buf := s.reg.hitBuffer()
					hits, _, err := s.rank(context.Background(), snap, qs[i%len(qs)], 5, buf.hits[:0])
					if err != nil {
						b.Fatal(err)
					}
					buf.hits = hits
					s.reg.putHitBuffer(buf)
					i++
				}
			})
			b.Run(sh.name+"/n="+strconv.Itoa(n/1000)+"k/search", func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if _, err := s.Search(qs[i%len(qs)], 5); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}
