package tsopenai_test

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	tsopenai "github.com/toolsearch/toolsearch/openai"
	"github.com/toolsearch/toolsearch/semantic"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

var _ semantic.Embedder = (*tsopenai.Embedder)(nil)

// reply is one scripted answer of embedServer.
type reply struct {
	status int               // 0 means 200
	header map[string]string // extra response headers
	body   string            // "" means vectors for the request's texts
}

type seenRequest struct {
	path, auth string
	body       []byte
}

// embedServer plays an embeddings endpoint: it answers the i-th request
// with replies[i], or with valid vectors once the script runs out. A
// valid answer gives text t the vector [len(t), 1, 0, …] of length dims,
// listed in reverse order with its index (as the API allows).
type embedServer struct {
	*httptest.Server
	dims    int
	mu      sync.Mutex
	replies []reply
	seen    []seenRequest
	onReply func(i int) // called before answering request i, if set
}

func newEmbedServer(t *testing.T, dims int, replies ...reply) *embedServer {
	s := &embedServer{dims: dims, replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *embedServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	i := len(s.seen)
	s.seen = append(s.seen, seenRequest{path: r.URL.Path, auth: r.Header.Get("Authorization"), body: body})
	var rep reply
	if i < len(s.replies) {
		rep = s.replies[i]
	}
	onReply := s.onReply
	s.mu.Unlock()
	if onReply != nil {
		onReply(i)
	}
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.status != 0 {
		w.WriteHeader(rep.status)
	}
	if rep.body != "" {
		io.WriteString(w, rep.body)
		return
	}
	var req struct {
		Input []string `json:"input"`
	}
	json.Unmarshal(body, &req)
	io.WriteString(w, vectorsBody(s.dims, req.Input))
}

// vectorsBody is a valid response for texts: text t gets [len(t), 1, 0, …].
func vectorsBody(dims int, texts []string) string {
	var data []string
	for i := len(texts) - 1; i >= 0; i-- {
		v := make([]float64, dims)
		v[0] = float64(len(texts[i]))
		if dims > 1 {
			v[1] = 1
		}
		b, _ := json.Marshal(v)
		data = append(data, fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":%s}`, i, b))
	}
	return fmt.Sprintf(`{"object":"list","model":"m","data":[%s],"usage":{"prompt_tokens":1,"total_tokens":1}}`, strings.Join(data, ","))
}

func (s *embedServer) requests() []seenRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seenRequest(nil), s.seen...)
}

// sleeps records the waits between attempts instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func newEmbedder(t *testing.T, srv *embedServer, model string, opts tsopenai.EmbedderOptions) (*tsopenai.Embedder, *sleeps) {
	t.Helper()
	sl := &sleeps{}
	opts.BaseURL = srv.URL + "/v1"
	if opts.APIKey == "" {
		opts.APIKey = "test-key"
	}
	if opts.Sleep == nil {
		opts.Sleep = sl.sleep
	}
	e, err := tsopenai.NewEmbedder(model, &opts)
	require.NoError(t, err)
	return e, sl
}

func TestWireEmbeddings(t *testing.T) {
	srv := newEmbedServer(t, 4)
	e, sl := newEmbedder(t, srv, "text-embedding-3-small", tsopenai.EmbedderOptions{Dimensions: 4, SendDimensions: true})
	texts := []string{"Get the weather forecast for a city", "Send an email", "Severe weather alerts for a region"}
	got, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	require.Len(t, got, 3)
	for i, v := range got {
		assert.Equal(t, []float32{float32(len(texts[i])), 1, 0, 0}, v, "text %d: vectors come back in input order", i)
	}
	reqs := srv.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/v1/embeddings", reqs[0].path)
	assert.Equal(t, "Bearer test-key", reqs[0].auth)
	toolsearchtest.GoldenJSON(t, "testdata/embeddings.json", reqs[0].body, *update)
	assert.Empty(t, sl.waits())
}

