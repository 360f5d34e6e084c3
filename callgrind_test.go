package toolsearch

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestCallgrindQueries is the workload of scripts/callgrind, which runs it
// under valgrind's callgrind and counts the instructions of each call of
// callgrindLoop only (--toggle-collect, --dump-after), so that building
// the catalog is left out. It runs when TOOLSEARCH_CALLGRIND is
// "n:rankers:shapes": the catalog size, then comma-separated rankers
// (floor, the static index of floor_test.go, its best 5; or a built-in
// strategy, default, bm25 or hybrid: one Searcher.Search for the best 5,
// as BenchmarkStrategyIndex's query rows) and shapes (keywords-1,
// keywords-3, keywords-6 or request: BenchmarkStrategyIndex's queries).
// For each shape and ranker every query is run once first, outside the
// count (the index is built and the pooled scratch grown), then once
// counted. It prints a line per count with the queries and the postings
// they read, counted the same way for every ranker: the sum, over each
// query's distinct words, of the number of tools that have the word
// (bm25's postings), so that instructions per posting compare rankers on
// the same work.
func TestCallgrindQueries(t *testing.T) {
	spec := os.Getenv("TOOLSEARCH_CALLGRIND")
	if spec == "" {
		t.Skip("set TOOLSEARCH_CALLGRIND=n:rankers:shapes (scripts/callgrind)")
	}
	f := strings.Split(spec, ":")
	if len(f) != 3 {
		t.Fatalf("TOOLSEARCH_CALLGRIND=%q: want n:rankers:shapes", spec)
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n <= 0 {
		t.Fatalf("TOOLSEARCH_CALLGRIND=%q: the size %q is not a positive number", spec, f[0])
	}
	r, d := engineBenchRegistry(t, n)
	snap := r.load()
	bm := BM25Strategy(nil).Index(corpusOf(r, snap)).(*bm25Index)
	var fl *floorIndex
	for _, shape := range strings.Split(f[2], ",") {
		var qs []string
		switch shape {
		case "keywords-1", "keywords-3", "keywords-6":
			terms, _ := strconv.Atoi(strings.TrimPrefix(shape, "keywords-"))
			qs = d.KeywordQueries(terms, 200, false)
		case "request":
			for i := range 200 {
				qs = append(qs, d.Queries[(i*7919)%len(d.Queries)])
			}
		default:
			t.Fatalf("TOOLSEARCH_CALLGRIND=%q: unknown shape %q", spec, shape)
		}
		postings := 0
		for _, q := range qs {
			all, _ := queryWords(q)
			seen := map[string]bool{}
			for _, w := range all {
				if !seen[w] {
					seen[w] = true
					postings += len(bm.post.Get(w))
				}
			}
		}
		for _, ranker := range strings.Split(f[1], ",") {
			var run func(q string)
			switch ranker {
			case "floor":
				if fl == nil {
					fl = buildFloor(snap.deferred)
				}
				var a floorAcc
				run = func(q string) { fl.rank(&a, q, 5) }
			default:
				st, ok := builtinStrategy(ranker)
				if !ok {
					t.Fatalf("TOOLSEARCH_CALLGRIND=%q: unknown ranker %q", spec, ranker)
				}
				s := NewSearcher(r, &SearchOptions{Strategy: st})
				s.Prepare()
				run = func(q string) {
					if _, err := s.Search(q, 5); err != nil {
						t.Fatal(err)
					}
				}
			}
			for _, q := range qs {
				run(q)
			}
			callgrindLoop(qs, run)
			fmt.Printf("callgrind: %s %s %d queries %d postings %d\n", ranker, shape, n, len(qs), postings)
		}
	}
}

// callgrindLoop runs every query once: the instructions scripts/callgrind
// counts.
//
//go:noinline
func callgrindLoop(qs []string, run func(string)) {
	for _, q := range qs {
		run(q)
	}
}

// builtinStrategy returns the built-in strategy named name.
func builtinStrategy(name string) (Strategy, bool) {
	for _, st := range []Strategy{DefaultStrategy(), BM25Strategy(nil), HybridStrategy()} {
		if st.Name() == name {
			return st, true
		}
	}
	return nil, false
}
