//go:build amd64 && !purego

package semantic

// blockSumsAVX2 writes to out the table sums of the blocks whole blocks
// of sign codes of cb bytes at signs, with the tables at lut (see
// signsums.go). cb is a positive multiple of 2 and at most maxSignDims/8.
//
//go:noescape
func blockSumsAVX2(lut, signs *byte, cb, blocks int, out *uint16)

func blockSumsArch(lut, signs []byte, cb int, out []uint16) {
	if useAVX2 {
		blockSumsAVX2(&lut[0], &signs[0], cb, len(out)/signBlock, &out[0])
		return
	}
	blockSumsGeneric(lut, signs, cb, out)
}