// Batches stay within MaxBatchTexts and MaxBatchBytes; the vectors of all
// batches come back in input order.
func TestWireEmbeddingsBatches(t *testing.T) {
	srv := newEmbedServer(t, 2)
	e, _ := newEmbedder(t, srv, "nomic-embed-text", tsopenai.EmbedderOptions{Dimensions: 2, MaxBatchTexts: 3, MaxBatchBytes: 10})
	texts := []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g", "h", "i", "j"}
	got, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	for i, v := range got {
		assert.Equal(t, []float32{float32(len(texts[i])), 1}, v, "text %d", i)
	}
	var batches [][]string
	for i, r := range srv.requests() {
		var req struct {
			Input      []string `json:"input"`
			Dimensions *int     `json:"dimensions"`
		}
		require.NoError(t, json.Unmarshal(r.body, &req))
		assert.Nil(t, req.Dimensions, "request %d: no dimensions without SendDimensions", i)
		batches = append(batches, req.Input)
		if i == 0 {
			toolsearchtest.GoldenJSON(t, "testdata/embeddings_batch1.json", r.body, *update)
		}
	}
	// At most 3 texts and 10 bytes each.
	assert.Equal(t, [][]string{{"a", "bb", "ccc"}, {"dddd", "eeeee"}, {"ffffff", "g", "h"}, {"i", "j"}}, batches)

	got, err = e.Embed(context.Background(), nil)
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.Len(t, srv.requests(), 4, "no request for no texts")
}

func TestEmbedInputErrors(t *testing.T) {
	srv := newEmbedServer(t, 2)
	e, _ := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2, MaxBatchBytes: 5})
	_, err := e.Embed(context.Background(), []string{"ok", ""})
	require.ErrorIs(t, err, tsopenai.ErrEmbeddingInput)
	assert.EqualError(t, err, "tsopenai: text cannot be embedded: text 1 is empty")
	_, err = e.Embed(context.Background(), []string{"ok", "too long"})
	require.ErrorIs(t, err, tsopenai.ErrEmbeddingInput)
	assert.EqualError(t, err, "tsopenai: text cannot be embedded: text 1 is 8 bytes, over the 5 bytes of a request")
	assert.Empty(t, srv.requests(), "nothing is sent")
}

func TestEmbedRetries(t *testing.T) {
	srv := newEmbedServer(t, 2,
		reply{status: 429, header: map[string]string{"Retry-After": "2"}, body: `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`},
		reply{status: 503, body: `{"error":{"message":"overloaded"}}`},
		reply{status: 500, header: map[string]string{"Retry-After-Ms": "1500", "Retry-After": "9"}},
		reply{status: 502},
	)
	e, sl := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2, MaxAttempts: 5})
	got, err := e.Embed(context.Background(), []string{"abc"})
	require.NoError(t, err)
	assert.Equal(t, [][]float32{{3, 1}}, got)
	reqs := srv.requests()
	require.Len(t, reqs, 5)
	for _, r := range reqs[1:] {
		assert.Equal(t, string(reqs[0].body), string(r.body), "every attempt sends the same body")
	}
	w := sl.waits()
	require.Len(t, w, 4)
	assert.Equal(t, 2*time.Second, w[0], "Retry-After in seconds")
	assert.True(t, w[1] >= 500*time.Millisecond && w[1] <= time.Second, "2nd attempt: backoff of 0.5 to 1 s, got %v", w[1])
	assert.Equal(t, 1500*time.Millisecond, w[2], "Retry-After-Ms before Retry-After")
	assert.True(t, w[3] >= 2*time.Second && w[3] <= 4*time.Second, "4th attempt: backoff of 2 to 4 s, got %v", w[3])
}

