package semantic

import "context"

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
