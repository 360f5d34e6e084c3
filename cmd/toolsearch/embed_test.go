package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/vecfile"
)

// fakeEmbeddings is an OpenAI-compatible embeddings endpoint for the tests
// (not a model): each lowercased word adds ±1 to a bucket chosen by its
// hash, out of dims. It records the requests, and answers the first
// failFirst of them with 429.
type fakeEmbeddings struct {
	dims      int
	failFirst int
	mu        sync.Mutex
	requests  []map[string]any
	auth      []string
}

func (f *fakeEmbeddings) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req map[string]any
	if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	fail := len(f.requests) <= f.failFirst
	f.mu.Unlock()
	if fail {
		w.Header().Set("Retry-After", "1")
		http.Error(w, `{"error":{"message":"slow down"}}`, http.StatusTooManyRequests)
		return
	}
	var data []map[string]any
	for i, t := range req["input"].([]any) {
		v := make([]float32, f.dims)
		v[0] = 0.1
		for _, word := range strings.Fields(strings.ToLower(t.(string))) {
			h := fnv.New32a()
			h.Write([]byte(word))
			v[1+int(h.Sum32()%uint32(f.dims-1))]++
		}
		data = append(data, map[string]any{"index": i, "embedding": v, "object": "embedding"})
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req["model"]})
}

// embed writes the vectors of every text the semantic strategy asks for
// when eval runs the dataset; eval --vectors then runs offline, every
// query ranked with its vector.
func TestEmbedThenEval(t *testing.T) {
	fake := &fakeEmbeddings{dims: 32}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "vectors.jsonl")
	t.Setenv("OPENAI_API_KEY", "sk-test")
	code, stdout, stderr := runCmd(t, "embed", "--base-url", srv.URL+"/v1/", "--model", "fake-embed", "--catalog", demoCatalog,
		"--dataset", keywordSet, "--batch", "100", "--out", out)
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `^wrote \d+ vectors of 32 dimensions to .*vectors.jsonl\n$`, stdout)

	f, err := os.Open(out)
	require.NoError(t, err)
	vf, err := vecfile.Read(f)
	f.Close()
	require.NoError(t, err)
	assert.Equal(t, "fake-embed base_url="+srv.URL+"/v1/", vf.Model())
	assert.Equal(t, 579+80, vf.Len(), "the 579 tools of the catalog and the 80 queries")
	fake.mu.Lock()
	assert.Len(t, fake.requests, 7, "659 texts in batches of 100")
	for _, r := range fake.requests {
		assert.Equal(t, "fake-embed", r["model"])
		assert.Equal(t, "float", r["encoding_format"])
		assert.NotContains(t, r, "dimensions")
		assert.LessOrEqual(t, len(r["input"].([]any)), 100)
	}
	assert.Equal(t, "Bearer sk-test", fake.auth[0])
	fake.mu.Unlock()

	// A collection between the embedding of the tools and the queries
	// must not drop the tools' vectors.
	beforeEvaluate = func() { runtime.GC(); runtime.GC() }
	t.Cleanup(func() { beforeEvaluate = func() {} })
	code, stdout, stderr = runCmd(t, "eval", "--json", "--strategy", "semantic", "--vectors", out, "--catalog", demoCatalog, keywordSet)
	require.Equal(t, 0, code, stderr)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(stdout), &rows), stdout)
	require.Len(t, rows, 1)
	assert.Equal(t, "semantic", rows[0]["strategy"])
	assert.Equal(t, 0.0, rows[0]["noted"], "every query had its vector: %s", stderr)
	assert.Greater(t, rows[0]["recall_at_5"].(float64), 0.5)
	assert.NotContains(t, stderr, "warning")

	code, stdout, stderr = runCmd(t, "eval", "--strategy", "all", "--markdown", "--vectors", out, "--catalog", demoCatalog, keywordSet)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "| dataset | tools | queries | default | bm25 | regex | hybrid | semantic |")
}

// A vectors file made for other datasets: tools without vectors fail
// eval; queries without vectors are ranked by keywords, with a warning.
func TestEvalVectorsMissing(t *testing.T) {
	fake := &fakeEmbeddings{dims: 8}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	small := writeFile(t, "small.json", `{"tools":[{"name":"alpha","description":"Alpha tool."},{"name":"beta","description":"Beta tool."}],
		"queries":[{"query":"first letter","relevant":["alpha"]}]}`)
	out := filepath.Join(t.TempDir(), "vectors.jsonl")
	code, _, stderr := runCmd(t, "embed", "--base-url", srv.URL+"/v1", "--model", "m", "--out", out, small)
	require.Equal(t, 0, code, stderr)

	code, _, stderr = runCmd(t, "eval", "--strategy", "semantic", "--vectors", out, "--catalog", demoCatalog, keywordSet)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "the vectors of its tools")
	assert.Contains(t, stderr, "no vector recorded for this text")

	other := writeFile(t, "other.json", `{"tools":[{"name":"alpha","description":"Alpha tool."},{"name":"beta","description":"Beta tool."}],
		"queries":[{"query":"second letter","relevant":["beta"]}]}`)
	code, _, stderr = runCmd(t, "eval", "--strategy", "semantic", "--vectors", out, other)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "eval: warning: other: the vectors file has no vector for 1 queries")

	code, stdout, stderr := runCmd(t, "eval", "--strategy", "semantic", "--vectors", out, "--semantic-weight", "1", small)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "semantic tools     2  queries      1  Recall@1 0.0000  Recall@5 1.0000", "weight 1: the embedding ranking alone, both tools")
	code, _, stderr = runCmd(t, "eval", "--strategy", "semantic", "--vectors", out, "--semantic-weight", "1.5", other)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "Weight 1.5 is over 1")

	code, _, stderr = runCmd(t, "eval", "--strategy", "semantic", other)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--strategy semantic needs --vectors FILE")
}

