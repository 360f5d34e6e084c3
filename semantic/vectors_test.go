package semantic

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullSort is the reference for Search: every row scored with the same
// kernel, sorted by score (highest first), then row, cut to k.
func fullSort(v *Vectors, query []float32, k int) []Neighbor {
	m := v.view.Load()
	q := make([]float32, v.dims)
	scale(q, query, norm64(query))
	all := make([]Neighbor, m.n)
	for r := range all {
		all[r] = Neighbor{Row: r, Score: dot(q, m.floats[r*v.dims:(r+1)*v.dims])}
	}
	slices.SortStableFunc(all, func(a, b Neighbor) int {
		if a.Score > b.Score {
			return -1
		}
		if a.Score < b.Score {
			return 1
		}
		return 0
	})
	return all[:min(max(k, 0), len(all))]
}

func TestSearchMatchesFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name    string
		n, dims int
		workers int
		data    func(n, dims int) [][]float32
	}{
		{"random, one goroutine", 3000, 50, 1, func(n, d int) [][]float32 { return randomVectors(rng, n, d) }},
		{"clustered, one goroutine", 3000, 50, 1, func(n, d int) [][]float32 { return clusteredVectors(rng, n, d, 30) }},
		{"random, 3 goroutines", 3000, 131, 3, func(n, d int) [][]float32 { return randomVectors(rng, n, d) }},
		{"clustered, 3 goroutines", 3000, 131, 3, func(n, d int) [][]float32 { return clusteredVectors(rng, n, d, 40) }},
		// Scores ±1 only: ties everywhere.
		{"one dimension", 2000, 1, 2, func(n, d int) [][]float32 { return randomVectors(rng, n, d) }},
		{"7 dimensions (code padding)", 2000, 7, 1, func(n, d int) [][]float32 { return randomVectors(rng, n, d) }},
		// Every score within about 1e-3 of the others: the code scan
		// rules out almost nothing.
		{"near duplicates", 2000, 64, 2, func(n, d int) [][]float32 { return nearDuplicates(rng, n, d) }},
		{"exact duplicates", 2000, 64, 2, func(n, d int) [][]float32 { return slices.Repeat(randomVectors(rng, 1, d), n) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := fill(tt.dims, tt.data(tt.n, tt.dims))
			v.workers, v.minWork = tt.workers, 100
			require.Equal(t, tt.workers, v.parts(v.Len()), "the scan is split as the case says")
			queries := append(tt.data(5, tt.dims), randomVectors(rng, 5, tt.dims)...)
			for qi, q := range queries {
				all := fullSort(v, q, tt.n)
				for _, k := range []int{1, 2, 10, 100, tt.n, tt.n + 5} {
					got, err := v.Search(q, k, nil)
					require.NoError(t, err)
					require.Equal(t, all[:min(k, tt.n)], got, "query %d, k=%d", qi, k)
				}
			}
		})
	}
}

func TestSearchScoresAreCosines(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vecs := clusteredVectors(rng, 500, 64, 10)
	v := fill(64, vecs)
	q := vecs[7] // a stored vector, unnormalised: its own score is 1
	got, err := v.Search(q, 500, nil)
	require.NoError(t, err)
	require.Len(t, got, 500)
	assert.Equal(t, 7, got[0].Row, "a vector is its own nearest neighbour")
	for _, nb := range got {
		var d float64
		for j := range q {
			d += float64(q[j]) * float64(vecs[nb.Row][j])
		}
		want := d / norm64(q) / norm64(vecs[nb.Row])
		assert.InDelta(t, want, nb.Score, 1e-5, "row %d", nb.Row)
	}
}

func TestSearchTiesInRowOrder(t *testing.T) {
	const dims = 100
	a, b := make([]float32, dims), make([]float32, dims)
	a[0], b[1] = 1, 1
	for _, mode := range []searchMode{exactScan, stagedScan} {
		testTiesInRowOrder(t, mode, a, b)
	}
}

