package vecfile

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	h := Header{Model: "m base_url=http://x/v1", Dimensions: 2}
	require.NoError(t, Write(&buf, h, []string{"a <b>", "c"}, [][]float32{{1, 0.5}, {0, -2}}))
	assert.Equal(t, `{"model":"m base_url=http://x/v1","dimensions":2}
{"text":"a <b>","vector":[1,0.5]}
{"text":"c","vector":[0,-2]}
`, buf.String())
	f, err := Read(&buf)
	require.NoError(t, err)
	assert.Equal(t, 2, f.Len())
	assert.Equal(t, h.Model, f.Model())
	assert.Equal(t, 2, f.Dimensions())
	vecs, err := f.Embed(context.Background(), []string{"c", "a <b>"})
	require.NoError(t, err)
	assert.Equal(t, [][]float32{{0, -2}, {1, 0.5}}, vecs)
	vecs[0][0] = 9
	again, _ := f.Embed(context.Background(), []string{"c"})
	assert.Equal(t, float32(0), again[0][0], "Embed returns copies")

	_, err = f.Embed(context.Background(), []string{"c", "missing"})
	assert.ErrorIs(t, err, ErrNoVector)
	assert.ErrorContains(t, err, `"missing"`)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = f.Embed(ctx, []string{"c"})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestWriteErrors(t *testing.T) {
	assert.ErrorContains(t, Write(&bytes.Buffer{}, Header{Dimensions: 2}, []string{"a"}, nil), "1 texts and 0 vectors")
	assert.ErrorContains(t, Write(&bytes.Buffer{}, Header{Dimensions: 2}, []string{"a"}, [][]float32{{1}}), "1 dimensions, not 2")
}

func TestReadErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "no header"},
		{"not json", "vectors\n", "line 1: not a vectors file header"},
		{"no dimensions", `{"model":"m"}` + "\n", `"dimensions" is 0`},
		{"bad line", `{"model":"m","dimensions":1}` + "\n{\n", "line 2"},
		{"wrong length", `{"model":"m","dimensions":2}` + "\n" + `{"text":"a","vector":[1]}` + "\n", "line 2: a vector of 1 dimensions, the header says 2"},
		{"repeated", `{"model":"m","dimensions":1}` + "\n" + `{"text":"a","vector":[1]}` + "\n" + `{"text":"a","vector":[2]}` + "\n", `line 3: text "a" again`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.in))
			assert.ErrorContains(t, err, c.want)
		})
	}
}
