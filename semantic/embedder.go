package semantic

import (
	"context"
	"fmt"
	"strings"
)

// Embedder turns texts into vectors: a client of an embedding model.
//
// Implementations must be safe for concurrent use. An Embedder that talks
// to a service should return an error, never a partial or padded result,
// when the service fails, and should respect ctx.
type Embedder interface {
	// Embed returns one vector per text, in order, each of length
	// Dimensions(). The caller owns the returned slices.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Model identifies the model and every setting that changes the
	// vectors (for example a requested dimension, or the server hosting
	// the model); vectors are cached under it, so two Embedders whose
	// vectors differ must not share a Model.
	Model() string
	// Dimensions is the length of the vectors Embed returns.
	Dimensions() int
}

// embed calls emb.Embed. A panic in it is recovered and returned as an
// error, so that an Embedder cannot take the process down from a goroutine
// of the Strategy's (the background batches, the query embedding).
func embed(ctx context.Context, emb Embedder, texts []string) (vecs [][]float32, err error) {
	defer func() {
		if r := recover(); r != nil {
			vecs, err = nil, panicked("the Embedder", r)
		}
	}()
	return emb.Embed(ctx, texts)
}

// guarded runs f, a call of user code (a Store's method, OnError) on a
// goroutine of the Strategy's, and returns its panic as an error.
func guarded(what string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicked(what, r)
		}
	}()
	return f()
}

// panicked is the error for a panic of user code, quoting at most 200
// bytes of its value.
func panicked(what string, r any) error {
	v := fmt.Sprint(r)
	if len(v) > 200 {
		v = strings.ToValidUTF8(v[:200], "") + "…"
	}
	return fmt.Errorf("semantic: %s panicked: %s", what, v)
}
