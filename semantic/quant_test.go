package semantic

// The two alternatives Vectors.Search was measured against (see
// BenchmarkSearch and TestInt8Recall):
//
//   - float32 only: score every row exactly, no code scan;
//   - int8 only: rank by the code score alone, no exact scores (a quarter
//     of the memory, approximate).

import (
	"flag"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// alternative searches m the way the name says, on parts goroutines.
type alternative func(v *Vectors, query []float32, k, parts int, dst []Neighbor) []Neighbor

func split(h *topK, n, parts int, run func(h *topK, lo, hi int)) {
	if parts <= 1 {
		run(h, 0, n)
		return
	}
	heaps := make([]topK, parts)
	var wg sync.WaitGroup
	for p := range parts {
		heaps[p] = topK{items: make([]Neighbor, 0, cap(h.items))}
		wg.Go(func() { run(&heaps[p], n*p/parts, n*(p+1)/parts) })
	}
	wg.Wait()
	for p := range heaps {
		for _, nb := range heaps[p].items {
			h.offer(nb)
		}
	}
}

func float32Only(v *Vectors, query []float32, k, parts int, dst []Neighbor) []Neighbor {
	m := v.view.Load()
	h := topK{items: dst[:0:k]}
	split(&h, m.n, parts, func(h *topK, lo, hi int) {
		for r := lo; r < hi; r++ {
			h.offer(Neighbor{Row: r, Score: dot(query, m.floats[r*v.dims:(r+1)*v.dims])})
		}
	})
	return h.sorted()
}

func int8Only(v *Vectors, query []float32, k, parts int, dst []Neighbor) []Neighbor {
	m := v.view.Load()
	q8 := make([]int8, v.stride)
	qs, _ := encode(query, q8)
	h := topK{items: dst[:0:k]}
	split(&h, m.n, parts, func(h *topK, lo, hi int) {
		var out [block]int32
		for b := lo; b < hi; b += block {
			n := min(block, hi-b)
			dotsInt8(q8, m.codes[b*v.stride:(b+n)*v.stride], out[:n])
			for i, d := range out[:n] {
				h.offer(Neighbor{Row: b + i, Score: qs * m.meta[b+i].scale * float32(d)})
			}
		}
	})
	return h.sorted()
}

var recallN = flag.Int("recall.n", 0, "vectors per set in TestInt8Recall (0: 2,000, or 10,000 with TOOLSEARCH_SWEEPS=large)")

// recall returns the share of the exact top k (Vectors.Search) that the
// int8-only search also returns, over nq queries drawn by query.
func recall(t testing.TB, v *Vectors, k, nq int, query func() []float32) float64 {
	var hit, total int
	for range nq {
		q, err := Normalize(query(), v.dims)
		require.NoError(t, err)
		exact, err := v.Search(q, k, nil)
		require.NoError(t, err)
		in := map[int]bool{}
		for _, nb := range int8Only(v, q, k, 1, make([]Neighbor, 0, k)) {
			in[nb.Row] = true
		}
		for _, nb := range exact {
			if in[nb.Row] {
				hit++
			}
		}
		total += len(exact)
	}
	return float64(hit) / float64(total)
}

// TestInt8Recall measures what ranking by the int8 code alone would lose:
// the share of the exact top 10 it finds, on random and on clustered data.
// The figures quoted in the package doc come from
//
//	go test -run Int8Recall -v ./semantic -args -recall.n=100000
//
// The bounds hold for these seeds.
func TestInt8Recall(t *testing.T) {
	n := *recallN
	if n == 0 {
		n = sweepSize(2_000, 10_000)
	}
	for _, dims := range []int{256, 768} {
		rng := rand.New(rand.NewPCG(uint64(dims), 1))
		random := fill(dims, randomVectors(rng, n, dims))
		r := recall(t, random, 10, 100, func() []float32 { return randomVectors(rng, 1, dims)[0] })
		t.Logf("random data, n=%d dims=%d: int8 recall@10 = %.3f", n, dims, r)
		assert.Greater(t, r, 0.90, "random data, dims %d", dims)

		cv := clusteredVectors(rng, n+100, dims, n/50)
		clustered := fill(dims, cv[:n])
		i := n
		r = recall(t, clustered, 10, 100, func() []float32 { i++; return cv[i-1] })
		t.Logf("clustered data, n=%d dims=%d: int8 recall@10 = %.3f", n, dims, r)
		assert.Greater(t, r, 0.90, "clustered data, dims %d", dims)
	}
}

func TestAlternativesAgreeOnExactCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	vecs := clusteredVectors(rng, 2000, 64, 20)
	v := fill(64, vecs)
	for name, alt := range map[string]alternative{"float32": float32Only, "int8": int8Only} {
		for _, parts := range []int{1, 3} {
			for _, r := range []int{0, 777, 1999} {
				q, err := Normalize(vecs[r], 64)
				require.NoError(t, err)
				got := alt(v, q, 1, parts, make([]Neighbor, 0, 1))
				assert.Equal(t, r, got[0].Row, "%s, %d parts: a stored vector is its own nearest neighbour", name, parts)
				assert.InDelta(t, 1, got[0].Score, 0.01)
			}
		}
	}
}

