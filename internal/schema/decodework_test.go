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

// FuzzDecodeWork: for any arguments that decode, DecodeWork charges at
// least every value and member decoded, and every byte.
func FuzzDecodeWork(f *testing.F) {
	for _, seed := range []string{`{"a":[1,2,{"b":"c,d:["}]}`, `[{},[],"\"[,:"]`, `  [ 1 , 2 ]  `, `"x"`, `{"k":[[[[]]]]}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		v, _, err := DecodeArgs(args)
		if err != nil {
			return
		}
		var values, members int
		var count func(v any)
		count = func(v any) {
			values++
			switch v := v.(type) {
			case map[string]any:
				members += len(v)
				for _, x := range v {
					count(x)
				}
			case []any:
				for _, x := range v {
					count(x)
				}
			}
		}
		count(v)
		least := workDecodeValue*values + workDecodeMember*members + len(args)
		if got := DecodeWork(args); got < least {
			t.Fatalf("DecodeWork(%q) = %d, less than %d (%d values, %d members)", args, got, least, values, members)
		}
	})
}