func TestEmbedRetryLimits(t *testing.T) {
	t.Run("attempts exhausted", func(t *testing.T) {
		srv := newEmbedServer(t, 2, reply{status: 500}, reply{status: 500}, reply{status: 500}, reply{status: 500, body: `{"error":{"message":"boom","type":"server_error"}}`})
		e, sl := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2})
		_, err := e.Embed(context.Background(), []string{"a", "b"})
		require.Error(t, err)
		assert.EqualError(t, err, "embedding texts 0 to 1 of 2: tsopenai: embeddings request failed: 500 Internal Server Error (server_error): boom (4 attempts)")
		require.ErrorIs(t, err, tsopenai.ErrEmbeddingRequest)
		var apiErr *openai.Error
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, 500, apiErr.StatusCode)
		assert.Len(t, srv.requests(), 4, "the default is 4 attempts")
		w := sl.waits()
		require.Len(t, w, 3)
		for i, d := range w {
			hi := 500 * time.Millisecond << i
			assert.True(t, d >= hi/2 && d <= hi, "wait %d: %v in [%v, %v]", i, d, hi/2, hi)
		}
	})
	t.Run("backoff is capped at 8 s", func(t *testing.T) {
		var replies []reply
		for range 7 {
			replies = append(replies, reply{status: 503})
		}
		srv := newEmbedServer(t, 2, replies...)
		e, sl := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2, MaxAttempts: 8})
		_, err := e.Embed(context.Background(), []string{"a"})
		require.NoError(t, err)
		w := sl.waits()
		require.Len(t, w, 7)
		for _, d := range w[4:] {
			assert.True(t, d >= 4*time.Second && d <= 8*time.Second, "%v in [4s, 8s]", d)
		}
	})
	t.Run("Retry-After over a minute ends the retries", func(t *testing.T) {
		srv := newEmbedServer(t, 2, reply{status: 429, header: map[string]string{"Retry-After": "120"}})
		e, sl := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2})
		_, err := e.Embed(context.Background(), []string{"a"})
		assert.EqualError(t, err, "embedding texts 0 to 0 of 1: tsopenai: embeddings request failed: 429 Too Many Requests (1 attempt; the server asked to wait 2m0s, over 1m0s)")
		assert.Empty(t, sl.waits())
	})
	t.Run("Retry-After as an HTTP date", func(t *testing.T) {
		past := time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
		future := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
		srv := newEmbedServer(t, 2, reply{status: 429, header: map[string]string{"Retry-After": past}}, reply{status: 429, header: map[string]string{"Retry-After": future}})
		e, sl := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2})
		_, err := e.Embed(context.Background(), []string{"a"})
		assert.ErrorContains(t, err, "429 Too Many Requests (2 attempts; the server asked to wait ")
		assert.ErrorContains(t, err, ", over 1m0s)")
		assert.Equal(t, []time.Duration{0}, sl.waits(), "a date in the past: no wait")
	})
	t.Run("no retry of a client error", func(t *testing.T) {
		srv := newEmbedServer(t, 2, reply{status: 400, body: `{"error":{"message":"Model \"bge-m3\" does not support matryoshka representation","type":"BadRequestError"}}`})
		e, sl := newEmbedder(t, srv, "bge-m3", tsopenai.EmbedderOptions{Dimensions: 2, SendDimensions: true})
		_, err := e.Embed(context.Background(), []string{"a"})
		assert.EqualError(t, err, `embedding texts 0 to 0 of 1: tsopenai: embeddings request failed: 400 Bad Request (BadRequestError): Model "bge-m3" does not support matryoshka representation (1 attempt)`)
		assert.Len(t, srv.requests(), 1)
		assert.Empty(t, sl.waits())
	})
	t.Run("MaxAttempts 1", func(t *testing.T) {
		srv := newEmbedServer(t, 2, reply{status: 503})
		e, _ := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2, MaxAttempts: 1})
		_, err := e.Embed(context.Background(), []string{"a"})
		assert.ErrorContains(t, err, "503 Service Unavailable (1 attempt)")
		assert.Len(t, srv.requests(), 1)
	})
}

func TestEmbedAuthError(t *testing.T) {
	srv := newEmbedServer(t, 2, reply{status: 401, body: `{"error":{"message":"Incorrect API key provided: sk-abc***xyz.","type":"invalid_request_error","code":"invalid_api_key"}}`})
	e, sl := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2})
	_, err := e.Embed(context.Background(), []string{"a"})
	assert.EqualError(t, err, "embedding texts 0 to 0 of 1: tsopenai: embeddings request failed: 401 Unauthorized (invalid_api_key) (1 attempt)", "no retry; the message, which quotes the key, is left out")
	require.ErrorIs(t, err, tsopenai.ErrEmbeddingRequest)
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "Incorrect API key provided: sk-abc***xyz.", apiErr.Message, "but stays reachable")
	assert.Empty(t, sl.waits())
}

