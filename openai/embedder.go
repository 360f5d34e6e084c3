package tsopenai

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// Limits of the embeddings API that batching keeps within. A request holds
// at most 2048 inputs and 300,000 tokens in all; a token is at least one
// byte, so 300,000 bytes of text are at most 300,000 tokens, whatever the
// tokenizer. The per-input limit (8192 tokens) is left to the server: it
// cannot be checked without the model's tokenizer, and an input over it
// fails its request with the server's message.
const (
	defaultMaxBatchTexts = 2048
	defaultMaxBatchBytes = 300_000
	defaultMaxAttempts   = 4
	// Waits between attempts: exponential from retryBase, at most
	// retryMax, with jitter; a server's Retry-After is honoured up to
	// maxRetryAfter, and a longer one ends the retries.
	retryBase     = 500 * time.Millisecond
	retryMax      = 8 * time.Second
	maxRetryAfter = time.Minute
)

// nativeDimensions are the vector lengths of OpenAI's embedding models
// when no shorter length is requested.
var nativeDimensions = map[string]int{
	openai.EmbeddingModelTextEmbedding3Small: 1536,
	openai.EmbeddingModelTextEmbedding3Large: 3072,
	openai.EmbeddingModelTextEmbeddingAda002: 1536,
}

var (
	// ErrEmbeddingInput is returned (wrapped) by [Embedder.Embed] for a
	// text that cannot be sent: empty (the API refuses it) or longer than
	// a whole request may be. No request is made.
	ErrEmbeddingInput = errors.New("tsopenai: text cannot be embedded")
	// ErrEmbeddingResponse is returned (wrapped) by [Embedder.Embed] for a
	// response that does not hold one valid vector of the expected length
	// per text.
	ErrEmbeddingResponse = errors.New("tsopenai: unexpected embeddings response")
	// ErrEmbeddingRequest is returned (wrapped) by [Embedder.Embed] for a
	// request that failed, after the attempts allowed: with an error
	// status (the *openai.Error is reachable with errors.As) or without a
	// response.
	ErrEmbeddingRequest = errors.New("tsopenai: embeddings request failed")
)

// EmbedderOptions are the settings of an [Embedder]. The zero value gives
// the defaults; a zero or negative number means that field's default.
type EmbedderOptions struct {
	// BaseURL is the API's base URL, for example
	// "http://localhost:11434/v1/" for Ollama or "http://localhost:8000/v1/"
	// for vLLM. "" means the OPENAI_BASE_URL environment variable, else
	// "https://api.openai.com/v1/".
	BaseURL string
	// APIKey is sent as the bearer token. "" means the OPENAI_API_KEY
	// environment variable, else none (local servers need none).
	APIKey string
	// Dimensions is the length of the vectors. 0 or less means the default length
	// of OpenAI's models: 1536 for text-embedding-3-small and
	// text-embedding-ada-002, 3072 for text-embedding-3-large. For any
	// other model it is required.
	Dimensions int
	// SendDimensions sends Dimensions as the request's "dimensions"
	// parameter, which asks the model for shorter vectors: supported by
	// text-embedding-3 models and other Matryoshka models only (vLLM
	// refuses it for the others). Without it the server must return
	// vectors of length Dimensions.
	SendDimensions bool
	// MaxBatchTexts is the most texts sent in one request; 0 or less means 2048,
	// the API's limit.
	MaxBatchTexts int
	// MaxBatchBytes is the most bytes of text sent in one request; 0 or less means
	// 300,000, which keeps a request within the API's 300,000 tokens (a
	// token is at least one byte). A text longer than this cannot be
	// embedded.
	MaxBatchBytes int
	// MaxAttempts is the most attempts per request: a request that fails
	// with status 408, 409, 429 or 5xx, or without a response, is tried
	// again after a wait (the server's Retry-After or Retry-After-Ms when
	// given, up to a minute; else 0.5 s, 1 s, 2 s … up to 8 s, with
	// jitter). 0 or less means 4; 1 means no retry.
	MaxAttempts int
	// Sleep waits d between attempts, returning early with ctx's error
	// when ctx is done. nil means a timer; tests set it to record the
	// waits instead of waiting.
	Sleep func(ctx context.Context, d time.Duration) error
	// MaxResponseBytes bounds the bytes of one response read (its body,
	// an error's included): a longer response fails its request with an
	// error wrapping ErrEmbeddingResponse, after reading no more than
	// that. 0 or less means 64 KiB plus, per text of the request, 32 bytes per
	// dimension and 256 bytes, which holds any vector a server sends as
	// JSON numbers.
	MaxResponseBytes int
	// RequestOptions are applied to every request after the settings
	// above: for example option.WithHTTPClient, option.WithHeader or
	// option.WithRequestTimeout. Set the server with BaseURL, not here:
	// it is part of the Embedder's Model.
	RequestOptions []option.RequestOption
}

