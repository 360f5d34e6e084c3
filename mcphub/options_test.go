package mcphub

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNegativeOptionsMeanTheDefault sets each number and duration of
// Options, one at a time, to a negative value: New must resolve it to the
// same default as a zero field. A field added later is covered too.
func TestNegativeOptionsMeanTheDefault(t *testing.T) {
	def := New(nil, nil).opts
	assert.Equal(t, Options{
		ListTimeout: 30 * time.Second, MaxListPages: 1000, MaxListTools: 10000, PingInterval: 15 * time.Second,
	}, def, "the documented defaults")
	typ := reflect.TypeFor[Options]()
	numbers := 0
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Type.Kind() != reflect.Int && f.Type.Kind() != reflect.Int64 {
			continue
		}
		numbers++
		t.Run(f.Name, func(t *testing.T) {
			var o Options
			reflect.ValueOf(&o).Elem().Field(i).SetInt(-1)
			got := New(nil, &o).opts
			assert.Equal(t, def, got, "Options.%s = -1 must mean its default", f.Name)
		})
	}
	require.Equal(t, 4, numbers, "the numeric fields of Options")
}