// A connection that fails without a response is retried.
func TestEmbedConnectionError(t *testing.T) {
	srv := newEmbedServer(t, 2)
	url := srv.URL
	srv.Close()
	sl := &sleeps{}
	e, err := tsopenai.NewEmbedder("m", &tsopenai.EmbedderOptions{BaseURL: url, Dimensions: 2, MaxAttempts: 3, Sleep: sl.sleep})
	require.NoError(t, err)
	_, err = e.Embed(context.Background(), []string{"a"})
	require.ErrorIs(t, err, tsopenai.ErrEmbeddingRequest)
	assert.ErrorContains(t, err, "connection refused (3 attempts)")
	assert.Len(t, sl.waits(), 2)
}

func TestEmbedContext(t *testing.T) {
	t.Run("cancelled during a request", func(t *testing.T) {
		srv := newEmbedServer(t, 2, reply{status: 429, header: map[string]string{"Retry-After": "30"}})
		ctx, cancel := context.WithCancel(context.Background())
		srv.onReply = func(int) { cancel() }
		e, sl := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2})
		_, err := e.Embed(ctx, []string{"a"})
		require.ErrorIs(t, err, context.Canceled)
		assert.Len(t, srv.requests(), 1)
		assert.Empty(t, sl.waits())
	})
	t.Run("the default wait ends with the context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- tsopenai.DefaultSleep(ctx, time.Hour) }()
		cancel()
		assert.ErrorIs(t, <-done, context.Canceled)
		assert.NoError(t, tsopenai.DefaultSleep(context.Background(), 0))
	})
	t.Run("cancelled before the call", func(t *testing.T) {
		srv := newEmbedServer(t, 2)
		e, sl := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := e.Embed(ctx, []string{"a"})
		require.ErrorIs(t, err, context.Canceled)
		assert.Empty(t, sl.waits())
	})
	t.Run("Sleep's error ends the retries", func(t *testing.T) {
		srv := newEmbedServer(t, 2, reply{status: 503})
		stop := errors.New("stop")
		e, _ := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2, Sleep: func(context.Context, time.Duration) error { return stop }})
		_, err := e.Embed(context.Background(), []string{"a"})
		require.ErrorIs(t, err, stop)
		assert.ErrorContains(t, err, "embedding texts 0 to 0 of 1: tsopenai: embeddings request failed: 503 Service Unavailable (1 attempt); waiting ")
		assert.ErrorIs(t, err, tsopenai.ErrEmbeddingRequest)
		assert.ErrorContains(t, err, " to try again: stop")
	})
}

func base64Vector(v ...float32) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