// Embedder embeds texts with an OpenAI-compatible embeddings endpoint
// (POST {BaseURL}embeddings): OpenAI, or a local server such as Ollama,
// vLLM, LM Studio or llama.cpp's. It implements the Embedder interface of
// package github.com/toolsearch/toolsearch/semantic.
//
// An Embedder is safe for concurrent use.
type Embedder struct {
	client      openai.Client
	model       string
	identity    string
	dims        int
	sendDims    bool
	maxTexts    int
	maxBytes    int
	maxAttempts int
	maxResp     int // 0: from the request (EmbedderOptions.MaxResponseBytes)
	sleep       func(context.Context, time.Duration) error
}

// NewEmbedder returns an Embedder for model (for example
// "text-embedding-3-small", or "nomic-embed-text" on Ollama). opts may be
// nil.
func NewEmbedder(model string, opts *EmbedderOptions) (*Embedder, error) {
	var o EmbedderOptions
	if opts != nil {
		o = *opts
	}
	if model == "" {
		return nil, errors.New("tsopenai: NewEmbedder: the model name is empty")
	}
	dims := orDefault(o.Dimensions, nativeDimensions[model])
	if dims == 0 {
		return nil, fmt.Errorf("tsopenai: NewEmbedder: set Dimensions to the length of %q's vectors", model)
	}
	base := cmp.Or(o.BaseURL, os.Getenv("OPENAI_BASE_URL"), "https://api.openai.com/v1/")
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("tsopenai: NewEmbedder: base URL %q is not an absolute URL", base)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	reqOpts := []option.RequestOption{option.WithBaseURL(u.String()), option.WithMaxRetries(0)}
	if o.APIKey != "" {
		reqOpts = append(reqOpts, option.WithAPIKey(o.APIKey))
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	// The identity names the server without credentials or query.
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return &Embedder{
		client:      openai.NewClient(append(reqOpts, o.RequestOptions...)...),
		model:       model,
		identity:    fmt.Sprintf("%s dimensions=%d base_url=%s", model, dims, u),
		dims:        dims,
		sendDims:    o.SendDimensions,
		maxTexts:    orDefault(o.MaxBatchTexts, defaultMaxBatchTexts),
		maxBytes:    orDefault(o.MaxBatchBytes, defaultMaxBatchBytes),
		maxAttempts: orDefault(o.MaxAttempts, defaultMaxAttempts),
		maxResp:     max(o.MaxResponseBytes, 0),
		sleep:       o.Sleep,
	}, nil
}

// orDefault returns v, or def when v is zero or negative.
func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// Model identifies the vectors: the model, the dimension and the base URL
// (without credentials), for example
// "text-embedding-3-small dimensions=1536 base_url=https://api.openai.com/v1/".
func (e *Embedder) Model() string { return e.identity }

// Dimensions returns the length of the vectors.
func (e *Embedder) Dimensions() int { return e.dims }

// Embed returns one vector per text, in order, each of length
// Dimensions, as the server returns them (OpenAI's are unit length; other
// servers' may not be). Texts are sent in as few requests as the batch
// limits allow, one after another. Any failure fails the whole call: the
// error says which texts, what the server answered and after how many
// attempts. An empty texts returns an empty result without a request.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	for i, t := range texts {
		if t == "" {
			return nil, fmt.Errorf("%w: text %d is empty", ErrEmbeddingInput, i)
		}
		if len(t) > e.maxBytes {
			return nil, fmt.Errorf("%w: text %d is %d bytes, over the %d bytes of a request", ErrEmbeddingInput, i, len(t), e.maxBytes)
		}
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); {
		end, size := start, 0
		for end < len(texts) && end-start < e.maxTexts && size+len(texts[end]) <= e.maxBytes {
			size += len(texts[end])
			end++
		}
		vecs, err := e.embedBatch(ctx, texts[start:end])
		if err != nil {
			return nil, fmt.Errorf("embedding texts %d to %d of %d: %w", start, end-1, len(texts), err)
		}
		out = append(out, vecs...)
		start = end
	}
	return out, nil
}

// embedBatch sends one request, trying again as MaxAttempts allows.
func (e *Embedder) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	params := openai.EmbeddingNewParams{
		Model: e.model,
		Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts},
	}
	if e.sendDims {
		params.Dimensions = openai.Int(int64(e.dims))
	}
	limit := int64(e.maxResp)
	if limit == 0 {
		limit = 64<<10 + int64(len(texts))*(32*int64(e.dims)+256)
	}
	bound := option.WithMiddleware(boundBody(limit))
	for attempt := 1; ; attempt++ {
		resp, err := e.client.Embeddings.New(ctx, params, bound)
		if ctx.Err() != nil { // a response decoded after the deadline is dropped
			return nil, ctx.Err()
		}
		if err == nil {
			return e.vectors(resp, len(texts))
		}
		var apiErr *openai.Error
		var urlErr *url.Error
		if !errors.As(err, &apiErr) && !errors.As(err, &urlErr) {
			// A response that is not JSON (a proxy's error page, say).
			return nil, fmt.Errorf("%w: %w", ErrEmbeddingResponse, err)
		}
		wait, retry, why := retryWait(err, attempt)
		if !retry || attempt == e.maxAttempts {
			return nil, describe(err, attempt, why)
		}
		if serr := e.sleep(ctx, wait); serr != nil {
			return nil, fmt.Errorf("%w; waiting %v to try again: %w", describe(err, attempt, ""), wait.Round(time.Millisecond), serr)
		}
	}
}

