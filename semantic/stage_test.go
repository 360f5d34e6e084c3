package semantic

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// realVectors reads the recorded USE-Lite vectors of testdata/vectors (the
// demo catalog's tools and the quality sets' queries, 512 dimensions), in
// file order. The format is internal/vecpack's, which this package cannot
// import: a header line, a JSON line, then per vector a 32-byte key, a
// float32 scale and one int8 per dimension.
func realVectors(t testing.TB) [][]float32 {
	data, err := os.ReadFile("../testdata/vectors/use-lite.vecpack")
	require.NoError(t, err)
	br := bufio.NewReader(bytes.NewReader(data))
	magic, err := br.ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "toolsearch-vecpack 1\n", magic)
	line, err := br.ReadString('\n')
	require.NoError(t, err)
	var h struct{ Dimensions, Count int }
	require.NoError(t, json.Unmarshal([]byte(line), &h))
	rec := make([]byte, len(Key{})+4+h.Dimensions)
	out := make([][]float32, h.Count)
	for i := range out {
		_, err := io.ReadFull(br, rec)
		require.NoError(t, err, "vector %d", i)
		scale := math.Float32frombits(binary.LittleEndian.Uint32(rec[len(Key{}):]))
		v := make([]float32, h.Dimensions)
		for j, c := range rec[len(Key{})+4:] {
			v[j] = float32(int8(c)) * scale
		}
		out[i] = v
	}
	return out
}

// jsonlVectors reads vectors from the files named in a comma-separated
// list, in the format `toolsearch embed` writes: a header line, then
// lines {"text":…,"vector":[…]}. Texts seen before are skipped.
func jsonlVectors(t testing.TB, list string) [][]float32 {
	seen := map[string]bool{}
	var out [][]float32
	for _, name := range strings.Split(list, ",") {
		f, err := os.Open(name)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		sc.Scan() // the header
		for sc.Scan() {
			var rec struct {
				Text   string
				Vector []float32
			}
			require.NoError(t, json.Unmarshal(sc.Bytes(), &rec), "%s", name)
			if !seen[rec.Text] && len(rec.Vector) > 0 {
				seen[rec.Text] = true
				out = append(out, rec.Vector)
			}
		}
		require.NoError(t, sc.Err())
		require.NoError(t, f.Close())
	}
	return out
}

var (
	stagedN   = flag.Int("staged.n", 0, "vectors per random or clustered set in TestStagedRecall (0: 20,000, or 100,000 with TOOLSEARCH_SWEEPS=large)")
	stagedK   = flag.Int("staged.k", 10, "neighbours per query in TestStagedRecall")
	realJSONL = flag.String("vectors.jsonl", "", "comma-separated files of `toolsearch embed` output: TestStagedRecall and BenchmarkStaged also use their vectors")
)

// stagedRecall returns the share of the exact top k (the exact scan) that the
// staged search returns for the queries, and checks that every neighbour
// it returns has its exact score. It returns the mean bytes read per
// query by both searches too, and the number of queries whose staged
// top k is the exact one, neighbour for neighbour in the same order.
func stagedRecall(t testing.TB, v *Vectors, k int, queries [][]float32) (recall, stagedBytes, exactBytes float64, same int) {
	var hit, total int
	for qi, q := range queries {
		var est, sst searchStats
		exact, err := v.searchIn(q, k, nil, nil, exactScan, &est)
		require.NoError(t, err)
		staged, err := v.searchIn(q, k, nil, nil, stagedScan, &sst)
		require.NoError(t, err)
		score := map[int]float32{}
		for _, nb := range exact {
			score[nb.Row] = nb.Score
		}
		for _, nb := range staged {
			if s, ok := score[nb.Row]; ok {
				require.Equal(t, s, nb.Score, "query %d, row %d: the staged score is the exact one", qi, nb.Row)
				hit++
			} else {
				require.LessOrEqual(t, nb.Score, exact[len(exact)-1].Score, "query %d: a row not in the exact top k scores no higher than its last", qi)
			}
		}
		if slices.Equal(exact, staged) {
			same++
		}
		total += len(exact)
		stagedBytes += float64(sst.bytes(v))
		exactBytes += float64(est.bytes(v))
	}
	nq := float64(len(queries))
	return float64(hit) / float64(total), stagedBytes / nq, exactBytes / nq, same
}

