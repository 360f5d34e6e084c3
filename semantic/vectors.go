package semantic

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Neighbor is one vector found by [Vectors.Search].
type Neighbor struct {
	// Row is the vector's position in the set: 0 for the first vector
	// appended, 1 for the next, and so on.
	Row int
	// Score is the cosine similarity of the vector to the query, in
	// [-1, 1] (up to float32 rounding).
	Score float32
}

// Vectors is a growing set of unit vectors of one dimension:
// [Vectors.Search] returns the k vectors most similar to a query, with
// their exact scores. Below 32,768 vectors they are the same k a
// comparison with every vector would return; from 32,768 on, a search
// reads a 1-bit code of each vector first and may miss a true neighbour
// (measured: at least 99% of the exact top 10 found; see the package doc).
//
// Each vector takes about 5 bytes per dimension (1.9 KiB at 384
// dimensions, 7.5 KiB at 1536): its normalised float32 form, an int8 code
// of it, which a search scans first, scoring exactly only the vectors the
// code cannot rule out, and a sign code of dims/8 bytes rounded up to a
// multiple of 8, plus 12 (see the package doc).
//
// A Vectors is safe for concurrent use: searches never wait for
// [Vectors.Append] and see the vectors appended before they started. Create
// one with [NewVectors].
type Vectors struct {
	dims, stride int
	cb           int        // bytes of a sign code
	rot          *rotation  // of the sign codes
	mu           sync.Mutex // serialises Append
	view         atomic.Pointer[matrix]
	scratch      sync.Pool // of *scan, reused by searches

	// Tests set these: the most goroutines a search is split across
	// (0 = GOMAXPROCS), the code bytes per goroutine (0 = parallelMin),
	// and how a search is run (0 = chosen by size; see stage.go).
	workers, minWork int
	mode             searchMode
}

// matrix is what a search reads: rows [0, n), which never change once
// published (Append writes only beyond them, or into new arrays).
type matrix struct {
	n      int
	floats []float32 // row r is floats[r*dims : (r+1)*dims], unit length
	codes  []int8    // row r is codes[r*stride : (r+1)*stride]
	meta   []rowMeta
	signs  []byte // the sign codes, blocked (see signsums.go)
	smeta  []signMeta
}

// rowMeta is what the bound of a row needs (see quantize.go).
type rowMeta struct {
	scale float32 // s: the code's scale
	l1    float32 // ‖s·c‖₁
}

// parallelMin is the number of code bytes (rows × dimensions) below
// which a search runs on the calling goroutine only: a scan of 2 MiB
// takes about 100 µs, against a few µs to start goroutines.
const parallelMin = 2 << 20

// block is the number of rows whose code scores are computed at once.
const block = 256

// NewVectors returns an empty set of vectors of length dims, which must be
// between 1 and 65536.
func NewVectors(dims int) (*Vectors, error) {
	if dims <= 0 || dims > maxDims {
		return nil, fmt.Errorf("%w: dimension %d is not between 1 and %d", ErrInvalidVector, dims, maxDims)
	}
	v := &Vectors{dims: dims, stride: codeStride(dims), cb: signBytes(dims), rot: newRotation(dims)}
	v.view.Store(&matrix{})
	return v, nil
}

// Dimensions returns the length of the vectors.
func (v *Vectors) Dimensions() int { return v.dims }

// Len returns the number of vectors.
func (v *Vectors) Len() int { return v.view.Load().n }