// The code score is within the bound of the exact score, for every row
// and query: the property the exactness of Search rests on.
func TestCodeBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, dims := range []int{1, 7, 32, 100, 384, 1536} {
		vecs := append(randomVectors(rng, 200, dims), clusteredVectors(rng, 200, dims, 5)...)
		// Sparse and peaked vectors: one large element, the rest tiny.
		for i := range 20 {
			p := make([]float32, dims)
			p[i%dims] = 1
			for j := range p {
				p[j] += float32(rng.NormFloat64() * 1e-4)
			}
			vecs = append(vecs, p)
		}
		v := fill(dims, vecs)
		m := v.view.Load()
		stride, mg := v.stride, margin(dims)
		var worst float64
		for qi := range 20 {
			q, err := Normalize(vecs[rng.IntN(len(vecs))], dims)
			require.NoError(t, err)
			if qi%2 == 1 {
				q, _ = Normalize(randomVectors(rng, 1, dims)[0], dims)
			}
			q8 := make([]int8, stride)
			qs, _ := encode(q, q8)
			var ql1 float64
			for _, x := range q {
				ql1 += math.Abs(float64(x))
			}
			for r := range m.n {
				mr := m.meta[r]
				code := qs * mr.scale * float32(dotInt8(q8, m.codes[r*stride:(r+1)*stride]))
				bound := mr.scale*float32(ql1/2) + mr.l1*qs/2 + mg
				exact := dot(q, m.floats[r*dims:(r+1)*dims])
				diff := math.Abs(float64(exact - code))
				require.LessOrEqual(t, diff, float64(bound), "dims %d row %d: |exact−code| within the bound", dims, r)
				worst = max(worst, diff/float64(bound))
			}
		}
		t.Logf("dims %d: largest |exact−code|/bound = %.3f", dims, worst)
	}
}

func TestDotsInt8Kernel(t *testing.T) {
	t.Logf("AVX2 kernel in use: %v", useAVX2)
	rng := rand.New(rand.NewPCG(13, 14))
	for _, stride := range []int{32, 64, 96, 384, 1536} {
		for _, n := range []int{1, 2, 7, 256} {
			q := make([]int8, stride)
			codes := make([]int8, stride*n)
			for i := range q {
				q[i] = int8(rng.IntN(255) - 127)
			}
			for i := range codes {
				codes[i] = int8(rng.IntN(255) - 127)
			}
			if n == 7 { // the extremes: every product ±127²
				for i := range q {
					q[i] = 127
				}
				for i := range codes {
					codes[i] = -127
				}
			}
			got, want := make([]int32, n), make([]int32, n)
			dotsInt8(q, codes, got)
			dotsInt8Generic(q, codes, want)
			require.Equal(t, want, got, "stride %d, %d codes", stride, n)
		}
	}
	assert.Panics(t, func() { dotsInt8(make([]int8, 31), make([]int8, 31), make([]int32, 1)) }, "stride not a multiple of 32")
	assert.Panics(t, func() { dotsInt8(make([]int8, 32), make([]int8, 32), make([]int32, 2)) }, "codes too short")
}

func TestDotsInt8Rows(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, stride := range []int{32, 96, 384, 1536} {
		const n = 300
		q := make([]int8, stride)
		codes := make([]int8, stride*n)
		for i := range q {
			q[i] = int8(rng.IntN(255) - 127)
		}
		for i := range codes {
			codes[i] = int8(rng.IntN(255) - 127)
		}
		for _, count := range []int{1, 3, 4, 5, 8, 50} {
			rows := make([]int32, count)
			for i := range rows {
				rows[i] = int32(rng.IntN(n))
			}
			rows[0] = n - 1 // the last row, and its lines fetched ahead
			got, want := make([]int32, count), make([]int32, count)
			dotsInt8Rows(q, codes, rows, got)
			for i, r := range rows {
				want[i] = dotInt8(q, codes[int(r)*stride:(int(r)+1)*stride])
			}
			require.Equal(t, want, got, "stride %d, rows %v", stride, rows)
			dotsInt8RowsGeneric(q, codes, rows, got)
			require.Equal(t, want, got, "stride %d, rows %v: the portable loop", stride, rows)
		}
	}
	q := make([]int8, 32)
	assert.Panics(t, func() { dotsInt8Rows(q, make([]int8, 64), []int32{2}, make([]int32, 1)) }, "a row past the codes")
	assert.Panics(t, func() { dotsInt8Rows(q, make([]int8, 64), []int32{-1}, make([]int32, 1)) }, "a negative row")
	assert.Panics(t, func() { dotsInt8Rows(q, make([]int8, 64), []int32{0}, make([]int32, 2)) }, "fewer rows than results")
}