// stagedBound is the least recall of the exact top 10 the staged search
// is documented to keep (Vectors.Search).
const stagedBound = 0.99

// TestStagedRecall measures what the first stage loses, on random vectors
// (the worst case for sign codes: every score close to the others),
// clustered ones, and the recorded USE-Lite vectors of real tools and
// queries. It fails when the staged search keeps less than stagedBound of
// the exact top 10; when, on the clustered and real vectors, it reads half
// the bytes of the exact scan or more, or any query's top 10 is not the
// exact scan's, neighbour for neighbour; and when, on random vectors,
// whose chunks it may scan whole, it reads more than the exact scan plus
// the sign codes. The figures in BENCHMARKS.md come from
//
//	go test -run StagedRecall -v ./semantic -args -staged.n=100000
func TestStagedRecall(t *testing.T) {
	n := *stagedN
	if n == 0 {
		n = sweepSize(20_000, 100_000)
	}
	const nq = 100
	k := *stagedK
	check := func(name string, v *Vectors, queries [][]float32) {
		r, sb, eb, same := stagedRecall(t, v, k, queries)
		t.Logf("%s, n=%d dims=%d: recall@%d %.4f, %d of %d top %d identical, bytes per query %.0f staged, %.0f exact (%.2f)",
			name, v.Len(), v.dims, k, r, same, len(queries), k, sb, eb, sb/eb)
		assert.GreaterOrEqual(t, r, stagedBound, "%s: recall of the exact top %d", name, k)
		if name == "random" {
			assert.LessOrEqual(t, sb, eb+float64(v.Len()*(v.cb+12)), "%s: the staged search reads at most the exact scan's bytes and the sign codes", name)
			return
		}
		assert.Equal(t, len(queries), same, "%s: every staged top %d is the exact one", name, k)
		if k <= 10 { // a larger k has a lower k-th score to prune against
			assert.Less(t, sb, eb/2, "%s: the staged search reads less than half the bytes", name)
		}
	}
	for _, dims := range []int{384} {
		rng := rand.New(rand.NewPCG(uint64(dims), 7))
		check("random", fill(dims, randomVectors(rng, n, dims)), randomVectors(rng, nq, dims))
		cv := clusteredVectors(rng, n+nq, dims, n/50)
		check("clustered", fill(dims, cv[:n]), cv[n:])
	}

	// The real vectors are few: each is a query against all the others,
	// copied 10 times with noise of 5% of their norm, as many tools
	// described alike would be.
	real := realVectors(t)
	dims := len(real[0])
	rng := rand.New(rand.NewPCG(3, 5))
	var set [][]float32
	for _, x := range real {
		for range 10 {
			y := make([]float32, dims)
			nx := float32(norm64(x))
			for j := range y {
				y[j] = x[j]/nx + float32(rng.NormFloat64()*0.05/math.Sqrt(float64(dims)))
			}
			set = append(set, y)
		}
	}
	var queries [][]float32
	for i := 0; i < len(real); i += len(real) / nq {
		queries = append(queries, real[i])
	}
	check("USE-Lite, 10 noisy copies", fill(dims, set), queries)
	if *realJSONL != "" {
		all := jsonlVectors(t, *realJSONL)
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		check("USE-Lite (-vectors.jsonl)", fill(len(all[0]), all[nq:]), all[:nq])
	}
}

func TestRotationIsOrthogonal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 9))
	for _, d := range []int{1, 2, 3, 64, 100, 384, 512, 768} {
		p := newRotation(d)
		a, b := randomVectors(rng, 1, d)[0], randomVectors(rng, 1, d)[0]
		pa, pb := make([]float32, d), make([]float32, d)
		p.apply(pa, a)
		p.apply(pb, b)
		var want, got float64
		for i := range a {
			want += float64(a[i]) * float64(b[i])
			got += float64(pa[i]) * float64(pb[i])
		}
		assert.InDelta(t, want, got, 1e-4*float64(d), "d=%d: P preserves dot products", d)
		assert.InDelta(t, norm64(a), norm64(pa), 1e-4*norm64(a), "d=%d: and norms", d)
	}
}