func testTiesInRowOrder(t *testing.T, mode searchMode, a, b []float32) {
	const dims = 100
	for _, workers := range []int{1, 4} {
		// Rows 0..5999 alternate a, b; the query is a, so the 3000 copies
		// of a tie at 1 and those of b at 0.
		vecs := make([][]float32, 6000)
		for i := range vecs {
			vecs[i] = a
			if i%2 == 1 {
				vecs[i] = b
			}
		}
		v := fill(dims, vecs)
		v.workers, v.minWork, v.mode = workers, 1000, mode
		require.Equal(t, workers, v.parts(v.Len()))
		got, err := v.Search(a, 5, nil)
		require.NoError(t, err)
		assert.Equal(t, []Neighbor{{0, 1}, {2, 1}, {4, 1}, {6, 1}, {8, 1}}, got, "%v, %d goroutines: the first rows of equal score", mode, workers)
		got, err = v.Search(a, 3003, nil)
		require.NoError(t, err)
		assert.Equal(t, []Neighbor{{5998, 1}, {1, 0}, {3, 0}, {5, 0}}, got[2999:], "%v, %d goroutines: past the ties at 1, the ties at 0 in row order", mode, workers)
	}
}

func TestSearchEdges(t *testing.T) {
	v, err := NewVectors(2)
	require.NoError(t, err)
	got, err := v.Search([]float32{1, 0}, 3, nil)
	require.NoError(t, err)
	assert.Empty(t, got, "empty set")

	_, err = v.Append([]float32{1, 0}, []float32{0, 1}, []float32{-1, 0})
	require.NoError(t, err)
	prefix := []Neighbor{{Row: 99, Score: 9}}
	got, err = v.Search([]float32{2, 0}, 2, prefix)
	require.NoError(t, err)
	assert.Equal(t, []Neighbor{{99, 9}, {0, 1}, {1, 0}}, got, "appends to dst")

	for _, k := range []int{0, -1} {
		got, err = v.Search([]float32{2, 0}, k, prefix)
		require.NoError(t, err)
		assert.Equal(t, prefix, got, "k=%d appends nothing", k)
	}
	got, err = v.Search([]float32{0, -3}, 10, nil)
	require.NoError(t, err)
	assert.Equal(t, []Neighbor{{0, 0}, {2, 0}, {1, -1}}, got, "k beyond Len: every row")

	_, err = v.Search([]float32{0, 0}, 1, nil)
	assert.EqualError(t, err, "query: semantic: invalid vector: all 2 elements are zero")
	_, err = v.Search([]float32{1}, 1, prefix)
	assert.EqualError(t, err, "query: semantic: invalid vector: length 1, want 2")
}

func TestNewVectorsAndAppendErrors(t *testing.T) {
	for _, dims := range []int{0, -3} {
		_, err := NewVectors(dims)
		assert.ErrorIs(t, err, ErrInvalidVector, "NewVectors(%d)", dims)
	}
	v, err := NewVectors(2)
	require.NoError(t, err)
	_, err = v.Append([]float32{1, 0}, []float32{1, 2, 3}, []float32{0, 1})
	require.ErrorIs(t, err, ErrInvalidVector)
	assert.EqualError(t, err, "vector 1: semantic: invalid vector: length 3, want 2")
	assert.Equal(t, 0, v.Len(), "nothing is added when one vector is invalid")

	in := []float32{3, 4}
	first, err := v.Append(in)
	require.NoError(t, err)
	assert.Equal(t, 0, first)
	in[0] = 100 // the set keeps its own copy
	first, err = v.Append([]float32{0, 1}, []float32{1, 1})
	require.NoError(t, err)
	assert.Equal(t, 1, first)
	assert.Equal(t, 3, v.Len())
	assert.Equal(t, 2, v.Dimensions())
	got, err := v.Search([]float32{3, 4}, 1, nil)
	require.NoError(t, err)
	assert.Equal(t, 0, got[0].Row)
	assert.InDelta(t, 1, got[0].Score, 1e-6)
}

