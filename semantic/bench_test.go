package semantic

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// BenchmarkSearch measures the top 10 over n random vectors, on one
// goroutine (workers=1) and split across GOMAXPROCS (workers=N):
//
//   - exact: Vectors.Search (int8 code scan, exact scores where the code
//     cannot rule a row out);
//
//   - float32: every row scored in float32 (exact, no code scan);
//
//   - int8: ranked by the code alone (approximate).
//
//     go test -run '^$' -bench Search -benchtime 20x ./semantic
func BenchmarkSearch(b *testing.B) {
	procs := runtime.GOMAXPROCS(0)
	alts := []struct {
		name string
		alt  alternative
	}{{"float32", float32Only}, {"int8", int8Only}}
	for _, n := range []int{10_000, 100_000} {
		for _, dims := range []int{256, 384, 768, 1536} {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(dims)))
			var v *Vectors
			setup := func(b *testing.B) {
				if v != nil {
					return
				}
				b.StopTimer()
				v, _ = NewVectors(dims)
				for i := 0; i < n; i += 1000 {
					if _, err := v.Append(randomVectors(rng, min(1000, n-i), dims)...); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
			}
			q := randomVectors(rand.New(rand.NewPCG(1, 1)), 1, dims)[0]
			qn, _ := Normalize(q, dims)
			for _, workers := range []int{1, procs} {
				name := fmt.Sprintf("n=%d/dims=%d/workers=%d", n, dims, workers)
				b.Run(name+"/exact", func(b *testing.B) {
					setup(b)
					v.workers = workers
					dst := make([]Neighbor, 0, 10)
					b.ReportAllocs()
					for b.Loop() {
						if _, err := v.Search(q, 10, dst); err != nil {
							b.Fatal(err)
						}
					}
				})
				for _, a := range alts {
					b.Run(name+"/"+a.name, func(b *testing.B) {
						setup(b)
						v.workers = workers
						parts := v.parts(n)
						dst := make([]Neighbor, 0, 10)
						b.ReportAllocs()
						for b.Loop() {
							a.alt(v, qn, 10, parts, dst)
						}
					})
				}
			}
			v = nil
			runtime.GC()
		}
	}
}