// The estimate (before its allowance) is within a few σ of the exact
// score, and its error has about the standard deviation the bound
// assumes: the property the recall of the first stage rests on.
func TestSignEstimate(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 8))
	for _, dims := range []int{64, 384, 512} {
		vecs := append(randomVectors(rng, 2000, dims), clusteredVectors(rng, 2000, dims, 20)...)
		v := fill(dims, vecs)
		m := v.view.Load()
		sq := newSignQuery(dims)
		var z2 float64
		var count, beyond int
		for qi := range 20 {
			q, err := Normalize(vecs[rng.IntN(len(vecs))], dims)
			require.NoError(t, err)
			if qi%2 == 1 {
				q, _ = Normalize(randomVectors(rng, 1, dims)[0], dims)
			}
			sq.set(v.rot, q)
			for r := range m.n {
				sm := m.smeta[r]
				allowance := sm.sigma + sq.sigma*sm.invO
				est := sq.upper(sm, rowSum(sq.lut, m.signs, r, v.cb)) - allowance
				err := float64(est - dot(q, m.floats[r*dims:(r+1)*dims]))
				z := err / float64(allowance/stageSigmas)
				z2 += z * z
				count++
				if math.Abs(z) > stageSigmas {
					beyond++
				}
			}
		}
		sd := math.Sqrt(z2 / float64(count))
		t.Logf("dims %d: error / σ has standard deviation %.3f; %.4f of errors beyond %vσ", dims, sd, float64(beyond)/float64(count), stageSigmas)
		assert.Less(t, sd, 1.1, "dims %d: σ bounds the error's spread", dims)
		assert.Less(t, float64(beyond)/float64(count), 0.03, "dims %d: errors beyond the allowance are rare", dims)
	}
}

// The table sums are Σ u_i over the bits set, whichever kernel computes
// them and wherever the rows start and end: the SIMD kernel (where the
// CPU has one) and the portable loop give the same sums as a count bit by
// bit, for partial blocks at either end and for every table entry.
func TestSignSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, dims := range []int{1, 64, 100, 384, 512, maxSignDims} {
		cb := signBytes(dims)
		const n = 3*signBlock + 5
		signs := make([]byte, signLen(n, cb))
		for i := range signs {
			signs[i] = byte(rng.Uint32())
		}
		for r := range 2 {
			for j := range cb { // rows of all ones: the largest sums
				signs[signAt(r, j, cb)] = 0xff
			}
		}
		var u [][8]byte
		lut := make([]byte, cb*signLUT)
		for j := range cb {
			var b [8]byte
			for i := range b {
				switch {
				case 8*j+i >= dims:
					b[i] = 0 // past the vector's end
				case j < 2 || dims == maxSignDims:
					b[i] = 15 // with the rows of all ones, the largest sums
				default:
					b[i] = byte(rng.IntN(16))
				}
			}
			u = append(u, b)
			fillLUT(lut[j*signLUT:(j+1)*signLUT], &b)
		}
		want := make([]uint16, n)
		for r := range want {
			for i := range 8 * cb {
				if signs[signAt(r, i/8, cb)]&(1<<(i%8)) != 0 {
					want[r] += uint16(u[i/8][i%8])
				}
			}
		}
		if dims <= 16 || dims == maxSignDims {
			require.Equal(t, uint16(15*dims), want[0], "dims %d: all ones and all 15 sum to 15·dims", dims)
		}
		for _, span := range [][2]int{{0, n}, {0, 2 * signBlock}, {7, n}, {signBlock + 3, signBlock + 9}, {5, 2*signBlock + 1}} {
			got := make([]uint16, span[1]-span[0])
			signSums(lut, signs, cb, span[0], got)
			assert.Equal(t, want[span[0]:span[1]], got, "dims %d, rows %v", dims, span)
		}
		whole := 3 * signBlock
		generic, arch := make([]uint16, whole), make([]uint16, whole)
		blockSumsGeneric(lut, signs, cb, generic)
		blockSumsArch(lut, signs, cb, arch)
		assert.Equal(t, want[:whole], generic, "dims %d: the portable kernel", dims)
		assert.Equal(t, want[:whole], arch, "dims %d: the kernel this build runs (SIMD: %v)", dims, useAVX2)
	}
}

