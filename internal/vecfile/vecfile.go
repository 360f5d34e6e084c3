// Package vecfile reads and writes the vectors file of `toolsearch embed`
// (JSON lines), and replays it as an Embedder, offline, for `toolsearch
// eval --vectors`.
//
// The first line is the header, {"model": string, "dimensions": int}; each
// other line is one text and its vector, {"text": string, "vector":
// [numbers]}, each text once. A reader of the file needs no network: the
// vectors of every text the semantic strategy asks for are in it.
package vecfile

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"slices"
)

// Header is the file's first line.
type Header struct {
	// Model is the model the vectors come from, as the user named it,
	// with the server that served it.
	Model string `json:"model"`
	// Dimensions is the length of every vector.
	Dimensions int `json:"dimensions"`
}

type line struct {
	Text   string    `json:"text"`
	Vector []float32 `json:"vector"`
}

// Write writes a vectors file of texts and vecs (one vector per text) to w.
func Write(w io.Writer, h Header, texts []string, vecs [][]float32) error {
	if len(texts) != len(vecs) {
		return fmt.Errorf("vecfile: %d texts and %d vectors", len(texts), len(vecs))
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return err
	}
	for i, t := range texts {
		if len(vecs[i]) != h.Dimensions {
			return fmt.Errorf("vecfile: the vector of text %d has %d dimensions, not %d", i, len(vecs[i]), h.Dimensions)
		}
		if err := enc.Encode(line{t, vecs[i]}); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// File is a vectors file in memory. It implements the semantic package's
// Embedder: Embed returns the recorded vector of each text, and fails for
// a text the file does not have.
type File struct {
	h    Header
	vecs map[string][]float32
}

// ErrNoVector is returned (wrapped) by Embed for a text without a vector.
var ErrNoVector = errors.New("no vector recorded for this text")

// Read reads a vectors file.
func Read(r io.Reader) (*File, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	f := &File{vecs: map[string][]float32{}}
	n := 0
	for sc.Scan() {
		n++
		if n == 1 {
			if err := json.Unmarshal(sc.Bytes(), &f.h); err != nil {
				return nil, fmt.Errorf("line 1: not a vectors file header: %v", err)
			}
			if f.h.Dimensions <= 0 {
				return nil, fmt.Errorf(`line 1: "dimensions" is %d, want a positive length`, f.h.Dimensions)
			}
			continue
		}
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		if len(l.Vector) != f.h.Dimensions {
			return nil, fmt.Errorf("line %d: a vector of %d dimensions, the header says %d", n, len(l.Vector), f.h.Dimensions)
		}
		if _, dup := f.vecs[l.Text]; dup {
			return nil, fmt.Errorf("line %d: text %q again", n, clip(l.Text))
		}
		f.vecs[l.Text] = l.Vector
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, errors.New("empty: no header line")
	}
	return f, nil
}

// Len returns the number of texts.
func (f *File) Len() int { return len(f.vecs) }

// Model returns the header's model.
func (f *File) Model() string { return f.h.Model }

// Dimensions returns the header's dimensions.
func (f *File) Dimensions() int { return f.h.Dimensions }

// Vector returns a copy of the recorded vector of text, or ok false when
// the file has none.
func (f *File) Vector(text string) (vec []float32, ok bool) {
	v, ok := f.vecs[text]
	return slices.Clone(v), ok
}

// All returns every text and its vector (shared: do not change it), in
// no particular order.
func (f *File) All() iter.Seq2[string, []float32] { return maps.All(f.vecs) }

// Embed returns a copy of the recorded vector of each text.
func (f *File) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := f.vecs[t]
		if !ok {
			return nil, fmt.Errorf("%w: %q (make the file again with toolsearch embed, for the same datasets)", ErrNoVector, clip(t))
		}
		out[i] = slices.Clone(v)
	}
	return out, nil
}

func clip(s string) string {
	r := []rune(s)
	if len(r) <= 80 {
		return s
	}
	return string(r[:79]) + "…"
}
