package tsopenai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	tsopenai "github.com/toolsearch/toolsearch/openai"
)

func ExampleNewEmbedder() {
	// A stand-in for a local OpenAI-compatible server, such as Ollama's.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"index":0,"embedding":[0.6,0.8,0]}]}`)
	}))
	defer srv.Close()

	e, err := tsopenai.NewEmbedder("nomic-embed-text", &tsopenai.EmbedderOptions{
		BaseURL:    srv.URL + "/v1", // for Ollama: http://localhost:11434/v1
		Dimensions: 3,               // the model's vector length
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	vecs, err := e.Embed(context.Background(), []string{"Get the weather forecast for a city"})
	fmt.Println(vecs, err, e.Dimensions())

	// Without Dimensions, only OpenAI's own models are known.
	_, err = tsopenai.NewEmbedder("nomic-embed-text", nil)
	fmt.Println(err)
	// Output:
	// [[0.6 0.8 0]] <nil> 3
	// tsopenai: NewEmbedder: set Dimensions to the length of "nomic-embed-text"'s vectors
}
