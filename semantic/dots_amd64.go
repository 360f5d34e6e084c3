//go:build amd64 && !purego

package semantic

// useAVX2 reports whether the CPU and OS support AVX2 (CPUID leaf 7 EBX
// bit 5, with AVX and OSXSAVE in leaf 1 ECX and the YMM state enabled in
// XCR0).
var useAVX2 = func() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 || xgetbv()&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}()

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax uint32)

// dotsInt8AVX2 writes to out[0..n) the dot products of the stride bytes
// at q with the n codes of stride bytes at codes. stride is a positive
// multiple of 32.
//
//go:noescape
func dotsInt8AVX2(q, codes *int8, stride, n int, out *int32)

func dotsInt8Arch(q, codes []int8, out []int32) {
	if useAVX2 {
		dotsInt8AVX2(&q[0], &codes[0], len(q), len(out), &out[0])
		return
	}
	dotsInt8Generic(q, codes, out)
}

// dotsInt8RowsAVX2 writes to out[i] the dot product of the stride bytes at
// q with code rows[i] of stride bytes at codes, for i in [0, n). stride is
// a positive multiple of 32.
//
//go:noescape
func dotsInt8RowsAVX2(q, codes *int8, stride int, rows *int32, n int, out *int32)

func dotsInt8RowsArch(q, codes []int8, rows, out []int32) {
	if useAVX2 {
		dotsInt8RowsAVX2(&q[0], &codes[0], len(q), &rows[0], len(out), &out[0])
		return
	}
	dotsInt8RowsGeneric(q, codes, rows, out)
}