// Searches run while vectors are appended: each sees a consistent prefix
// of the set (with -race: no data race between the writer and readers).
func TestSearchDuringAppend(t *testing.T) {
	for _, mode := range []searchMode{exactScan, stagedScan} {
		t.Run(mode.String(), func(t *testing.T) { testSearchDuringAppend(t, mode) })
	}
}

// testSearchDuringAppend searches, as mode says, while rows are appended
// 7 at a time (so most appends end inside a block of sign codes).
func testSearchDuringAppend(t *testing.T, mode searchMode) {
	const dims = 16
	rng := rand.New(rand.NewPCG(5, 6))
	vecs := randomVectors(rng, 2000, dims)
	v, err := NewVectors(dims)
	require.NoError(t, err)
	v.mode = mode
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; i < len(vecs); i += 7 {
			_, err := v.Append(vecs[i:min(i+7, len(vecs))]...)
			assert.NoError(t, err)
		}
	})
	for g := range 4 {
		wg.Go(func() {
			q := vecs[g]
			var buf []Neighbor
			for range 300 {
				before := v.Len()
				got, err := v.Search(q, 5, buf[:0])
				if !assert.NoError(t, err) {
					return
				}
				buf = got
				after := v.Len()
				assert.GreaterOrEqual(t, len(got), min(5, before))
				for _, nb := range got {
					assert.Less(t, nb.Row, after, "a row appended after the search")
				}
				if before > g {
					assert.Equal(t, Neighbor{Row: g, Score: got[0].Score}, got[0], "the query's own vector comes first once appended")
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, len(vecs), v.Len())
}

func TestSearchAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items at random")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	q := randomVectors(rng, 1, 256)[0]
	dst := make([]Neighbor, 0, 10)
	small := fill(256, randomVectors(rng, 1000, 256))
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := small.Search(q, 10, dst); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs, "one goroutine, room in dst: no allocation")

	// Split in 2: a few allocations, the same for 4× the rows.
	perN := map[int]float64{}
	for _, n := range []int{5000, 20000} {
		v := fill(256, randomVectors(rng, n, 256))
		v.workers, v.minWork = 2, 1000
		require.Equal(t, 2, v.parts(n))
		perN[n] = testing.AllocsPerRun(20, func() {
			if _, err := v.Search(q, 10, dst); err != nil {
				t.Fatal(err)
			}
		})
	}
	assert.Equal(t, perN[5000], perN[20000], "allocations do not grow with the number of vectors")
	assert.LessOrEqual(t, perN[20000], 8.0)
	t.Logf("allocations per split search: %v", perN)
}

// FuzzSearch builds a set from arbitrary float32 bits (invalid vectors
// are skipped) and checks Search against the full sort for every k: the
// code bound must hold for any values, not only for random ones.
func FuzzSearch(f *testing.F) {
	f.Add(uint8(3), uint8(2), []byte("\x00\x00\x80\x3f\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x3f\x00\x00\x00\x00"))
	f.Add(uint8(1), uint8(1), []byte("\x01\x00\x00\x00\x00\x00\x80\xbf\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, dims8, workers8 uint8, data []byte) {
		dims := int(dims8%40) + 1
		var vecs [][]float32
		for len(data) >= 4*dims {
			v := make([]float32, dims)
			for j := range v {
				v[j] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*j:]))
			}
			data = data[4*dims:]
			if _, err := Normalize(v, dims); err == nil {
				vecs = append(vecs, v)
			}
		}
		if len(vecs) < 2 {
			return
		}
		v := fill(dims, vecs[1:])
		v.workers, v.minWork = int(workers8%4)+1, 32
		all := fullSort(v, vecs[0], v.Len())
		for k := 1; k <= v.Len(); k++ {
			got, err := v.Search(vecs[0], k, nil)
			require.NoError(t, err)
			require.Equal(t, all[:k], got, "k=%d", k)
		}
	})
}
