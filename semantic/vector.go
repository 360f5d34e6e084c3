package semantic

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalidVector is returned (wrapped, with what was wrong) for a vector
// of the wrong length, with a NaN or infinite element, or with every
// element zero.
var ErrInvalidVector = errors.New("semantic: invalid vector")

// Normalize returns a copy of v scaled to unit length, the form every
// vector in this package is compared in (the dot product of two unit
// vectors is their cosine similarity). It returns an error wrapping
// [ErrInvalidVector] if len(v) is not dims, if an element is NaN or
// infinite, or if every element is zero. v is not modified.
func Normalize(v []float32, dims int) ([]float32, error) {
	norm, err := check(v, dims)
	if err != nil {
		return nil, err
	}
	out := make([]float32, len(v))
	scale(out, v, norm)
	return out, nil
}

// check validates v and returns its Euclidean norm, computed in float64 so
// that neither tiny nor huge elements underflow or overflow.
func check(v []float32, dims int) (float64, error) {
	if len(v) != dims {
		return 0, fmt.Errorf("%w: length %d, want %d", ErrInvalidVector, len(v), dims)
	}
	var sum float64
	for i, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("%w: element %d is %v", ErrInvalidVector, i, x)
		}
		sum += f * f
	}
	if sum == 0 {
		return 0, fmt.Errorf("%w: all %d elements are zero", ErrInvalidVector, len(v))
	}
	return math.Sqrt(sum), nil
}

// scale writes src/norm to dst.
func scale(dst, src []float32, norm float64) {
	inv := 1 / norm
	for i, x := range src {
		dst[i] = float32(float64(x) * inv)
	}
}

// dot returns the dot product of a and b, which have the same length. Eight
// independent accumulators let the CPU overlap the additions; the compiler
// does not vectorise this loop.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	n := len(a) &^ 7
	for i := 0; i < n; i += 8 {
		x := a[i : i+8 : i+8]
		y := b[i : i+8 : i+8]
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
		s4 += x[4] * y[4]
		s5 += x[5] * y[5]
		s6 += x[6] * y[6]
		s7 += x[7] * y[7]
	}
	for i := n; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}
