package semantic

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/eval"
	"github.com/toolsearch/toolsearch/internal/vecfile"
)

var (
	sweepVectors = flag.String("sweep-vectors", "", "vectors file (toolsearch embed) for TestFusionSweep")
	sweepCatalog = flag.String("sweep-catalog", "", "catalog for the sweep's datasets without tools")
	sweepData    = flag.String("sweep-datasets", "", "comma-separated dataset files for TestFusionSweep")
)

// fusionVariants are the fusions TestFusionSweep measures: reciprocal
// rank fusion, and the strategy's fusion at several weights (W = 1: the
// embedding ranking alone).
var fusionVariants = func() []fuser {
	var out []fuser
	for _, k := range []float64{5, 20, 60} {
		for _, w := range []float64{0.1, 0.25, 0.5, 1} {
			out = append(out, rrf{k: k, w: w})
		}
	}
	for _, w := range []float64{0.4, 0.6, 0.8, 0.9, 1} {
		out = append(out, fusion{max: w})
	}
	return out
}()

func (f fusion) String() string { return fmt.Sprintf("fusion W=%.2g", f.max) }

// rrf is reciprocal rank fusion, measured against the weighted sum:
// score = 1/(k + hybrid rank) + w/(k + embedding rank), a term left out
// for a ranking that does not have the tool; hybrid ranks by score, ties
// in pool order.
type rrf struct{ k, w float64 }

func (f rrf) String() string { return fmt.Sprintf("rrf k=%g w=%.2g", f.k, f.w) }

func (f rrf) apply(hits []toolsearch.Hit, base int, sem []semHit, q queryShape) []toolsearch.Hit {
	lex := hits[base:]
	semRank := map[int]int{}
	for i, h := range sem {
		semRank[h.tool] = i + 1
	}
	seen := make([]bool, len(sem))
	slices.SortFunc(lex, func(a, b toolsearch.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return a.Tool - b.Tool
	})
	for i := range lex {
		h := &lex[i]
		s := 1 / (f.k + float64(i+1))
		if r, ok := semRank[h.Tool]; ok {
			s += f.w / (f.k + float64(r))
			h.Rules |= toolsearch.RuleSemantic
			seen[r-1] = true
		}
		h.Score = s
	}
	if !q.required {
		for i, sh := range sem {
			if !seen[i] {
				hits = append(hits, toolsearch.Hit{Tool: sh.tool, Score: f.w / (f.k + float64(i+1)), Rules: toolsearch.RuleSemantic})
			}
		}
	}
	return hits
}

// TestFusionSweep measures each fusion variant (and the hybrid strategy
// alone) on datasets with recorded vectors, through the model's path
// (eval.Evaluate). It runs only when given the vectors:
//
//	go test ./semantic -run TestFusionSweep -v -sweep-vectors V.jsonl \
//	  -sweep-datasets a.json,b.json [-sweep-catalog catalog.json]
func TestFusionSweep(t *testing.T) {
	if *sweepVectors == "" {
		t.Skip("no -sweep-vectors")
	}
	f, err := os.Open(*sweepVectors)
	require.NoError(t, err)
	vf, err := vecfile.Read(f)
	f.Close()
	require.NoError(t, err)
	for _, path := range strings.Split(*sweepData, ",") {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		ds, err := eval.ParseDataset(data)
		require.NoError(t, err)
		tools := ds.Tools
		if tools == nil {
			data, err := os.ReadFile(*sweepCatalog)
			require.NoError(t, err)
			tools, err = toolsearch.ParseCatalog(data)
			require.NoError(t, err)
		}
		for i := range tools {
			tools[i].ShouldDefer, tools[i].AlwaysLoad = true, false
		}
		reg, err := toolsearch.NewRegistry(nil, tools...)
		require.NoError(t, err)
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		rep := eval.Evaluate(reg, &toolsearch.SearchOptions{Strategy: toolsearch.HybridStrategy()}, ds.Queries)
		t.Logf("%-14s %-16s R@1 %.3f R@5 %.3f MRR %.3f", name, "hybrid", rep.Recall1, rep.Recall5, rep.MRR)
		for _, fu := range fusionVariants {
			st, err := New(vf, nil)
			require.NoError(t, err)
			st.fuse = fu
			// One options value, and a Searcher kept while the queries
			// run: the registry's index for the strategy is held weakly,
			// and one built again would rank by keywords until its tools
			// are embedded again.
			opts := &toolsearch.SearchOptions{Strategy: st}
			keep := toolsearch.NewSearcher(reg, opts)
			keep.Prepare()
			require.NoError(t, st.Wait(context.Background()))
			rep := eval.Evaluate(reg, opts, ds.Queries)
			runtime.KeepAlive(keep)
			t.Logf("%-14s %-16s R@1 %.3f R@5 %.3f MRR %.3f  (notes %d)", name, fu, rep.Recall1, rep.Recall5, rep.MRR, rep.Noted)
			st.Close()
		}
	}
}