// vectors checks resp and returns its vectors in input order.
func (e *Embedder) vectors(resp *openai.CreateEmbeddingResponse, n int) ([][]float32, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrEmbeddingResponse}, args...)...)
	}
	if len(resp.Data) != n {
		return nil, bad("%d vectors for %d texts", len(resp.Data), n)
	}
	out := make([][]float32, n)
	for i, d := range resp.Data {
		at := i // servers that leave out "index" list the vectors in order
		if d.JSON.Index.Raw() != "" {
			if !d.JSON.Index.Valid() || d.Index < 0 || d.Index >= int64(n) {
				return nil, bad("vector %d has index %s, not an index below %d", i, d.JSON.Index.Raw(), n)
			}
			at = int(d.Index)
		}
		if out[at] != nil {
			return nil, bad("two vectors for text %d", at)
		}
		if !d.JSON.Embedding.Valid() {
			return nil, bad("vector %d is not a list of numbers or base64 floats", i)
		}
		if len(d.Embedding) != e.dims {
			hint := ""
			if !e.sendDims {
				hint = " (set Dimensions to the model's length, or SendDimensions to ask for shorter vectors)"
			}
			return nil, bad("vector for text %d has %d dimensions, want %d%s", at, len(d.Embedding), e.dims, hint)
		}
		v := make([]float32, e.dims)
		for j, x := range d.Embedding {
			v[j] = float32(x)
			if f := float64(v[j]); math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, bad("vector for text %d: element %d is %v", at, j, x)
			}
		}
		out[at] = v
	}
	return out, nil
}

// retryWait says whether a request that failed with err is worth trying
// again, and after how long. why explains a refusal to retry that the
// error alone would not.
func retryWait(err error, attempt int) (wait time.Duration, retry bool, why string) {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		switch s := apiErr.StatusCode; {
		case s == http.StatusRequestTimeout, s == http.StatusConflict, s == http.StatusTooManyRequests, s >= 500:
		default:
			return 0, false, ""
		}
		if apiErr.Response != nil {
			if d, ok := retryAfter(apiErr.Response.Header); ok {
				if d > maxRetryAfter {
					return 0, false, fmt.Sprintf("the server asked to wait %v, over %v", d.Round(time.Second), maxRetryAfter)
				}
				return d, true, ""
			}
		}
	}
	// No response (connection refused or reset: a *url.Error) or no
	// Retry-After: exponential backoff with jitter in [d/2, d].
	d := min(retryBase<<(attempt-1), retryMax)
	return d/2 + rand.N(d/2+1), true, ""
}

// retryAfter reads the wait a server asked for: Retry-After-Ms
// (milliseconds), else Retry-After (seconds, or an HTTP date).
func retryAfter(h http.Header) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && !math.IsInf(ms, 0) {
			return time.Duration(min(ms, 1e9) * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && !math.IsInf(s, 0) {
		return time.Duration(min(s, 1e6) * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

// describe says what a failed request got, wrapping ErrEmbeddingRequest
// and err. For a status error it gives the status, the API's error code
// and, except for 401 and 403 (whose messages can quote the key), its
// message.
func describe(err error, attempts int, why string) error {
	tries := "1 attempt"
	if attempts > 1 {
		tries = fmt.Sprintf("%d attempts", attempts)
	}
	if why != "" {
		tries += "; " + why
	}
	var b strings.Builder
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		fmt.Fprintf(&b, "%d %s", apiErr.StatusCode, http.StatusText(apiErr.StatusCode))
		if c := cmp.Or(apiErr.Code, apiErr.Type); c != "" {
			fmt.Fprintf(&b, " (%s)", c)
		}
		if apiErr.StatusCode != http.StatusUnauthorized && apiErr.StatusCode != http.StatusForbidden && apiErr.Message != "" {
			msg := apiErr.Message
			if len(msg) > 300 {
				msg = strings.ToValidUTF8(msg[:300], "") + "…"
			}
			fmt.Fprintf(&b, ": %s", msg)
		}
	} else {
		b.WriteString(err.Error())
	}
	return &requestError{text: fmt.Sprintf("%v: %s (%s)", ErrEmbeddingRequest, b.String(), tries), err: err}
}

// requestError is a failed request, described.
type requestError struct {
	text string
	err  error
}

func (e *requestError) Error() string   { return e.text }
func (e *requestError) Unwrap() []error { return []error{ErrEmbeddingRequest, e.err} }

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
