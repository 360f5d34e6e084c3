package toolsearch

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLargeBatchBuiltInParallel registers a batch large enough for entries,
// the pool order and the name indexes to be built on several goroutines
// (run with -race), and checks the result against the same registry built
// one tool at a time on the serial paths: the same pool order, the same
// name, alias and lowercased-name lookups, the same search results, and
// the errors of the batch's bad tools reported as before.
func TestLargeBatchBuiltInParallel(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs GOMAXPROCS ≥ 2")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	n := parallelBuild + 1000
	tools := make([]Tool, n)
	for i := range tools {
		name := fmt.Sprintf("tool_%d_%s", rng.IntN(n*4), []string{"Get", "list", "SEND", "Mail"}[i%4])
		if i%3 == 0 {
			name = fmt.Sprintf("mcp__srv%d__Tool%d", i%50, i)
		}
		tools[i] = Tool{Name: name + fmt.Sprint(i), Description: fmt.Sprintf("word%d and word%d", i%97, i%13)}
		if i%500 == 0 {
			tools[i].Aliases = []string{fmt.Sprintf("alias%d", i)}
		}
	}
	rng.Shuffle(len(tools), func(i, j int) { tools[i], tools[j] = tools[j], tools[i] })

	big, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	var small Registry
	for start := 0; start < n; start += 1000 { // below parallelBuild: serial paths, patched snapshots
		require.NoError(t, small.Register(tools[start:min(start+1000, n)]...))
	}
	a, b := big.load(), small.load()
	require.True(t, slices.IsSortedFunc(slices.Collect(a.pool.All()), poolCompare))
	require.Equal(t, entryNames(slices.Collect(b.pool.All())), entryNames(slices.Collect(a.pool.All())))
	for _, tl := range tools {
		require.Equal(t, tl.Name, a.named(tl.Name).tool.Name)
		lower := a.named(tl.Name).lowerName
		require.Equal(t, entryNames(b.lowered(lower)), entryNames(a.lowered(lower)))
		for _, al := range tl.Aliases {
			require.Equal(t, tl.Name, a.aliased(al).tool.Name)
		}
	}
	for _, q := range []string{"word5", "word12 word3", "mail", "+send word7"} {
		ra, err := NewSearcher(big, nil).Search(q, 10)
		require.NoError(t, err)
		rb, err := NewSearcher(&small, nil).Search(q, 10)
		require.NoError(t, err)
		require.Equal(t, matchNames(rb), matchNames(ra), q)
	}

	// A large batch with bad tools is refused with every problem named.
	bad := slices.Clone(tools)
	bad[7].Name = "bad name"
	bad[parallelBuild].Name = bad[3].Name
	_, err = NewRegistry(nil, bad...)
	require.ErrorContains(t, err, `register "bad name"`)
	require.ErrorContains(t, err, fmt.Sprintf("%q is also given for %q in the same call", bad[3].Name, bad[3].Name))
}
