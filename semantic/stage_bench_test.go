package semantic

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// BenchmarkStaged measures the top 10 over n vectors on one goroutine,
// searched exactly (the int8 code of every row) and staged (the sign code
// of every row first), and reports the bytes of vectors read per query
// (bytes/query) and the share of rows that went on to the int8 code
// (code-share). Random vectors of 384 dimensions are the worst case for
// the first stage (every score close to the others); clustered ones
// (clusters of 50) are closer to real embeddings; with -vectors.jsonl it
// measures real vectors too.
//
//	go test -run '^$' -bench Staged -benchtime 20x -cpu 1 ./semantic
func BenchmarkStaged(b *testing.B) {
	const dims = 384
	for _, kind := range []string{"random", "clustered"} {
		for _, n := range []int{10_000, 32_768, 100_000, 1_000_000} {
			rng := rand.New(rand.NewPCG(uint64(n), dims))
			var v *Vectors
			var queries [][]float32
			setup := func(b *testing.B) {
				if v != nil {
					return
				}
				b.StopTimer()
				v, _ = NewVectors(dims)
				var all [][]float32
				if kind == "random" {
					queries = randomVectors(rand.New(rand.NewPCG(1, 1)), 16, dims)
				} else {
					all = clusteredVectors(rng, n+16, dims, n/50)
					queries = all[n:]
				}
				for i := 0; i < n; i += 1000 {
					vecs := randomVectors(rng, min(1000, n-i), dims)
					if all != nil {
						vecs = all[i:min(n, i+1000)]
					}
					if _, err := v.Append(vecs...); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
			}
			for _, mode := range []searchMode{exactScan, stagedScan} {
				b.Run(fmt.Sprintf("%s/n=%d/dims=%d/%s", kind, n, dims, mode), func(b *testing.B) {
					setup(b)
					benchModes(b, v, queries, mode)
				})
			}
			v = nil
			runtime.GC()
		}
	}
	if *realJSONL == "" {
		return
	}
	all := jsonlVectors(b, *realJSONL)
	rand.New(rand.NewPCG(3, 5)).Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	v := fill(len(all[0]), all[16:])
	for _, mode := range []searchMode{exactScan, stagedScan} {
		b.Run(fmt.Sprintf("real/n=%d/dims=%d/%s", v.Len(), v.dims, mode), func(b *testing.B) {
			benchModes(b, v, all[:16], mode)
		})
	}
}

// benchModes searches v for the queries in turn, as mode says, on one
// goroutine.
func benchModes(b *testing.B, v *Vectors, queries [][]float32, mode searchMode) {
	v.workers = 1
	defer func() { v.workers = 0 }()
	dst := make([]Neighbor, 0, 10)
	var sum searchStats
	for _, q := range queries {
		var st searchStats
		if _, err := v.searchIn(q, 10, dst, nil, mode, &st); err != nil {
			b.Fatal(err)
		}
		sum.add(st)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := v.searchIn(queries[i%len(queries)], 10, dst, nil, mode, nil); err != nil {
			b.Fatal(err)
		}
		i++
	}
	nq := float64(len(queries))
	b.ReportMetric(float64(sum.bytes(v))/nq, "bytes/query")
	b.ReportMetric(float64(sum.codes)/nq/float64(v.Len()), "code-share")
}
