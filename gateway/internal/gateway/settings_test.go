package gateway

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// negativeMeansDefault sets each number and duration of a T, one at a
// time, to -1: fill must resolve it to the same value as a zero field. It
// returns how many fields it set, so that the caller sees a field added
// later counted.
func negativeMeansDefault[T any](t *testing.T, fill func(*T)) int {
	t.Helper()
	var def T
	fill(&def)
	typ := reflect.TypeFor[T]()
	n := 0
	for i := range typ.NumField() {
		f := typ.Field(i)
		var set func(reflect.Value)
		switch f.Type.Kind() {
		case reflect.Int, reflect.Int64:
			set = func(v reflect.Value) { v.SetInt(-1) }
		case reflect.Float64:
			set = func(v reflect.Value) { v.SetFloat(-1) }
		default:
			continue
		}
		n++
		t.Run(f.Name, func(t *testing.T) {
			var got T
			set(reflect.ValueOf(&got).Elem().Field(i))
			fill(&got)
			assert.Equal(t, reflect.ValueOf(def).Field(i).Interface(), reflect.ValueOf(got).Field(i).Interface(),
				"%s.%s = -1 must mean its default", typ.Name(), f.Name)
		})
	}
	return n
}

func TestNegativeSettingsMeanTheDefault(t *testing.T) {
	require.Equal(t, 9, negativeMeansDefault(t, (*Settings).defaults), "the numeric fields of Settings")
	require.Equal(t, 2, negativeMeansDefault(t, (*HTTPSettings).defaults), "the numeric fields of HTTPSettings")
}
