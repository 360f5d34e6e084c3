package semantic_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch"
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

// conceptEmbedder stands in for an embedding model in the example, which
// has none: it maps a few words to shared concepts, so that "aside" and
// "stash" land together as a model would put them. It is not an embedding
// model; use one (package tsopenai has an Embedder over OpenAI-compatible
// servers).
type conceptEmbedder struct{}

var concepts = map[string]int{
	"stash": 0, "aside": 0, "shelve": 0,
	"changes": 1, "edits": 1, "uncommitted": 1, "dirty": 1,
	"commit": 2, "record": 2, "repository": 2,
	"container": 3, "image": 3, "start": 3,
}

func (conceptEmbedder) Model() string   { return "example-concepts" }
func (conceptEmbedder) Dimensions() int { return 5 }
func (conceptEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := []float32{0, 0, 0, 0, 0.1}
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if c, ok := concepts[w]; ok {
				v[c]++
			}
		}
		out[i] = v
	}
	return out, nil
}

func ExampleNew() {
	reg, _ := toolsearch.NewRegistry(nil,
		toolsearch.NewMCPTool("git", "git_stash", "Stash the changes in a dirty working directory away.", nil, nil),
		toolsearch.NewMCPTool("git", "git_commit", "Record changes to the repository.", nil, nil),
		toolsearch.NewMCPTool("docker", "run_container", "Start a new container from an image.", nil, nil),
	)
	st, err := semantic.New(conceptEmbedder{}, nil)
	if err != nil {
		panic(err)
	}
	defer st.Close() // stops the background embedding
	s := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st})

	// The tools are embedded in the background; wait for them here.
	s.Prepare()
	if err := st.Wait(context.Background()); err != nil {
		panic(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// A short query that matches a tool's name is taken to name it: the
	// words rank it, as the hybrid strategy does.
	for _, q := range []string{"put my uncommitted edits aside", "+container start"} {
		res, _ := s.SearchContext(ctx, q, 0)
		fmt.Printf("%s:\n", q)
		for _, m := range res.Matches {
			fmt.Printf("  %s (%s)\n", m.Name, m.Rules)
		}
	}
	// Output:
	// put my uncommitted edits aside:
	//   mcp__git__git_stash (semantic)
	//   mcp__git__git_commit (semantic)
	// +container start:
	//   mcp__docker__run_container (part_exact|description)
}
