package eval

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/vecpack"
	"github.com/toolsearch/toolsearch/semantic"
)

// realModels are the recorded vectors of two real models for the demo
// catalog, the quality sets and livemcpbench (testdata/vectors, made by
// scripts/usemodel and scripts/wordvectors with toolsearch embed): a
// sentence-embedding model, and a weaker one (word vectors averaged).
var realModels = []struct{ name, pack string }{
	{"USE-Lite", "use-lite.vecpack"},
	{"GloVe", "wink-sg-100d.vecpack"},
}

// packEmbedder replays a vector pack and counts the texts it has no
// vector for.
type packEmbedder struct {
	*vecpack.Pack
	misses *atomic.Int64
}

func (p packEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	v, err := p.Pack.Embed(ctx, texts)
	if errors.Is(err, vecpack.ErrNoVector) {
		p.misses.Add(1)
	}
	return v, err
}

// semanticOver returns the semantic strategy over the recorded vectors of
// pack, with every tool of reg embedded, and the count of texts it asked
// for that the pack lacks.
func semanticOver(t *testing.T, pack string, reg *toolsearch.Registry) (*semantic.Strategy, *atomic.Int64) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "vectors", pack))
	require.NoError(t, err)
	p, err := vecpack.Read(f)
	f.Close()
	require.NoError(t, err, pack)
	emb := packEmbedder{p, &atomic.Int64{}}
	st, err := semantic.New(emb, nil)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	// The Searcher is kept until the test ends: the registry's index for
	// st is held weakly, and one built again after a collection would
	// rank by keywords until its tools are embedded again.
	keep := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st})
	keep.Prepare()
	t.Cleanup(func() { runtime.KeepAlive(keep) })
	require.NoError(t, st.Wait(context.Background()),
		"%s lacks vectors of the tools: remake it (testdata/vectors/README.md)", pack)
	return st, emb.misses
}
