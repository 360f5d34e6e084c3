package toolsearch

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/toolsearch/toolsearch/internal/words"
)

// BenchmarkPostings ranks the keyword queries of BenchmarkFloor (1 and 3
// terms, 200 of each) with the floor and with each strategy's ranked form
// (Searcher.rank: the term budget, the strategy's index, the best 5); the
// hybrid rows report the postings a query reaches: the sum over its terms of the
// tools the hybrid index finds for the term (its postings and the tools
// its name credits reach, each once; the n of the term's IDF). That
// count divides every strategy's figures, so instructions per posting
// compare as instructions per query do. scripts/instr counts the
// instructions of rankQueries under callgrind; run natively it is one
// more wall-time benchmark.
func BenchmarkPostings(b *testing.B) {
	for _, n := range benchSizesFromEnv() {
		r, d := engineBenchRegistry(b, n)
		snap := r.load()
		size := "/n=" + strconv.Itoa(n/1000) + "k"
		for _, sh := range []struct {
			name  string
			terms int
		}{{"keywords-1", 1}, {"keywords-3", 3}} {
			qs := d.KeywordQueries(sh.terms, 200, false)
			for _, name := range []string{"floor", "default", "bm25", "hybrid"} {
				b.Run(name+"/"+sh.name+size, func(b *testing.B) {
					run := rankerOf(b, r, snap, name)
					for _, q := range qs { // grows the pooled scratch to its size (not counted)
						run(q)
					}
					b.ReportAllocs()
					for b.Loop() {
						rankQueries(run, qs)
					}
					if name == "hybrid" {
						hx := NewSearcher(r, &SearchOptions{Strategy: HybridStrategy()}).indexOf(snap).(*hybridIndex)
						postings := 0
						for _, q := range qs {
							postings += hx.reached(q)
						}
						b.ReportMetric(float64(postings)/float64(len(qs)), "postings/query")
					}
				})
			}
		}
	}
}

// rankerOf returns a function ranking a query for the best 5 with the
// floor ("floor") or the ranked form of the strategy of that name, its
// index built.
func rankerOf(b testing.TB, r *Registry, snap *snapshot, name string) func(q string) {
	if name == "floor" {
		f := buildFloor(slices.Collect(snap.deferredTools()))
		var a floorAcc
		return func(q string) { f.rank(&a, q, 5) }
	}
	st, err := ParseStrategy(name)
	if err != nil {
		b.Fatal(err)
	}
	s := NewSearcher(r, &SearchOptions{Strategy: st})
	s.Prepare()
	return func(q string) {
		buf := s.reg.hitBuffer()
		hits, _, err := s.rank(context.Background(), snap, q, 5, buf.hits[:0])
		if err != nil {
			b.Fatal(err)
		}
		buf.hits = hits
		s.reg.putHitBuffer(buf)
	}
}

// rankQueries ranks each of qs once: the function scripts/instr counts.
//
//go:noinline
func rankQueries(rank func(q string), qs []string) {
	for _, q := range qs {
		rank(q)
	}
}

// reached returns the postings query q reaches in x: for each term, the
// tools of its postings and those its name credits reach (as scoreTerm
// gathers them), each once.
func (x *hybridIndex) reached(q string) int {
	total := 0
	for _, t := range x.terms(q) {
		tools := map[int32]bool{}
		post := x.post.Get(t.stem)
		for ps := range post.All() {
			tools[ps.slot] = true
		}
		credited := 0
		if !t.stop {
			credit := func(d int32) {
				tools[d] = true
				credited++
			}
			for d := range x.joins.Get(t.stem).All() {
				credit(d)
			}
			if len(t.word) >= 3 && partChars(t.word) {
				x.c.PartsContaining(context.Background(), t.word, func(d int) { credit(int32(d)) })
			}
			if post.Len() == 0 && credited == 0 && len(t.word) >= minTypoLen {
				for _, cw := range x.typoWords(t.word) {
					for ps := range x.post.Get(words.Stem(cw)).All() {
						if ps.name() {
							credit(ps.slot)
						}
					}
				}
			}
		}
		total += len(tools)
	}
	return total
}