// Append normalises vecs (see [Normalize]) and adds them after the vectors
// already in the set, and returns the row of the first. If any vector is
// invalid, none is added and the error names its index in vecs. The
// slices are copied.
func (v *Vectors) Append(vecs ...[]float32) (first int, err error) {
	norms := make([]float64, len(vecs))
	for i, x := range vecs {
		if norms[i], err = check(x, v.dims); err != nil {
			return 0, fmt.Errorf("vector %d: %w", i, err)
		}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	cur := v.view.Load()
	first = cur.n
	n := first + len(vecs)
	next := &matrix{
		n:      n,
		floats: extend(cur.floats, first*v.dims, n*v.dims),
		codes:  extend(cur.codes, first*v.stride, n*v.stride),
		meta:   extend(cur.meta, first, n),
		signs:  extend(cur.signs, signLen(first, v.cb), signLen(n, v.cb)),
		smeta:  extend(cur.smeta, first, n),
	}
	rot := make([]float32, v.dims)
	for i, x := range vecs {
		r := first + i
		f := next.floats[r*v.dims : (r+1)*v.dims]
		scale(f, x, norms[i])
		m := &next.meta[r]
		m.scale, m.l1 = encode(f, next.codes[r*v.stride:(r+1)*v.stride])
		next.smeta[r] = encodeSign(v.rot, f, rot, next.signs, r, v.cb)
	}
	v.view.Store(next)
	return first, nil
}

// appendRows adds rows of src, a Vectors of the same dimension, after
// the vectors in v, as they are (not normalised again), and returns the
// row of the first.
func (v *Vectors) appendRows(src *Vectors, rows []int32) int {
	sm := src.view.Load()
	v.mu.Lock()
	defer v.mu.Unlock()
	cur := v.view.Load()
	first := cur.n
	n := first + len(rows)
	next := &matrix{
		n:      n,
		floats: extend(cur.floats, first*v.dims, n*v.dims),
		codes:  extend(cur.codes, first*v.stride, n*v.stride),
		meta:   extend(cur.meta, first, n),
		signs:  extend(cur.signs, signLen(first, v.cb), signLen(n, v.cb)),
		smeta:  extend(cur.smeta, first, n),
	}
	for i, r := range rows {
		to, from := first+i, int(r)
		copy(next.floats[to*v.dims:(to+1)*v.dims], sm.floats[from*v.dims:(from+1)*v.dims])
		copy(next.codes[to*v.stride:(to+1)*v.stride], sm.codes[from*v.stride:(from+1)*v.stride])
		next.meta[to] = sm.meta[from]
		for j := range v.cb {
			next.signs[signAt(to, j, v.cb)] = sm.signs[signAt(from, j, v.cb)]
		}
		next.smeta[to] = sm.smeta[from]
	}
	v.view.Store(next)
	return first
}

// extend returns s[:used] grown to length n: in place when s has the
// capacity (readers never look past used), else in a new array.
func extend[T any](s []T, used, n int) []T {
	return slices.Grow(s[:used], n-used)[:n]
}

// Search appends the k vectors most similar to query to dst, best first:
// by cosine similarity, highest first, equal scores in row order. Below
// 32,768 vectors they are exactly the k most similar; from 32,768 on, a
// true neighbour can be missed (see [Vectors]). Fewer than k are appended when the set holds fewer. query
// need not be normalised; it must be valid (see [Normalize]). k ≤ 0
// appends nothing.
//
// Search does not allocate when dst has room for k more neighbours and the
// scan is small enough to run on one goroutine; a larger scan is split
// across GOMAXPROCS goroutines and allocates about k neighbours per
// goroutine. Memory use never grows with the number of vectors. Time is
// linear in Len × Dimensions: see BenchmarkSearch and BenchmarkStaged.
func (v *Vectors) Search(query []float32, k int, dst []Neighbor) ([]Neighbor, error) {
	return v.search(query, k, dst, nil)
}

// search is Search over the rows r with live[r] ≥ 0 (r < len(live)), or
// over every row when live is nil.
func (v *Vectors) search(query []float32, k int, dst []Neighbor, live []int32) ([]Neighbor, error) {
	return v.searchIn(query, k, dst, live, v.mode, nil)
}

// searchIn is search run as mode says, counting what it reads into st
// when st is not nil.
func (v *Vectors) searchIn(query []float32, k int, dst []Neighbor, live []int32, mode searchMode, st *searchStats) ([]Neighbor, error) {
	norm, err := check(query, v.dims)
	if err != nil {
		return dst, fmt.Errorf("query: %w", err)
	}
	m := v.view.Load()
	k = min(k, m.n)
	if k <= 0 {
		return dst, nil
	}
	s, _ := v.scratch.Get().(*scan)
	if s == nil {
		s = &scan{q: make([]float32, v.dims), q8: make([]int8, v.stride), dims: v.dims, stride: v.stride, cb: v.cb, margin: margin(v.dims)}
	}
	defer func() {
		s.m, s.live = nil, nil // the pool must not keep an old matrix alive
		v.scratch.Put(s)
	}()
	s.m, s.live = m, live
	scale(s.q, query, norm)
	s.qs, _ = encode(s.q, s.q8)
	var ql1 float64
	for _, x := range s.q {
		ql1 += math.Abs(float64(x))
	}
	s.qhalf, s.ql1half = s.qs/2, float32(ql1/2)
	s.staged = staged(mode, m.n, v.dims)
	if s.staged {
		if s.sq == nil {
			s.sq = newSignQuery(v.dims)
		}
		s.sq.set(v.rot, s.q)
	}

	base := len(dst)
	dst = slices.Grow(dst, k)
	h := topK{items: dst[base : base : base+k]}
	var got searchStats
	if parts := v.parts(m.n); parts <= 1 {
		got = s.run(&h, 0, m.n)
	} else {
		got = s.parallel(&h, parts)
	}
	if st != nil {
		*st = got
	}
	return dst[:base+len(h.sorted())], nil
}

// parts returns how many goroutines a scan of n rows is split across.
func (v *Vectors) parts(n int) int {
	w := v.workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return max(1, min(w, n*v.stride/cmp.Or(v.minWork, parallelMin)))
}

// scan is one search's query against one matrix; its slices are reused
// by later searches.
type scan struct {
	q       []float32 // the unit query
	q8      []int8    // its code
	qs      float32   // its code's scale
	qhalf   float32   // qs/2
	ql1half float32   // ‖q‖₁/2
	margin  float32
	m       *matrix
	live    []int32 // nil, or the rows searched: those with live[r] ≥ 0
	dims    int
	stride  int
	cb      int        // bytes of a sign code
	staged  bool       // with the sign code first (stage.go)
	sq      *signQuery // the query's side of the sign codes, when staged
}

// run offers rows [lo, hi) to h, staged or not, and returns what it read.
func (s *scan) run(h *topK, lo, hi int) searchStats {
	if s.staged {
		return s.runStaged(h, lo, hi)
	}
	return s.runExact(h, lo, hi)
}

// runExact offers rows [lo, hi) to h: the code score of every row, and the
// exact score of the rows whose code score plus its bound beats h's worst
// (see quantize.go). Rows come in increasing order, after any h holds, so
// a row whose exact score only equals h's worst ranks below it and is
// rightly skipped.
func (s *scan) runExact(h *topK, lo, hi int) searchStats {
	st := searchStats{codes: hi - lo}
	k := cap(h.items)
	floor := float32(math.Inf(-1))
	if len(h.items) == k {
		floor = h.items[0].Score
	}
	var out [block]int32
	for b := lo; b < hi; b += block {
		n := min(block, hi-b)
		dotsInt8(s.q8, s.m.codes[b*s.stride:(b+n)*s.stride], out[:n])
		meta := s.m.meta[b : b+n]
		for i, d := range out[:n] {
			mr := meta[i]
			upper := s.qs*mr.scale*float32(d) + mr.scale*s.ql1half + mr.l1*s.qhalf + s.margin
			if upper <= floor {
				continue
			}
			r := b + i
			if s.live != nil && (r >= len(s.live) || s.live[r] < 0) {
				continue
			}
			st.floats++
			score := dot(s.q, s.m.floats[r*s.dims:(r+1)*s.dims])
			if len(h.items) < k {
				h.push(Neighbor{Row: r, Score: score})
			} else if score > floor {
				h.items[0] = Neighbor{Row: r, Score: score}
				h.down(0)
			} else {
				continue
			}
			if len(h.items) == k {
				floor = h.items[0].Score
			}
		}
	}
	return st
}

// parallel scans the rows in parts contiguous ranges, each into its own
// top k, merges them into h and returns what they read.
func (s *scan) parallel(h *topK, parts int) searchStats {
	k := cap(h.items)
	buf := make([]Neighbor, parts*k)
	heaps := make([]topK, parts)
	stats := make([]searchStats, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := s.m.n*p/parts, s.m.n*(p+1)/parts
		heaps[p] = topK{items: buf[p*k : p*k : (p+1)*k]}
		wg.Go(func() { stats[p] = s.run(&heaps[p], lo, hi) })
	}
	wg.Wait()
	var st searchStats
	for p := range heaps {
		st.add(stats[p])
		for _, nb := range heaps[p].items {
			h.offer(nb)
		}
	}
	return st
}

// topK keeps the best cap(items) neighbours offered to it, in a min-heap
// whose root is the worst kept: lowest score, and of equal scores the
// highest row.
type topK struct {
	items []Neighbor
}

// worse reports whether a ranks below b.
func worse(a, b Neighbor) bool {
	return a.Score < b.Score || (a.Score == b.Score && a.Row > b.Row)
}

// offer adds nb if the heap has room or nb ranks above its root.
func (h *topK) offer(nb Neighbor) {
	if len(h.items) < cap(h.items) {
		h.push(nb)
		return
	}
	if worse(h.items[0], nb) {
		h.items[0] = nb
		h.down(0)
	}
}

func (h *topK) push(nb Neighbor) {
	h.items = append(h.items, nb)
	i := len(h.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !worse(h.items[i], h.items[p]) {
			break
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *topK) down(i int) {
	n := len(h.items)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && worse(h.items[c+1], h.items[c]) {
			c++
		}
		if !worse(h.items[c], h.items[i]) {
			return
		}
		h.items[i], h.items[c] = h.items[c], h.items[i]
		i = c
	}
}

// sorted returns the kept neighbours best first.
func (h *topK) sorted() []Neighbor {
	slices.SortFunc(h.items, func(a, b Neighbor) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	return h.items
}
