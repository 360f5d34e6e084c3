package semantic

import "math"

// searchMode says how a search is run.
type searchMode uint8

const (
	exactScan  searchMode = iota // the int8 code of every row, exact scores where it cannot rule a row out
	stagedScan                   // the sign code of every row first (signcode.go)
)

// staged reports whether a search in mode reads the sign codes first.
// Searches through Search and the strategy are exact: the staged scan
// reads a fifth to a tenth of the bytes at 100,000 rows and more, but its
// portable popcount kernel costs more instructions per row than the AVX2
// int8 scan saves in memory traffic on the machines measured (see
// BenchmarkStaged), so no size is yet chosen for it.
func staged(mode searchMode) bool { return mode == stagedScan }

// searchStats counts the rows a search read in each form: its bytes read
// are signs·(8·words+12) + codes·(stride+8) + floats·4·dims.
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
	return st.signs*(8*v.words+12) + st.codes*(v.stride+8) + st.floats*4*v.dims
}

// runStaged offers rows [lo, hi) to h in three steps per row, each read
// only when the one before cannot rule the row out against h's worst
// exact score: the sign code's estimate plus its allowance (signcode.go),
// the int8 code's score plus its proven bound (quantize.go), and the exact
// score.

func (s *scan) runStaged(h *topK, lo, hi int) searchStats {
	st := searchStats{signs: hi - lo}
	k := cap(h.items)
	floor := float32(math.Inf(-1))
	words := len(s.sq.planes) / 4
	var out [block]int32
	var d [1]int32
	for b := lo; b < hi; b += block {
		n := min(block, hi-b)
		signSums(s.sq.planes, s.m.signs[b*words:(b+n)*words], out[:n])
		smeta := s.m.smeta[b : b+n]
		for i, ps := range out[:n] {
			if s.sq.upper(smeta[i], ps) <= floor {
				continue
			}
			r := b + i
			if !s.isLive(r) {
				continue
			}
			st.codes++
			mr := s.m.meta[r]
			dotsInt8(s.q8, s.m.codes[r*s.stride:(r+1)*s.stride], d[:])
			if s.qs*mr.scale*float32(d[0])+mr.scale*s.ql1half+mr.l1*s.qhalf+s.margin <= floor {
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

// isLive reports whether row r is searched.
func (s *scan) isLive(r int) bool {
	return s.live == nil || (r < len(s.live) && s.live[r] >= 0)
}

// String names the mode, for benchmarks.
func (m searchMode) String() string {
	if m == exactScan {
		return "exact"
	}
	return "staged"
}
