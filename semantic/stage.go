package semantic

import (
	"cmp"
	"math"
	"slices"
)

// searchMode says how a search is run.
type searchMode uint8

const (
	autoScan   searchMode = iota // staged from stagedMin rows on, exact below
	exactScan                    // the int8 code of every row, exact scores where it cannot rule a row out
	stagedScan                   // the sign code of every row first (signcode.go)
)

// stagedMin is the number of rows from which a search reads the sign
// codes first. Below it the exact scan is as fast or faster: it has no
// first stage to pay for, and a small set's k-th best score, which the
// first stage prunes against, is found late relative to the rows read
// (see BenchmarkStaged).
const stagedMin = 32_768

// staged reports whether a search in mode over n rows of dims dimensions
// reads the sign codes first.
func staged(mode searchMode, n, dims int) bool {
	if dims > maxSignDims {
		return false
	}
	switch mode {
	case exactScan:
		return false
	case stagedScan:
		return true
	}
	return n >= stagedMin
}

// searchStats counts the rows a search read in each form: its bytes read
// are signs·(cb+12) + codes·(stride+8) + floats·4·dims.
type searchStats struct {
	signs, codes, floats int
}

func (st *searchStats) add(o searchStats) {
	st.signs += o.signs
	st.codes += o.codes
	st.floats += o.floats
}

// bytes returns the bytes of vectors and their meta that st read, for a
// set of v's dimension.
func (st searchStats) bytes(v *Vectors) int {
	return st.signs*(v.cb+12) + st.codes*(v.stride+8) + st.floats*4*v.dims
}

// stagedChunk is the number of rows whose sign estimates are computed
// before any of them is scored further.
const stagedChunk = 2048

// stagedDense says when a chunk is scanned whole: when more than one row
// in stagedDense is a candidate, reading every int8 code of the chunk in
// order costs less than reading the candidates' codes at random.
const stagedDense = 8

// stagedBatch is the number of candidates whose int8 codes are read at
// once: the kernel fetches the next rows' codes while it scores one.
const stagedBatch = 8

// candidate is a row that the sign estimate could not rule out, with
// its estimate plus allowance.
type candidate struct {
	upper float32
	row   int32
}

// runStaged offers rows [lo, hi) to h, a chunk of rows at a time. It
// computes the sign code's estimate plus its allowance of every row of
// the chunk (signcode.go). When h is full and more than one row in
// stagedDense could beat its worst score by that, it scans the chunk as
// runExact does. Else, for each row that the estimate cannot rule out
// against h's worst exact score, in batches, it reads the int8 code's
// score plus its proven bound (quantize.go), and, when that cannot rule
// the row out either, its exact score. Until h is full, the rows go best
// estimate first, so that a high worst score is found early. Rows of a
// chunk may so arrive out of order: h's order of equal scores (lower row
// first) is kept by ruling a row out only below the worst score, and by
// offer.
func (s *scan) runStaged(h *topK, lo, hi int) searchStats {
	st := searchStats{signs: hi - lo}
	k := cap(h.items)
	floor := float32(math.Inf(-1))
	var sums [stagedChunk]uint16
	var cands [stagedChunk]candidate
	var rows, d [stagedBatch]int32
	for b := lo; b < hi; {
		e := min(hi, b/signBlock*signBlock+stagedChunk) // chunks end on a block
		signSums(s.sq.lut, s.m.signs, s.cb, b, sums[:e-b])
		smeta := s.m.smeta[b:e:e]
		c := cands[:0]
		for i, ps := range sums[:e-b] {
			if u := s.sq.upper(smeta[i], ps); u >= floor {
				c = append(c, candidate{upper: u, row: int32(b + i)})
			}
		}
		if len(h.items) == k && len(c)*stagedDense > e-b {
			st.add(s.runExact(h, b, e))
			if len(h.items) == k {
				floor = h.items[0].Score
			}
			b = e
			continue
		}
		if len(h.items) < k {
			slices.SortFunc(c, func(x, y candidate) int { return cmp.Compare(y.upper, x.upper) })
		}
		for j := 0; j < len(c); {
			nb := 0
			for ; j < len(c) && nb < stagedBatch; j++ {
				if c[j].upper >= floor && s.isLive(int(c[j].row)) {
					rows[nb] = c[j].row
					nb++
				}
			}
			dotsInt8Rows(s.q8, s.m.codes, rows[:nb], d[:nb])
			st.codes += nb
			for i, r32 := range rows[:nb] {
				r := int(r32)
				mr := s.m.meta[r]
				if s.qs*mr.scale*float32(d[i])+mr.scale*s.ql1half+mr.l1*s.qhalf+s.margin < floor {
					continue
				}
				st.floats++
				h.offer(Neighbor{Row: r, Score: dot(s.q, s.m.floats[r*s.dims:(r+1)*s.dims])})
				if len(h.items) == k {
					floor = h.items[0].Score
				}
			}
		}
		b = e
	}
	return st
}

// isLive reports whether row r is searched.
func (s *scan) isLive(r int) bool {
	return s.live == nil || (r < len(s.live) && s.live[r] >= 0)
}

// String names the mode, for benchmarks.
func (m searchMode) String() string {
	switch m {
	case exactScan:
		return "exact"
	case stagedScan:
		return "staged"
	}
	return "auto"
}
