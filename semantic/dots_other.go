//go:build !amd64 || purego

package semantic

// useAVX2 is false: this build has no SIMD kernel.
const useAVX2 = false

func dotsInt8Arch(q, codes []int8, out []int32) { dotsInt8Generic(q, codes, out) }

func dotsInt8RowsArch(q, codes []int8, rows, out []int32) { dotsInt8RowsGeneric(q, codes, rows, out) }
