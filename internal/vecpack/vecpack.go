// Package vecpack reads and writes a compact file of recorded embeddings,
// keyed by semantic.KeyOf, for tests that run the semantic strategy with
// a real model's vectors and no model: the vectors are looked up by the
// key of the text asked for, so a test whose texts changed (a tool text, a
// query) fails and says which text has no vector, instead of measuring
// something else.
//
// The file is the line "toolsearch-vecpack 1", a JSON header line
// {"model": string, "dimensions": int, "count": int}, then count records
// sorted by key: the 32-byte key, the vector's scale as a little-endian
// float32, and its dimensions elements as int8 (element = int8 × scale).
// A unit vector loses about 0.001 of cosine similarity to this
// quantisation: enough for tests, not for published figures.
package vecpack

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/toolsearch/toolsearch/semantic"
)

const magic = "toolsearch-vecpack 1\n"

type header struct {
	Model      string `json:"model"`
	Dimensions int    `json:"dimensions"`
	Count      int    `json:"count"`
}

// Write writes the vectors of texts, embedded by model, to w: each under
// semantic.KeyOf(model, text), once.
func Write(w io.Writer, model string, texts []string, vecs [][]float32) error {
	if len(texts) != len(vecs) || len(vecs) == 0 {
		return fmt.Errorf("vecpack: %d texts and %d vectors", len(texts), len(vecs))
	}
	dims := len(vecs[0])
	byKey := map[semantic.Key][]float32{}
	for i, t := range texts {
		if len(vecs[i]) != dims {
			return fmt.Errorf("vecpack: vector %d has %d dimensions, not %d", i, len(vecs[i]), dims)
		}
		byKey[semantic.KeyOf(model, t)] = vecs[i]
	}
	keys := make([]semantic.Key, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b semantic.Key) int { return bytes.Compare(a[:], b[:]) })
	bw := bufio.NewWriter(w)
	bw.WriteString(magic)
	h, _ := json.Marshal(header{model, dims, len(keys)})
	bw.Write(h)
	bw.WriteByte('\n')
	codes := make([]byte, dims)
	for _, k := range keys {
		v := byKey[k]
		m := 0.0
		for _, x := range v {
			m = max(m, math.Abs(float64(x)))
		}
		if m == 0 || math.IsNaN(m) || math.IsInf(m, 0) {
			return fmt.Errorf("vecpack: a vector is zero or not finite")
		}
		scale := m / 127
		for i, x := range v {
			codes[i] = byte(int8(math.Round(float64(x) / scale)))
		}
		bw.Write(k[:])
		binary.Write(bw, binary.LittleEndian, float32(scale))
		bw.Write(codes)
	}
	return bw.Flush()
}

// Pack is a vector file in memory. It implements semantic.Embedder:
// Embed returns the vector recorded for each text, and fails for a text
// that has none.
type Pack struct {
	h    header
	vecs map[semantic.Key][]float32
}

// ErrNoVector is returned (wrapped, with the text) by Embed for a text
// the pack has no vector for.
var ErrNoVector = errors.New("no vector recorded for this text")

// Read reads a pack.
func Read(r io.Reader) (*Pack, error) {
	br := bufio.NewReader(r)
	line, err := br.ReadString('\n')
	if err != nil || line != magic {
		return nil, errors.New("vecpack: not a vector pack (no header line)")
	}
	line, err = br.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("vecpack: header: %w", err)
	}
	p := &Pack{}
	if err := json.Unmarshal([]byte(line), &p.h); err != nil {
		return nil, fmt.Errorf("vecpack: header: %w", err)
	}
	if p.h.Dimensions <= 0 || p.h.Dimensions > 65536 || p.h.Count < 0 {
		return nil, fmt.Errorf("vecpack: header: %d dimensions, %d vectors", p.h.Dimensions, p.h.Count)
	}
	p.vecs = make(map[semantic.Key][]float32, p.h.Count)
	rec := make([]byte, len(semantic.Key{})+4+p.h.Dimensions)
	for i := range p.h.Count {
		if _, err := io.ReadFull(br, rec); err != nil {
			return nil, fmt.Errorf("vecpack: vector %d of %d: %w", i+1, p.h.Count, err)
		}
		var k semantic.Key
		copy(k[:], rec)
		scale := math.Float32frombits(binary.LittleEndian.Uint32(rec[len(k):]))
		v := make([]float32, p.h.Dimensions)
		for j, c := range rec[len(k)+4:] {
			v[j] = float32(int8(c)) * scale
		}
		p.vecs[k] = v
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, errors.New("vecpack: data after the last vector")
	}
	return p, nil
}

// Len returns the number of vectors.
func (p *Pack) Len() int { return len(p.vecs) }

// Model returns the model the vectors were recorded from.
func (p *Pack) Model() string { return p.h.Model }

// Dimensions returns the length of the vectors.
func (p *Pack) Dimensions() int { return p.h.Dimensions }

// Has reports whether the pack has a vector for text.
func (p *Pack) Has(text string) bool {
	_, ok := p.vecs[semantic.KeyOf(p.h.Model, text)]
	return ok
}

// Embed returns a copy of the recorded vector of each text.
func (p *Pack) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := p.vecs[semantic.KeyOf(p.h.Model, t)]
		if !ok {
			r := []rune(t)
			if len(r) > 80 {
				t = string(r[:79]) + "…"
			}
			return nil, fmt.Errorf("%w: %q", ErrNoVector, t)
		}
		out[i] = slices.Clone(v)
	}
	return out, nil
}
