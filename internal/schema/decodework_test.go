package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDecodeWork: every value and member outside strings is counted,
// nothing inside one (escaped quotes included), and every byte.
func TestDecodeWork(t *testing.T) {
	for _, tc := range []struct {
		args            string
		values, members int
	}{
		{``, 1, 0},
		{`1`, 1, 0},
		{`[1,2,3]`, 4, 0},
		{`{"a":1,"b":[]}`, 5, 2}, // an empty array counts one value too many
		{`[{},{},{}]`, 4, 0},
		{`{"a,b:[c":"x\",y:[z"}`, 2, 1},
		{`"unterminated,[:`, 1, 0},
	} {
		want := workDecodeValue*tc.values + workDecodeMember*tc.members + len(tc.args)
		assert.Equal(t, want, DecodeWork([]byte(tc.args)), "DecodeWork(%s)", tc.args)
	}
}
