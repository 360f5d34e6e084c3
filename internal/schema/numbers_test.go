package schema

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNumberProblem(t *testing.T) {
	for _, tc := range []struct {
		n, want string
	}{
		{"0", ""},
		{"-12.5", ""},
		{"1e308", ""},
		{"1.7976931348623157e308", ""},
		{"5e-324", ""},
		{"1E+400", ""},
		{"1e-400", ""},
		{"1e0000000000000000000000000400", ""},
		{strings.Repeat("9", 78), ""}, // a 256-bit integer
		{strings.Repeat("9", 100), ""},
		{"1e401", "has an exponent beyond ±400"},
		{"1e-401", "has an exponent beyond ±400"},
		{"1e1000001", "has an exponent beyond ±400"},
		{"1e99999999999999999999", "has an exponent beyond ±400"},
		{strings.Repeat("9", 101), "has 101 digits, more than 100"},
		{"0." + strings.Repeat("0", 100) + "1", "has 102 digits, more than 100"},
	} {
		assert.Equal(t, tc.want, NumberProblem(tc.n), "NumberProblem(%.40s)", tc.n)
	}
}
