//go:build !amd64 || purego

package semantic

func blockSumsArch(lut, signs []byte, cb int, out []uint16) { blockSumsGeneric(lut, signs, cb, out) }