func TestEmbedRetriesAndErrors(t *testing.T) {
	fake := &fakeEmbeddings{dims: 8, failFirst: 2}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	var waits []time.Duration
	c := &embedClient{url: srv.URL + "/v1/embeddings", model: "m", dims: 8, http: srv.Client(),
		sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
	vecs, err := c.embed(context.Background(), []string{"a b", "c"})
	require.NoError(t, err)
	assert.Len(t, vecs, 2)
	assert.Equal(t, []time.Duration{time.Second, time.Second}, waits, "Retry-After: 1")
	assert.Equal(t, 8.0, fake.requests[2]["dimensions"], "--dimensions is sent")

	fake.failFirst = 100
	_, err = c.embed(context.Background(), []string{"a"})
	assert.ErrorContains(t, err, "429 Too Many Requests")
	assert.ErrorContains(t, err, "(4 attempts)")

	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"model not found"}}`, http.StatusNotFound)
	}))
	defer bad.Close()
	c.url = bad.URL
	_, err = c.embed(context.Background(), []string{"a"})
	assert.ErrorContains(t, err, "404 Not Found")
	assert.ErrorContains(t, err, "(1 attempts)", "a 404 is not tried again")

	short := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"data":[{"index":0,"embedding":[1,2]}]}`)
	}))
	defer short.Close()
	c.url = short.URL
	_, err = c.embed(context.Background(), []string{"a", "b"})
	assert.ErrorContains(t, err, "1 vectors for 2 texts")

	// A body over what the vectors can take is refused without reading
	// more (it was read up to 1 GiB).
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"data":[{"index":0,"embedding":[`+strings.Repeat("0.1,", 1<<20)+`0.1]}]}`)
	}))
	defer huge.Close()
	c.url = huge.URL
	_, err = c.embed(context.Background(), []string{"a"})
	assert.ErrorContains(t, err, "the response is over 66048 bytes, more than 1 vectors can take")

	code, _, stderr := runCmd(t, "embed", "--model", "m", "--out", "x", keywordSet)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--base-url, --model, --dataset and --out are required")
	code, _, stderr = runCmd(t, "embed", "--base-url", "localhost", "--model", "m", "--out", "x", keywordSet)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "not an absolute URL")
}

// --reuse takes the vectors of an earlier run: only the texts it lacks are
// embedded, and the file written is the same as a run without it.
func TestEmbedReuse(t *testing.T) {
	fake := &fakeEmbeddings{dims: 8}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	small := writeFile(t, "small.json", `{"tools":[{"name":"alpha","description":"Alpha tool."},{"name":"beta","description":"Beta tool."}],
		"queries":[{"query":"first letter","relevant":["alpha"]}]}`)
	more := writeFile(t, "more.json", `{"tools":[{"name":"alpha","description":"Alpha tool."},{"name":"beta","description":"Beta tool."}],
		"queries":[{"query":"first letter","relevant":["alpha"]},{"query":"second letter","relevant":["beta"]}]}`)
	dir := t.TempDir()
	first, whole, reused := filepath.Join(dir, "1.jsonl"), filepath.Join(dir, "2.jsonl"), filepath.Join(dir, "3.jsonl")
	code, _, stderr := runCmd(t, "embed", "--base-url", srv.URL+"/v1", "--model", "m", "--out", first, small)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = runCmd(t, "embed", "--base-url", srv.URL+"/v1", "--model", "m", "--out", whole, more)
	require.Equal(t, 0, code, stderr)

	fake.mu.Lock()
	fake.requests = nil
	fake.mu.Unlock()
	code, _, stderr = runCmd(t, "embed", "--base-url", srv.URL+"/v1", "--model", "m", "--reuse", first, "--out", reused, more)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "embed: 3 of 4 texts found in the --reuse files")
	fake.mu.Lock()
	require.Len(t, fake.requests, 1)
	assert.Equal(t, []any{"second letter"}, fake.requests[0]["input"], "only the new text is embedded")
	fake.mu.Unlock()
	a, err := os.ReadFile(whole)
	require.NoError(t, err)
	b, err := os.ReadFile(reused)
	require.NoError(t, err)
	assert.Equal(t, string(a), string(b))

	code, _, stderr = runCmd(t, "embed", "--base-url", srv.URL+"/v1", "--model", "other", "--reuse", first, "--out", reused, more)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `its vectors are of model "m base_url=`+srv.URL+`/v1", 8 dimensions, not "other base_url=`)
}
