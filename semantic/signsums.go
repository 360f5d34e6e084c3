package semantic

// The first stage's kernel computes, for each row, ps = Σ u_i over the
// dimensions i whose bit is set in the row's sign code, u the 4-bit code
// of the rotated query (signcode.go). It reads each code byte as two
// nibbles of 4 dimensions and looks each nibble up in a 16-entry table of
// the query: entry c of the table of dimensions 4t..4t+3 is the sum of the
// u_i whose bit is set in c. An entry is at most 60, a byte's two entries
// at most 120, and two bytes' at most 240: byte arithmetic for pairs of
// byte positions, 16-bit sums beyond (exact up to maxSignDims).
//
// So that one SIMD table lookup serves 32 rows at once, the codes are
// stored in blocks of signBlock rows, byte position by byte position:
// byte j of row r is at signAt(r, j, cb). Append writes rows at the end
// of the last block, which a search may be reading; the kernel reads
// only whole blocks below the rows a search sees, and the rows of a
// partial block are read one by one (rowSum), each only its own bytes.

// signBlock is the number of rows whose codes are interleaved.
const signBlock = 32

// signLUT is the bytes of one byte position's tables: the table of its
// low nibble twice (one copy per 128-bit lane of the kernel), then the
// table of its high nibble twice.
const signLUT = 64

// maxSignDims is the most dimensions whose table sums fit 16 bits
// (15 per dimension); larger sets are searched exactly.
const maxSignDims = 4096

// signAt returns where byte j of row r's sign code of cb bytes is.
func signAt(r, j, cb int) int {
	return (r/signBlock*cb+j)*signBlock + r%signBlock
}

// signLen returns the bytes of the blocked sign codes of n rows.
func signLen(n, cb int) int {
	return (n + signBlock - 1) / signBlock * signBlock * cb
}

// fillLUT writes the tables of one byte position whose 8 dimensions have
// the query codes u (0 beyond the vector's end).
func fillLUT(dst []byte, u *[8]byte) {
	for half := range 2 {
		t := dst[32*half : 32*half+16]
		t[0] = 0
		for c := 1; c < 16; c++ {
			low := c & -c // the lowest bit set
			i := 0
			for 1<<i != low {
				i++
			}
			t[c] = t[c&^low] + u[4*half+i]
		}
		copy(dst[32*half+16:32*half+32], t)
	}
}

// rowSum returns the table sum of row r, reading only its own bytes.
func rowSum(lut, signs []byte, r, cb int) uint16 {
	var s uint16
	for j := range cb {
		c := signs[signAt(r, j, cb)]
		t := lut[j*signLUT : (j+1)*signLUT : (j+1)*signLUT]
		s += uint16(t[c&15]) + uint16(t[32+c>>4])
	}
	return s
}

// blockSumsGeneric writes to out the table sums of the len(out)/signBlock
// whole blocks of codes of cb bytes in signs.
func blockSumsGeneric(lut, signs []byte, cb int, out []uint16) {
	for b := range len(out) / signBlock {
		blk := signs[b*signBlock*cb : (b+1)*signBlock*cb]
		o := out[b*signBlock : (b+1)*signBlock : (b+1)*signBlock]
		clear(o)
		for j := range cb {
			t := lut[j*signLUT : (j+1)*signLUT : (j+1)*signLUT]
			for i, c := range blk[j*signBlock : (j+1)*signBlock] {
				o[i] += uint16(t[c&15]) + uint16(t[32+c>>4])
			}
		}
	}
}

// signSums writes to out[i] the table sum of row lo+i, for the rows
// [lo, lo+len(out)) of the blocked codes signs of cb bytes; every row of
// a whole block in that range must be published (below the matrix's n).
func signSums(lut, signs []byte, cb, lo int, out []uint16) {
	hi := lo + len(out)
	first := min(hi, (lo+signBlock-1)/signBlock*signBlock) // the first whole block
	last := max(first, hi/signBlock*signBlock)             // the end of the last
	for r := lo; r < first; r++ {
		out[r-lo] = rowSum(lut, signs, r, cb)
	}
	if last > first {
		blocks := signs[first*cb : last*cb]
		blockSums(lut, blocks, cb, out[first-lo:last-lo])
	}
	for r := last; r < hi; r++ {
		out[r-lo] = rowSum(lut, signs, r, cb)
	}
}

// blockSums is blockSumsGeneric, run by a SIMD kernel where there is one.
// cb must be a positive multiple of 8 (see signBytes).
func blockSums(lut, signs []byte, cb int, out []uint16) {
	blocks := len(out) / signBlock
	if cb <= 0 || cb%8 != 0 || len(lut) < cb*signLUT || len(signs) < blocks*signBlock*cb || len(out) != blocks*signBlock {
		panic("semantic: internal error: blockSums called with mismatched lengths")
	}
	if blocks == 0 {
		return
	}
	blockSumsArch(lut, signs, cb, out)
}
