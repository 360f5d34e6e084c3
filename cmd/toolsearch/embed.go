package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/vecfile"
	"github.com/toolsearch/toolsearch/semantic"
)

// cmdEmbed writes the vectors the semantic strategy needs to evaluate
// datasets offline: the texts it embeds for their tools and for their
// queries (as eval sends them), embedded by an OpenAI-compatible
// embeddings endpoint.
func cmdEmbed(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("embed", stderr)
	baseURL := fs.String("base-url", "", "the OpenAI-compatible API's base `URL`, e.g. http://localhost:11434/v1 (required)")
	model := fs.String("model", "", "the embedding `model` (required)")
	var datasets fileList
	fs.Var(&datasets, "dataset", "dataset `file` (repeatable; more files may follow the flags)")
	catalog := fs.String("catalog", "", "catalog `file` for datasets without \"tools\"")
	out := fs.String("out", "", "the vectors `file` to write (required)")
	dims := fs.Int("dimensions", 0, "ask the model for vectors of this `length` (its \"dimensions\" parameter; only for models that can shorten their vectors)")
	batch := fs.Int("batch", 64, "texts per request")
	var reuse fileList
	fs.Var(&reuse, "reuse", "vectors `file` written earlier by embed with the same --model and --base-url (repeatable): its texts are not embedded again")
	limit := inputLimit(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	datasets = append(datasets, fs.Args()...)
	switch {
	case *baseURL == "" || *model == "" || *out == "" || len(datasets) == 0:
		return usageError{errors.New("--base-url, --model, --dataset and --out are required")}
	case *dims < 0 || *batch < 1:
		return usageError{fmt.Errorf("--dimensions must be ≥ 0 and --batch ≥ 1, got %d and %d", *dims, *batch)}
	}
	u, err := url.Parse(*baseURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return usageError{fmt.Errorf("--base-url %q is not an absolute URL", *baseURL)}
	}
	u.User = nil
	header := vecfile.Header{Model: *model + " base_url=" + u.String(), Dimensions: *dims}
	var old []*vecfile.File
	for _, path := range reuse {
		f, err := readVectors(path, *limit)
		if err != nil {
			return err
		}
		if f.Model() != header.Model || (*dims > 0 && f.Dimensions() != *dims) {
			return fmt.Errorf("--reuse %s: its vectors are of model %q, %d dimensions, not %q", path, f.Model(), f.Dimensions(), header.Model)
		}
		old = append(old, f)
	}
	texts, err := semanticTexts(datasets, *catalog, *limit)
	if err != nil {
		return err
	}
	c := &embedClient{
		url: strings.TrimSuffix(*baseURL, "/") + "/embeddings", model: *model, dims: *dims,
		key: os.Getenv("OPENAI_API_KEY"), http: &http.Client{Timeout: 5 * time.Minute}, sleep: sleepCtx,
	}
	vecs := make([][]float32, len(texts))
	var todo []int // the texts no --reuse file has
	for i, t := range texts {
		for _, f := range old {
			if v, ok := f.Vector(t); ok {
				vecs[i] = v
				break
			}
		}
		if vecs[i] == nil {
			todo = append(todo, i)
		}
	}
	if len(old) > 0 {
		fmt.Fprintf(stderr, "embed: %d of %d texts found in the --reuse files\n", len(texts)-len(todo), len(texts))
	}
	ctx := context.Background()
	for start := 0; start < len(todo); start += *batch {
		end := min(start+*batch, len(todo))
		part := make([]string, end-start)
		for j, i := range todo[start:end] {
			part[j] = texts[i]
		}
		v, err := c.embed(ctx, part)
		if err != nil {
			return fmt.Errorf("texts %d to %d of %d to embed: %w", start+1, end, len(todo), err)
		}
		for j, i := range todo[start:end] {
			vecs[i] = v[j]
		}
		fmt.Fprintf(stderr, "embed: %d of %d texts\n", end, len(todo))
	}
	header.Dimensions = *dims
	if len(vecs) > 0 {
		header.Dimensions = len(vecs[0])
	}
	var buf bytes.Buffer
	if err := vecfile.Write(&buf, header, texts, vecs); err != nil {
		return err
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d vectors of %d dimensions to %s\n", len(texts), header.Dimensions, *out)
	return nil
}

// semanticTexts returns the texts the semantic strategy embeds when eval
// runs the datasets: it runs them through the strategy, as eval does,
// with an Embedder that records the texts (and answers with a placeholder
// vector), so that the texts are exactly those eval asks for, queries
// over the term budget included. Each text is listed once, in the order
// first asked.
func semanticTexts(datasets []string, catalog string, limit int64) ([]string, error) {
	rec := &recorder{seen: map[string]bool{}}
	st, err := semantic.New(rec, nil)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	for _, path := range datasets {
		d, err := loadDataset(path, catalog, "", limit)
		if err != nil {
			return nil, err
		}
		s := toolsearch.NewSearcher(d.reg, &toolsearch.SearchOptions{Strategy: st})
		s.Prepare()
		if err := st.Wait(context.Background()); err != nil {
			return nil, err
		}
		for _, q := range d.ds.Queries {
			args, _ := json.Marshal(map[string]string{"query": q.Query})
			s.Call(args) // refused queries embed nothing
		}
	}
	return rec.texts, nil
}

// recorder is an Embedder that records the texts it is asked for and
// answers with the one-dimensional unit vector.
type recorder struct {
	mu    sync.Mutex
	seen  map[string]bool
	texts []string
}

func (r *recorder) Model() string   { return "toolsearch embed: recording" }
func (r *recorder) Dimensions() int { return 1 }
func (r *recorder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if !r.seen[t] {
			r.seen[t] = true
			r.texts = append(r.texts, t)
		}
		out[i] = []float32{1}
	}
	return out, nil
}

// embedClient calls an OpenAI-compatible embeddings endpoint: one POST of
// {"model", "input": [texts], "encoding_format": "float"} (and
// "dimensions" when set) per batch, tried up to maxAttempts times when it
// fails with 408, 409, 429 or 5xx or without a response. It is the
// command's own, small client: the library's Embedder over the same API
// (package tsopenai) lives in the openai module, which the core module
// and this command cannot depend on.
type embedClient struct {
	url, model, key string
	dims            int
	http            *http.Client
	sleep           func(context.Context, time.Duration) error
}

const maxAttempts = 4

func (c *embedClient) embed(ctx context.Context, texts []string) ([][]float32, error) {
	req := map[string]any{"model": c.model, "input": texts, "encoding_format": "float"}
	if c.dims > 0 {
		req["dimensions"] = c.dims
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	wait := 500 * time.Millisecond
	for attempt := 1; ; attempt++ {
		vecs, retryAfter, err := c.post(ctx, body, len(texts))
		if err == nil {
			return vecs, nil
		}
		if retryAfter < 0 || attempt == maxAttempts {
			return nil, fmt.Errorf("%w (%d attempts)", err, attempt)
		}
		d := wait
		if retryAfter > 0 {
			d = retryAfter
		}
		if err := c.sleep(ctx, d); err != nil {
			return nil, err
		}
		wait *= 2
	}
}

// post sends one request. retryAfter < 0 means the error is final; 0,
// that it may be tried again after the usual wait; > 0, after that wait.
func (c *embedClient) post(ctx context.Context, body []byte, n int) (vecs [][]float32, retryAfter time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, -1, err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, -1, err
		}
		return nil, 0, err
	}
	defer resp.Body.Close()
	// The body is bounded by what n vectors can take as JSON numbers (32
	// bytes a dimension, 8,192 dimensions when --dimensions is not given),
	// and read and decoded under ctx.
	limit := int64(64<<10) + int64(n)*(32*int64(cmp.Or(c.dims, 8192))+256)
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, 0, err
	}
	if int64(len(data)) > limit {
		return nil, -1, fmt.Errorf("the response is over %d bytes, more than %d vectors can take", limit, n)
	}
	if resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(data))
		if len(msg) > 300 {
			msg = strings.ToValidUTF8(msg[:300], "") + "…"
		}
		err := fmt.Errorf("%s: %s", resp.Status, msg)
		switch s := resp.StatusCode; {
		case s == http.StatusRequestTimeout, s == http.StatusConflict, s == http.StatusTooManyRequests, s >= 500:
			if secs, perr := strconv.ParseFloat(resp.Header.Get("Retry-After"), 64); perr == nil && secs > 0 && secs <= 60 {
				return nil, time.Duration(secs * float64(time.Second)), err
			}
			return nil, 0, err
		}
		return nil, -1, err
	}
	var r struct {
		Data []struct {
			Index     *int      `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, -1, fmt.Errorf("the response is not an embeddings response: %v", err)
	}
	if err := ctx.Err(); err != nil { // decoded after the deadline
		return nil, -1, err
	}
	if len(r.Data) != n {
		return nil, -1, fmt.Errorf("the response has %d vectors for %d texts", len(r.Data), n)
	}
	vecs = make([][]float32, n)
	for i, d := range r.Data {
		at := i
		if d.Index != nil {
			at = *d.Index
		}
		if at < 0 || at >= n || vecs[at] != nil {
			return nil, -1, fmt.Errorf("the response's vector %d has index %d", i, at)
		}
		if len(d.Embedding) == 0 || len(d.Embedding) != len(r.Data[0].Embedding) {
			return nil, -1, fmt.Errorf("the response's vectors have %d and %d dimensions", len(r.Data[0].Embedding), len(d.Embedding))
		}
		vecs[at] = d.Embedding
	}
	return vecs, 0, nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
