package semantic_test

import (
	"fmt"

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
