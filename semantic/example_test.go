package semantic_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolsearch/toolsearch/semantic"
)

func ExampleNormalize() {
	v, err := semantic.Normalize([]float32{3, 4}, 2)
	fmt.Println(v, err)

	_, err = semantic.Normalize([]float32{3, 4, 5}, 2)
	fmt.Println(err)
	// Output:
	// [0.6 0.8] <nil>
	// semantic: invalid vector: length 3, want 2
}

func ExampleVectors_Search() {
	vecs, _ := semantic.NewVectors(3)
	// Rows 0, 1, 2, 3; vectors need not be normalised.
	_, _ = vecs.Append(
		[]float32{1, 0, 0},
		[]float32{0, 2, 0},
		[]float32{1, 1, 0},
		[]float32{0, 5, 0},
	)
	found, _ := vecs.Search([]float32{0, 1, 0.1}, 3, nil)
	for _, nb := range found {
		fmt.Printf("row %d: %.3f\n", nb.Row, nb.Score)
	}
	// Output:
	// row 1: 0.995
	// row 3: 0.995
	// row 2: 0.704
}

func ExampleOpenFileStore() {
	dir, _ := os.MkdirTemp("", "vectors")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "vectors.bin")

	// The model identity and dimension come from the Embedder in use.
	const model, dims = "text-embedding-3-small dimensions=3", 3
	store, _ := semantic.OpenFileStore(path, model, dims, nil)
	key := semantic.KeyOf(model, "Get the weather forecast for a city")
	_ = store.Put(key, []float32{0.6, 0.8, 0})
	_ = store.Flush()

	// After a restart the vector is found again: no need to embed the text.
	store, _ = semantic.OpenFileStore(path, model, dims, nil)
	vec, ok := store.Get(key)
	fmt.Println(vec, ok)

	// A file written for another model is refused.
	_, err := semantic.OpenFileStore(path, "nomic-embed-text", 768, nil)
	fmt.Println(errors.Is(err, semantic.ErrStoreMismatch))
	// Output:
	// [0.6 0.8 0] true
	// true
}