func TestEmbedBadResponses(t *testing.T) {
	list := func(data ...string) string {
		return `{"object":"list","model":"m","data":[` + strings.Join(data, ",") + `],"usage":{"prompt_tokens":1,"total_tokens":1}}`
	}
	tests := []struct {
		name, body string
		want       string
	}{
		{"not JSON", `<html>proxy error</html>`, "tsopenai: unexpected embeddings response: error parsing response json"},
		{"too few vectors", list(`{"index":0,"embedding":[1,2]}`), "tsopenai: unexpected embeddings response: 1 vectors for 2 texts"},
		{"too many vectors", list(`{"index":0,"embedding":[1,2]}`, `{"index":1,"embedding":[1,2]}`, `{"index":2,"embedding":[1,2]}`), "3 vectors for 2 texts"},
		{"wrong length", list(`{"index":0,"embedding":[1,2]}`, `{"index":1,"embedding":[1,2,3]}`), "vector for text 1 has 3 dimensions, want 2 (set Dimensions to the model's length, or SendDimensions to ask for shorter vectors)"},
		{"repeated index", list(`{"index":0,"embedding":[1,2]}`, `{"index":0,"embedding":[1,2]}`), "two vectors for text 0"},
		{"index clashes with position", list(`{"index":1,"embedding":[1,2]}`, `{"embedding":[1,2]}`), "two vectors for text 1"},
		{"negative index", list(`{"index":-1,"embedding":[1,2]}`, `{"index":1,"embedding":[1,2]}`), "vector 0 has index -1, not an index below 2"},
		{"index out of range", list(`{"index":0,"embedding":[1,2]}`, `{"index":5,"embedding":[1,2]}`), "vector 1 has index 5"},
		{"index not a number", list(`{"index":"x","embedding":[1,2]}`, `{"index":1,"embedding":[1,2]}`), `vector 0 has index "x"`},
		{"embedding not a list", list(`{"index":0,"embedding":"not base64!"}`, `{"index":1,"embedding":[1,2]}`), "vector 0 is not a list of numbers or base64 floats"},
		{"missing embedding", list(`{"index":0}`, `{"index":1,"embedding":[1,2]}`), "vector 0 is not a list"},
		{"NaN in base64", list(`{"index":0,"embedding":"`+base64Vector(1, float32(math.NaN()))+`"}`, `{"index":1,"embedding":[1,2]}`), "vector for text 0: element 1 is NaN"},
		{"overflows float32", list(`{"index":0,"embedding":[1e39,2]}`, `{"index":1,"embedding":[1,2]}`), "vector for text 0: element 0 is 1e+39"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newEmbedServer(t, 2, reply{body: tt.body})
			e, sl := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2})
			got, err := e.Embed(context.Background(), []string{"a", "b"})
			require.Error(t, err)
			assert.Nil(t, got)
			assert.Len(t, srv.requests(), 1, "a bad response is not retried")
			assert.Empty(t, sl.waits())
			assert.ErrorContains(t, err, "embedding texts 0 to 1 of 2: ")
			require.ErrorIs(t, err, tsopenai.ErrEmbeddingResponse)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

func TestEmbedResponseVariants(t *testing.T) {
	t.Run("base64 vectors", func(t *testing.T) {
		body := `{"object":"list","data":[{"index":1,"embedding":"` + base64Vector(0.5, -0.25) + `"},{"index":0,"embedding":"` + base64Vector(1, 0) + `"}]}`
		srv := newEmbedServer(t, 2, reply{body: body})
		e, _ := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2})
		got, err := e.Embed(context.Background(), []string{"a", "b"})
		require.NoError(t, err)
		assert.Equal(t, [][]float32{{1, 0}, {0.5, -0.25}}, got)
	})
	t.Run("no index: in order", func(t *testing.T) {
		srv := newEmbedServer(t, 2, reply{body: `{"data":[{"embedding":[1,2]},{"embedding":[3,4]}]}`})
		e, _ := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2})
		got, err := e.Embed(context.Background(), []string{"a", "b"})
		require.NoError(t, err)
		assert.Equal(t, [][]float32{{1, 2}, {3, 4}}, got)
	})
	t.Run("an error in a later batch fails the call", func(t *testing.T) {
		srv := newEmbedServer(t, 2, reply{}, reply{status: 400, body: `{"error":{"message":"input too long"}}`})
		e, _ := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2, MaxBatchTexts: 2})
		got, err := e.Embed(context.Background(), []string{"a", "b", "c"})
		assert.Nil(t, got, "no partial result")
		assert.EqualError(t, err, "embedding texts 2 to 2 of 3: tsopenai: embeddings request failed: 400 Bad Request: input too long (1 attempt)")
	})
}