// A row's table and byte: entry c of a nibble's table is the sum of the
// codes whose bit is set in c.
func TestFillLUT(t *testing.T) {
	u := [8]byte{1, 2, 4, 8, 3, 5, 7, 11}
	lut := make([]byte, signLUT)
	fillLUT(lut, &u)
	for c := range 16 {
		var lo, hi byte
		for i := range 4 {
			if c&(1<<i) != 0 {
				lo += u[i]
				hi += u[4+i]
			}
		}
		assert.Equal(t, lo, lut[c], "low nibble %04b", c)
		assert.Equal(t, lo, lut[16+c], "low nibble %04b, second lane", c)
		assert.Equal(t, hi, lut[32+c], "high nibble %04b", c)
		assert.Equal(t, hi, lut[48+c], "high nibble %04b, second lane", c)
	}
}

// A search reads the sign codes first from stagedMin rows on, and never
// for more than maxSignDims dimensions.
func TestStagedMode(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	const dims = 8
	v := fill(dims, randomVectors(rng, stagedMin-1, dims))
	q := randomVectors(rng, 1, dims)[0]
	var st searchStats
	_, err := v.searchIn(q, 10, nil, nil, autoScan, &st)
	require.NoError(t, err)
	assert.Zero(t, st.signs, "%d rows: exact", v.Len())
	_, err = v.Append(randomVectors(rng, 1, dims)...)
	require.NoError(t, err)
	_, err = v.searchIn(q, 10, nil, nil, autoScan, &st)
	require.NoError(t, err)
	assert.Equal(t, stagedMin, st.signs, "%d rows: staged", v.Len())
	assert.Less(t, st.codes, stagedMin, "%d rows: not every int8 code read", v.Len())
	_, err = v.Search(q, 10, nil)
	require.NoError(t, err)

	big := fill(maxSignDims+1, randomVectors(rng, 3, maxSignDims+1))
	_, err = big.searchIn(randomVectors(rng, 1, maxSignDims+1)[0], 2, nil, nil, stagedScan, &st)
	require.NoError(t, err)
	assert.Zero(t, st.signs, "%d dimensions: exact", maxSignDims+1)
	assert.False(t, staged(exactScan, 1<<20, 384), "exactScan is exact")
	assert.True(t, staged(stagedScan, 1, 384), "stagedScan is staged")
}

// Where the staged search finds the exact top k, it finds it whatever the
// rows' layout: appended in batches that end inside a block of sign codes,
// copied by appendRows, split across goroutines, or searched in part.
func TestStagedMatchesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 3))
	const dims, n = 96, 9001
	cv := clusteredVectors(rng, n+20, dims, n/50)
	v, err := NewVectors(dims)
	require.NoError(t, err)
	for i := 0; i < n; i += 777 {
		_, err := v.Append(cv[i:min(n, i+777)]...)
		require.NoError(t, err)
	}
	rows := make([]int32, 0, n)
	for r := n - 1; r >= 0; r -= 2 {
		rows = append(rows, int32(r))
	}
	copied, err := NewVectors(dims)
	require.NoError(t, err)
	copied.appendRows(v, rows)
	live := make([]int32, n)
	for r := range live {
		live[r] = int32(r%3) - 1 // every third row is left out
	}
	for name, c := range map[string]struct {
		v       *Vectors
		workers int
		live    []int32
	}{
		"appended": {v, 1, nil}, "copied": {copied, 1, nil},
		"three goroutines": {v, 3, nil}, "in part": {v, 2, live},
	} {
		c.v.workers, c.v.minWork = c.workers, 1
		for qi, q := range cv[n:] {
			for _, k := range []int{1, 10, 100} {
				exact, err := c.v.searchIn(q, k, nil, c.live, exactScan, nil)
				require.NoError(t, err)
				var st searchStats
				staged, err := c.v.searchIn(q, k, nil, c.live, stagedScan, &st)
				require.NoError(t, err)
				require.Equal(t, exact, staged, "%s, query %d, k %d", name, qi, k)
				require.Positive(t, st.signs, "%s: staged", name)
			}
		}
		c.v.workers, c.v.minWork = 0, 0
	}
}
