package vecpack

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func unit(xs ...float32) []float32 {
	var n float64
	for _, x := range xs {
		n += float64(x) * float64(x)
	}
	for i := range xs {
		xs[i] = float32(float64(xs[i]) / math.Sqrt(n))
	}
	return xs
}

func TestRoundTrip(t *testing.T) {
	texts := []string{"a tool", "a query", "a tool"}
	vecs := [][]float32{unit(1, 2, 3, -4), unit(0, 0, 1, 0), unit(1, 2, 3, -4)}
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, "m", texts, vecs))
	first := bytes.Clone(buf.Bytes())
	buf.Reset()
	require.NoError(t, Write(&buf, "m", []string{"a query", "a tool"}, [][]float32{vecs[1], vecs[0]}))
	assert.Equal(t, first, buf.Bytes(), "the bytes do not depend on the order of the texts")

	p, err := Read(bytes.NewReader(first))
	require.NoError(t, err)
	assert.Equal(t, 2, p.Len())
	assert.Equal(t, "m", p.Model())
	assert.Equal(t, 4, p.Dimensions())
	assert.True(t, p.Has("a tool"))
	assert.False(t, p.Has("another"))
	got, err := p.Embed(context.Background(), []string{"a tool", "a query"})
	require.NoError(t, err)
	for i, want := range [][]float32{vecs[0], vecs[1]} {
		for j := range want {
			assert.InDelta(t, want[j], got[i][j], float64(max(abs(want[0]), abs(want[3])))/127, "vector %d element %d", i, j)
		}
	}
	_, err = p.Embed(context.Background(), []string{"a tool", "no such text"})
	assert.ErrorIs(t, err, ErrNoVector)
	assert.Contains(t, err.Error(), `"no such text"`)
}

func abs(x float32) float32 { return float32(math.Abs(float64(x))) }

// A pack keyed for one model has no vector for another model's texts.
func TestKeyedByModel(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, "m1", []string{"t"}, [][]float32{{1, 0}}))
	p, err := Read(&buf)
	require.NoError(t, err)
	assert.True(t, p.Has("t"))
	p.h.Model = "m2"
	assert.False(t, p.Has("t"))
}

func TestBadInput(t *testing.T) {
	var good bytes.Buffer
	require.NoError(t, Write(&good, "m", []string{"t", "u"}, [][]float32{{1, 0}, {0, 1}}))
	b := good.Bytes()
	for name, data := range map[string][]byte{
		"empty":      nil,
		"not a pack": []byte("hello\n"),
		"truncated":  b[:len(b)-1],
		"trailing":   append(bytes.Clone(b), 0),
		"bad header": []byte(magic + `{"model":"m","dimensions":0,"count":1}` + "\n"),
	} {
		_, err := Read(bytes.NewReader(data))
		assert.Error(t, err, name)
	}
	assert.Error(t, Write(&good, "m", []string{"t"}, [][]float32{{0, 0}}), "a zero vector")
	assert.Error(t, Write(&good, "m", []string{"t", "u"}, [][]float32{{1, 0}, {1}}), "vectors of two lengths")
	assert.Error(t, Write(&good, "m", nil, nil), "no vectors")
}
