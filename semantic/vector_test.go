package semantic

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func norm64(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		in   []float32
		want []float32
	}{
		{"already unit", []float32{0, 1, 0}, []float32{0, 1, 0}},
		{"3-4-5", []float32{3, 4, 0}, []float32{0.6, 0.8, 0}},
		{"negative", []float32{0, 0, -2}, []float32{0, 0, -1}},
		{"tiny elements do not underflow", []float32{1e-40, 1e-40, 0}, []float32{float32(math.Sqrt(0.5)), float32(math.Sqrt(0.5)), 0}},
		{"huge elements do not overflow", []float32{3e38, 0, 3e38}, []float32{float32(math.Sqrt(0.5)), 0, float32(math.Sqrt(0.5))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]float32(nil), tt.in...)
			got, err := Normalize(tt.in, 3)
			require.NoError(t, err)
			assert.InDeltaSlice(t, tt.want, got, 1e-7, "Normalize(%v)", tt.in)
			assert.InDelta(t, 1, norm64(got), 1e-6, "unit length")
			assert.Equal(t, in, tt.in, "the input is not modified")
		})
	}
}

func TestNormalizeErrors(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	tests := []struct {
		name string
		in   []float32
		dims int
		want string
	}{
		{"short", []float32{1, 2}, 3, "semantic: invalid vector: length 2, want 3"},
		{"long", []float32{1, 2, 3, 4}, 3, "semantic: invalid vector: length 4, want 3"},
		{"nil", nil, 3, "semantic: invalid vector: length 0, want 3"},
		{"NaN", []float32{1, nan, 3}, 3, "semantic: invalid vector: element 1 is NaN"},
		{"+Inf", []float32{1, 2, inf}, 3, "semantic: invalid vector: element 2 is +Inf"},
		{"-Inf", []float32{-inf, 2, 3}, 3, "semantic: invalid vector: element 0 is -Inf"},
		{"zero", []float32{0, 0, 0}, 3, "semantic: invalid vector: all 3 elements are zero"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.in, tt.dims)
			require.ErrorIs(t, err, ErrInvalidVector)
			assert.EqualError(t, err, tt.want)
			assert.Nil(t, got)
		})
	}
}

func TestDot(t *testing.T) {
	// Every length from 0 to 20 covers the unrolled loop and its tail.
	for n := range 21 {
		a, b := make([]float32, n), make([]float32, n)
		var want float64
		for i := range n {
			a[i], b[i] = float32(i+1), float32(2*i-7)
			want += float64(a[i]) * float64(b[i])
		}
		assert.Equal(t, float32(want), dot(a, b), "dot of length %d", n)
	}
}
