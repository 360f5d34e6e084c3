package toolsearch

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var sweep = flag.Bool("sweep", false, "TestHybridSweep: measure the hybrid weights one at a time on the even split")

// sweepSet is one query set of the sweep: a registry (every tool deferred)
// and its queries.
type sweepSet struct {
	name     string
	reg      *Registry
	queries  []string
	relevant [][]string
}

// loadSweepSet reads a dataset file; a file without tools is over the demo
// catalog. With even, only its even-numbered queries (0-based) are kept.
func loadSweepSet(t testing.TB, path string, even bool) sweepSet {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc struct {
		Tools   json.RawMessage `json:"tools"`
		Queries []struct {
			Query    string   `json:"query"`
			Relevant []string `json:"relevant"`
		} `json:"queries"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	var tools []Tool
	if len(doc.Tools) > 0 {
		tools, err = ParseCatalog(data)
		require.NoError(t, err)
	} else {
		cat, err := os.ReadFile(filepath.Join("internal", "demo", "catalog.json"))
		require.NoError(t, err)
		tools, err = ParseCatalog(cat)
		require.NoError(t, err)
	}
	for i := range tools {
		tools[i].ShouldDefer, tools[i].AlwaysLoad = true, false
	}
	reg, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	s := sweepSet{name: strings.TrimSuffix(filepath.Base(path), ".json"), reg: reg}
	for i, q := range doc.Queries {
		if !even || i%2 == 0 {
			s.queries = append(s.queries, q.Query)
			s.relevant = append(s.relevant, q.Relevant)
		}
	}
	return s
}

// sweepScore is Recall@1, Recall@5 and MRR over the matches of a call.
type sweepScore struct{ r1, r5, mrr float64 }

func (s sweepSet) measure(t testing.TB, st Strategy) sweepScore {
	sr := NewSearcher(s.reg, &SearchOptions{Strategy: st})
	var out sweepScore
	for i, q := range s.queries {
		args, _ := json.Marshal(map[string]string{"query": q})
		res, err := sr.Call(args)
		if err != nil {
			continue
		}
		for j, m := range res.Matches {
			if slices.Contains(s.relevant[i], m.Name) {
				if j == 0 {
					out.r1++
				}
				out.r5++
				out.mrr += 1 / float64(j+1)
				break
			}
		}
	}
	n := float64(len(s.queries))
	return sweepScore{out.r1 / n, out.r5 / n, out.mrr / n}
}

// TestHybridSweep changes each hybrid weight alone (×0, ×0.5, ×2) and
// measures the mean Recall@5 over the even-numbered queries of the four
// benchmarks (the tuning half; the odd-numbered half is held out) and the
// per-shape sets' margins over default and bm25. It checks that no such
// change improves the mean by more than 0.005 while keeping hybrid at
// least as good as default and bm25 on every shape: the weights are a
// local optimum on the tuning half. It runs only with -sweep (a minute or
// more): go test -run TestHybridSweep -sweep -v .
func TestHybridSweep(t *testing.T) {
	if !*sweep {
		t.Skip("the weight sweep runs with -sweep")
	}
	var bench, shapes []sweepSet
	for _, n := range []string{"seal_tools", "bfcl", "livemcpbench", "metatool"} {
		bench = append(bench, loadSweepSet(t, filepath.Join("testdata", "bench", n+".json"), true))
	}
	paths, _ := filepath.Glob(filepath.Join("testdata", "quality", "*.json"))
	for _, p := range paths {
		shapes = append(shapes, loadSweepSet(t, p, false))
	}
	floor := map[string]sweepScore{}
	for _, s := range shapes {
		d, b := s.measure(t, DefaultStrategy()), s.measure(t, BM25Strategy(nil))
		floor[s.name] = sweepScore{max(d.r1, b.r1), max(d.r5, b.r5), max(d.mrr, b.mrr)}
	}
	run := func(label string, p hybridParams) (mean, worst float64) {
		var line strings.Builder
		sum := 0.0
		for _, s := range bench {
			r := s.measure(t, hybridStrategy{p})
			sum += r.r5
			fmt.Fprintf(&line, " %s %.4f", s.name, r.r5)
		}
		worst = 1.0
		where := ""
		var shapeSum sweepScore
		for _, s := range shapes {
			r, f := s.measure(t, hybridStrategy{p}), floor[s.name]
			shapeSum.r1 += r.r1 / float64(len(shapes))
			shapeSum.mrr += r.mrr / float64(len(shapes))
			for _, m := range []struct {
				name string
				d    float64
			}{{"R@1", r.r1 - f.r1}, {"R@5", r.r5 - f.r5}, {"MRR", r.mrr - f.mrr}} {
				if m.d < worst {
					worst = m.d
				}
				if m.d < -1e-9 {
					where += fmt.Sprintf(" %s/%s%+.2f", s.name, m.name, m.d)
				}
			}
		}
		mean = sum / float64(len(bench))
		t.Logf("%-22s mean %.4f |%s | shapes R@1 %.4f MRR %.4f worst %+.3f:%s", label, mean, line.String(), shapeSum.r1, shapeSum.mrr, worst, where)
		return mean, worst
	}
	base, baseWorst := run("defaults", hybridDefaults)
	require.GreaterOrEqual(t, baseWorst, 0.0, "the defaults keep hybrid at least as good as default and bm25 on every shape")
	fields := []struct {
		name string
		f    func(*hybridParams) *float64
	}{
		{"name", func(p *hybridParams) *float64 { return &p.name }},
		{"namePart", func(p *hybridParams) *float64 { return &p.namePart }},
		{"typo", func(p *hybridParams) *float64 { return &p.typo }},
		{"lead", func(p *hybridParams) *float64 { return &p.lead }},
		{"arg", func(p *hybridParams) *float64 { return &p.arg }},
		{"stop", func(p *hybridParams) *float64 { return &p.stop }},
		{"k1", func(p *hybridParams) *float64 { return &p.k1 }},
		{"b", func(p *hybridParams) *float64 { return &p.b }},
		{"coverage", func(p *hybridParams) *float64 { return &p.coverage }},
		{"nameCover", func(p *hybridParams) *float64 { return &p.nameCover }},
	}
	for _, f := range fields {
		for _, m := range []float64{0, 0.5, 2} {
			p := hybridDefaults
			v := f.f(&p)
			*v *= m
			label := fmt.Sprintf("%s=%.3g", f.name, *v)
			if mean, worst := run(label, p); worst >= 0 {
				assert.LessOrEqual(t, mean, base+0.005, "%s beats the defaults on the tuning half", label)
			}
		}
	}
}
