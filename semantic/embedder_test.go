package semantic

import (
	"context"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hashEmbedder is the deterministic Embedder of the tests (not a model:
// texts sharing words get similar vectors, paraphrases do not). Each
// lowercased word adds ±1 to a bucket chosen by its hash, and a constant
// bucket keeps every vector non-zero. It counts the texts it embeds, and
// fails with err when err is set.
type hashEmbedder struct {
	dims int
	mu   sync.Mutex
	seen []string // every text embedded, in order
	err  error
}

var _ Embedder = (*hashEmbedder)(nil)

func (e *hashEmbedder) Model() string   { return fmt.Sprintf("test-hash dimensions=%d", e.dims) }
func (e *hashEmbedder) Dimensions() int { return e.dims }

func (e *hashEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil {
		return nil, e.err
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, e.dims)
		v[0] = 0.1
		for _, w := range strings.Fields(strings.ToLower(t)) {
			h := fnv.New64a()
			h.Write([]byte(w))
			x := h.Sum64()
			sign := float32(1)
			if x&1 == 1 {
				sign = -1
			}
			v[1+int((x>>1)%uint64(e.dims-1))] += sign
		}
		out[i] = v
		e.seen = append(e.seen, t)
	}
	return out, nil
}

// embedded returns the texts embedded so far and forgets them.
func (e *hashEmbedder) embedded() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.seen
	e.seen = nil
	return s
}

func TestHashEmbedder(t *testing.T) {
	e := &hashEmbedder{dims: 64}
	a, err := e.Embed(context.Background(), []string{"Send an email", "send AN email", "read a file", ""})
	require.NoError(t, err)
	require.Len(t, a, 4)
	assert.Equal(t, a[0], a[1], "case does not matter")
	assert.NotEqual(t, a[0], a[2])
	for i, v := range a {
		_, err := Normalize(v, 64)
		assert.NoError(t, err, "vector %d is valid", i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = e.Embed(ctx, []string{"x"})
	assert.ErrorIs(t, err, context.Canceled)
}

// embedCached is what a caller of a Store does: embed only the texts the
// store does not hold, then put and flush their vectors.
func embedCached(t *testing.T, e Embedder, s Store, texts []string) [][]float32 {
	t.Helper()
	out := make([][]float32, len(texts))
	var missing []int
	for i, text := range texts {
		if v, ok := s.Get(KeyOf(e.Model(), text)); ok {
			out[i] = v
			continue
		}
		missing = append(missing, i)
	}
	if len(missing) > 0 {
		batch := make([]string, len(missing))
		for j, i := range missing {
			batch[j] = texts[i]
		}
		vecs, err := e.Embed(context.Background(), batch)
		require.NoError(t, err)
		for j, i := range missing {
			require.NoError(t, s.Put(KeyOf(e.Model(), texts[i]), vecs[j]))
			out[i] = vecs[j]
		}
	}
	require.NoError(t, s.Flush())
	return out
}

// With a FileStore, an unchanged text is embedded once across restarts;
// a changed text, or another model, is embedded again.
func TestStoreAvoidsReembedding(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vectors")
	e := &hashEmbedder{dims: 32}
	texts := []string{"get the weather forecast", "send an email", "list files in a directory"}
	open := func(e Embedder) Store {
		s, err := OpenFileStore(path, e.Model(), e.Dimensions(), nil)
		require.NoError(t, err)
		return s
	}
	first := embedCached(t, e, open(e), texts)
	assert.Equal(t, texts, e.embedded())

	again := embedCached(t, e, open(e), texts) // a restart
	assert.Empty(t, e.embedded(), "nothing is embedded again")
	assert.Equal(t, first, again)

	texts[1] = "send an email with attachments"
	embedCached(t, e, open(e), texts)
	assert.Equal(t, []string{"send an email with attachments"}, e.embedded(), "only the changed text")

	_, err := OpenFileStore(path, (&hashEmbedder{dims: 16}).Model(), 16, nil)
	assert.ErrorIs(t, err, ErrStoreMismatch, "another model's embedder cannot use the file")
}
