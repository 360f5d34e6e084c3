package tsopenai_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	tsopenai "github.com/toolsearch/toolsearch/openai"
)

// TestEmbedResponseIsBounded: a response body over the bound (20 MB
// against the default of 64 KiB + 320 bytes for one text of 2 dimensions;
// an 8 MB one cost 1.1 GB and seconds to decode), with a success or an
// error status, fails its request after reading no more than the bound, with
// an error wrapping ErrEmbeddingResponse that names the option.
func TestEmbedResponseIsBounded(t *testing.T) {
	huge := `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[` + strings.Repeat("0.1,", 5<<20) + `0.1]}]}`
	for _, status := range []int{200, 500} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write([]byte(huge))
		}))
		t.Cleanup(srv.Close)
		e, err := tsopenai.NewEmbedder("m", &tsopenai.EmbedderOptions{BaseURL: srv.URL + "/v1", APIKey: "k", Dimensions: 2, MaxAttempts: 1})
		require.NoError(t, err)
		_, err = e.Embed(context.Background(), []string{"a"})
		require.ErrorIs(t, err, tsopenai.ErrEmbeddingResponse, "status %d", status)
		assert.ErrorContains(t, err, "the response is over 65856 bytes (EmbedderOptions.MaxResponseBytes)", "status %d", status)

		e, err = tsopenai.NewEmbedder("m", &tsopenai.EmbedderOptions{BaseURL: srv.URL + "/v1", APIKey: "k", Dimensions: 2, MaxAttempts: 1, MaxResponseBytes: 1000})
		require.NoError(t, err)
		_, err = e.Embed(context.Background(), []string{"a"})
		assert.ErrorContains(t, err, "the response is over 1000 bytes", "status %d: MaxResponseBytes", status)
	}
}

// BenchmarkHostileResponse: one Embed call of one text whose server
// answers with an 8 MB body, under a 1 s context (before the bound it took
// 2–3 s and allocated 1.1 GB).
func BenchmarkHostileResponse(b *testing.B) {
	huge := `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[` + strings.Repeat("0.1,", 2<<20) + `0.1]}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(huge))
	}))
	defer srv.Close()
	e, err := tsopenai.NewEmbedder("m", &tsopenai.EmbedderOptions{BaseURL: srv.URL + "/v1", APIKey: "k", Dimensions: 1536, MaxAttempts: 1})
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := e.Embed(ctx, []string{"a"})
		cancel()
		require.ErrorIs(b, err, tsopenai.ErrEmbeddingResponse)
	}
}
