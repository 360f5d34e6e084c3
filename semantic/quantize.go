package semantic

import "math"

// Vectors stores each vector twice: the normalised float32 vector, which
// gives the exact scores, and an int8 code of it, which a search scans
// first (a quarter of the bytes to read; the scan is limited by memory
// bandwidth). The code of a unit vector v is c = round(v / s) with the
// scale s = max|v_i| / 127, so |v_i − s·c_i| ≤ s/2.
//
// For a unit query q with code c_q and scale s_q, the code score
// a = s_q·s·(c_q·c) differs from q·v by at most
//
//	|q·(v − s·c)| + |(q − s_q·c_q)·(s·c)| ≤ (s/2)·‖q‖₁ + (s_q/2)·‖s·c‖₁
//
// which is the bound a search uses: a row whose code score plus its bound
// cannot beat the k-th exact score found so far is skipped, any other row
// is scored exactly. The top k is therefore exact, not approximate.

// codeStride returns the length of a code of a dims-long vector: dims
// rounded up to a multiple of 32, the zero-padded block the scan kernels
// read at a time.
func codeStride(dims int) int { return (dims + 31) &^ 31 }

// maxDims bounds the dimension so that a code dot product (at most
// dims·127² in magnitude) fits in an int32.
const maxDims = 1 << 16

// encode writes the code of the unit vector v to c (zero-padded to its
// length) and returns its scale and the L1 norm of s·c.
func encode(v []float32, c []int8) (scale, l1 float32) {
	var m float64
	for _, x := range v {
		m = max(m, math.Abs(float64(x)))
	}
	s := m / 127
	var sum float64
	for i, x := range v {
		q := math.Round(float64(x) / s)
		c[i] = int8(q)
		sum += math.Abs(q)
	}
	clear(c[len(v):])
	return float32(s), float32(sum * s)
}

// margin is added to every bound to cover float32 rounding: of the exact
// dot product (eight accumulators of dims/8 terms each, at most about
// (dims/8 + 3) units of 2⁻²⁴ for unit vectors) and of the code score
// (a few units), doubled for safety.
func margin(dims int) float32 {
	return float32(dims/8+16) * 0x1p-23
}

// dotInt8 returns the dot product of two codes of equal length.
func dotInt8(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	n := len(a) &^ 7
	for i := 0; i < n; i += 8 {
		x := a[i : i+8 : i+8]
		y := b[i : i+8 : i+8]
		s0 += int32(x[0])*int32(y[0]) + int32(x[4])*int32(y[4])
		s1 += int32(x[1])*int32(y[1]) + int32(x[5])*int32(y[5])
		s2 += int32(x[2])*int32(y[2]) + int32(x[6])*int32(y[6])
		s3 += int32(x[3])*int32(y[3]) + int32(x[7])*int32(y[7])
	}
	for i := n; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}

// dotsInt8Generic writes to out[i] the dot product of q with the i-th
// code of len(q) bytes in codes.
func dotsInt8Generic(q, codes []int8, out []int32) {
	stride := len(q)
	for i := range out {
		out[i] = dotInt8(q, codes[i*stride:(i+1)*stride])
	}
}

// dotsInt8RowsGeneric writes to out[i] the dot product of q with code
// rows[i] of codes.
func dotsInt8RowsGeneric(q, codes []int8, rows, out []int32) {
	stride := len(q)
	for i, r := range rows[:len(out)] {
		out[i] = dotInt8(q, codes[int(r)*stride:(int(r)+1)*stride])
	}
}

// dotsInt8Rows is dotsInt8RowsGeneric, run by a SIMD kernel where there
// is one. len(q) must be a positive multiple of 32, rows must hold
// len(out) rows of codes: the callers in this package guarantee it.
func dotsInt8Rows(q, codes []int8, rows, out []int32) {
	if len(q) == 0 || len(q)%32 != 0 || len(rows) < len(out) {
		panic("semantic: internal error: dotsInt8Rows called with mismatched lengths")
	}
	for _, r := range rows[:len(out)] {
		if r < 0 || (int(r)+1)*len(q) > len(codes) {
			panic("semantic: internal error: dotsInt8Rows called with a row out of range")
		}
	}
	if len(out) == 0 {
		return
	}
	dotsInt8RowsArch(q, codes, rows, out)
}

// dotsInt8 is dotsInt8Generic, run by a SIMD kernel where there is one.
// len(q) must be a positive multiple of 32 and codes must hold len(out)
// codes: the callers in this package guarantee it.
func dotsInt8(q, codes []int8, out []int32) {
	if len(q) == 0 || len(q)%32 != 0 || len(codes) < len(out)*len(q) {
		panic("semantic: internal error: dotsInt8 called with mismatched lengths")
	}
	if len(out) == 0 {
		return
	}
	dotsInt8Arch(q, codes, out)
}