func TestNewEmbedder(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	tests := []struct {
		model string
		opts  *tsopenai.EmbedderOptions
		dims  int
		id    string
	}{
		{"text-embedding-3-small", nil, 1536, "text-embedding-3-small dimensions=1536 base_url=https://api.openai.com/v1/"},
		{"text-embedding-3-large", nil, 3072, "text-embedding-3-large dimensions=3072 base_url=https://api.openai.com/v1/"},
		{"text-embedding-ada-002", nil, 1536, "text-embedding-ada-002 dimensions=1536 base_url=https://api.openai.com/v1/"},
		{"text-embedding-3-small", &tsopenai.EmbedderOptions{Dimensions: 256, SendDimensions: true}, 256, "text-embedding-3-small dimensions=256 base_url=https://api.openai.com/v1/"},
		{"nomic-embed-text", &tsopenai.EmbedderOptions{BaseURL: "http://localhost:11434/v1", Dimensions: 768}, 768, "nomic-embed-text dimensions=768 base_url=http://localhost:11434/v1/"},
		{"BAAI/bge-m3", &tsopenai.EmbedderOptions{BaseURL: "https://user:secret@vllm.internal:8000/v1/?token=x", Dimensions: 1024}, 1024, "BAAI/bge-m3 dimensions=1024 base_url=https://vllm.internal:8000/v1/"},
	}
	for _, tt := range tests {
		e, err := tsopenai.NewEmbedder(tt.model, tt.opts)
		require.NoError(t, err, tt.model)
		assert.Equal(t, tt.dims, e.Dimensions(), tt.model)
		assert.Equal(t, tt.id, e.Model(), tt.model)
	}
	t.Setenv("OPENAI_BASE_URL", "http://proxy.example/openai")
	e, err := tsopenai.NewEmbedder("text-embedding-3-small", nil)
	require.NoError(t, err)
	assert.Equal(t, "text-embedding-3-small dimensions=1536 base_url=http://proxy.example/openai/", e.Model(), "OPENAI_BASE_URL")

	for _, bad := range []struct {
		model string
		opts  *tsopenai.EmbedderOptions
		want  string
	}{
		{"", nil, "tsopenai: NewEmbedder: the model name is empty"},
		{"nomic-embed-text", nil, `tsopenai: NewEmbedder: set Dimensions to the length of "nomic-embed-text"'s vectors`},
		{"m", &tsopenai.EmbedderOptions{Dimensions: -1}, `tsopenai: NewEmbedder: set Dimensions to the length of "m"'s vectors`},
		{"m", &tsopenai.EmbedderOptions{Dimensions: 2, BaseURL: "localhost:11434"}, `tsopenai: NewEmbedder: base URL "localhost:11434" is not an absolute URL`},
	} {
		_, err := tsopenai.NewEmbedder(bad.model, bad.opts)
		assert.EqualError(t, err, bad.want)
	}
}

// TestNegativeOptionsMeanTheDefault sets each number of EmbedderOptions,
// one at a time, to -1: NewEmbedder must resolve it to the same default as
// a zero field. A field added later is covered too.
func TestNegativeOptionsMeanTheDefault(t *testing.T) {
	const model = "text-embedding-3-small"
	def, err := tsopenai.NewEmbedder(model, nil)
	require.NoError(t, err)
	assert.Equal(t, [5]int{1536, 2048, 300_000, 4, 0}, tsopenai.Settings(def), "the documented defaults (a response bound of 0: from the request)")
	typ := reflect.TypeFor[tsopenai.EmbedderOptions]()
	numbers := 0
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Type.Kind() != reflect.Int {
			continue
		}
		numbers++
		t.Run(f.Name, func(t *testing.T) {
			var o tsopenai.EmbedderOptions
			reflect.ValueOf(&o).Elem().Field(i).SetInt(-1)
			e, err := tsopenai.NewEmbedder(model, &o)
			require.NoError(t, err)
			assert.Equal(t, tsopenai.Settings(def), tsopenai.Settings(e), "EmbedderOptions.%s = -1 must mean its default", f.Name)
		})
	}
	require.Equal(t, 5, numbers, "the numeric fields of EmbedderOptions")
}

// Without an API key (and OPENAI_API_KEY unset) no Authorization header
// is sent: local servers need none.
func TestEmbedNoKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv := newEmbedServer(t, 2)
	e, err := tsopenai.NewEmbedder("m", &tsopenai.EmbedderOptions{BaseURL: srv.URL, Dimensions: 2})
	require.NoError(t, err)
	_, err = e.Embed(context.Background(), []string{"a"})
	require.NoError(t, err)
	assert.Equal(t, "", srv.requests()[0].auth)
	assert.Equal(t, "/embeddings", srv.requests()[0].path)
}

// One Embedder serves several goroutines (run with -race).
func TestEmbedConcurrent(t *testing.T) {
	srv := newEmbedServer(t, 2, reply{status: 503}, reply{status: 503})
	e, _ := newEmbedder(t, srv, "m", tsopenai.EmbedderOptions{Dimensions: 2, MaxBatchTexts: 2})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			texts := []string{strings.Repeat("x", g+1), "yy", "zzz"}
			got, err := e.Embed(context.Background(), texts)
			if assert.NoError(t, err) {
				assert.Equal(t, [][]float32{{float32(g + 1), 1}, {2, 1}, {3, 1}}, got)
			}
		})
	}
	wg.Wait()
	assert.Len(t, srv.requests(), 18, "16 batches and 2 retried")
}
