package semantic

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// manyTools returns n MCP tools of server srv with distinct texts.
func manyTools(srv string, n int) []toolsearch.Tool {
	out := make([]toolsearch.Tool, n)
	for i := range out {
		out[i] = toolsearch.NewMCPTool(srv, fmt.Sprintf("tool_%d", i), fmt.Sprintf("Does thing number %d with widgets.", i), nil, nil)
	}
	return out
}

// When most of a table's rows are no longer used, the next index copies
// the used ones into new vectors; searches of the old index are not
// disturbed, and nothing is embedded again.
func TestSemanticCompaction(t *testing.T) {
	emb := newTestEmbedder()
	reg, err := toolsearch.NewRegistry(nil, manyTools("big", 3000)...)
	require.NoError(t, err)
	sem, err := New(emb, nil)
	require.NoError(t, err)
	defer sem.Close()
	st := &recording{Strategy: sem}
	s := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st})
	s.Prepare()
	require.NoError(t, st.Wait(context.Background()))
	old := search(t, s, "thing number 2999")
	assert.Equal(t, "mcp__big__tool_2999", old.Matches[0].Name)
	emb.embeddedTexts()
	before, oldCorpus := st.lastIndex(s), corpusOf(reg)

	_, err = reg.SetServerTools("big", manyTools("big", 100))
	require.NoError(t, err)
	s.Prepare()
	require.NoError(t, st.Wait(context.Background()))
	assert.Empty(t, emb.embeddedTexts(), "the kept tools are not embedded again")
	x := st.lastIndex(s)
	x.tab.mu.Lock()
	assert.Len(t, x.tab.keys, 100, "the table was compacted to the rows in use")
	assert.Equal(t, 100, x.vecs.Len())
	x.tab.mu.Unlock()
	res := search(t, s, "thing number 42")
	assert.Equal(t, "mcp__big__tool_42", res.Matches[0].Name)
	assert.Empty(t, res.Notes)

	// The index of the old version (a search that started before the
	// change) still searches its own vectors.
	hits, notes, err := before.Rank(context.Background(), toolsearch.Query{Text: "thing number 2999", K: -1}, nil)
	require.NoError(t, err)
	assert.Empty(t, notes)
	best := slices.MaxFunc(hits, func(a, b toolsearch.Hit) int { return cmp.Compare(a.Score, b.Score) })
	assert.Equal(t, "mcp__big__tool_2999", oldCorpus[best.Tool].Name)
}

// recording is a Strategy that keeps the last index it built.
type recording struct {
	*Strategy
	mu   sync.Mutex
	last *index
}

func (r *recording) Index(c *toolsearch.Corpus) toolsearch.Index { return r.keep(r.Strategy.Index(c)) }

// keep records x, an index of the semantic strategy.
func (r *recording) keep(x toolsearch.Index) toolsearch.Index {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last = x.(*index)
	return recordingIndex{r.last, r}
}

// recordingIndex is an index whose updates its recording keeps.
type recordingIndex struct {
	*index
	r *recording
}

func (x recordingIndex) Update(c *toolsearch.Corpus) toolsearch.Index {
	return x.r.keep(x.index.Update(c))
}

// lastIndex returns the index of s's registry's current version.
func (r *recording) lastIndex(s *toolsearch.Searcher) *index {
	s.Prepare()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// corpusOf returns the deferred tools of reg in pool order, the corpus
// its indexes are built over.
func corpusOf(reg *toolsearch.Registry) []toolsearch.Tool {
	var c []toolsearch.Tool
	for t := range reg.Tools() {
		if t.Deferred() {
			c = append(c, t)
		}
	}
	return c
}

// Searches, registry changes and the background embedding run at once
// (run with -race); at the end every tool is embedded once and found.
func TestSemanticConcurrent(t *testing.T) {
	base := runtime.NumGoroutine()
	emb := newTestEmbedder()
	reg, err := toolsearch.NewRegistry(nil, manyTools("a", 200)...)
	require.NoError(t, err)
	st, err := New(emb, &Options{BatchSize: 16})
	require.NoError(t, err)
	searchers := []*toolsearch.Searcher{
		toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st}),
		toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st, Scope: &toolsearch.Scope{Allow: []string{"*"}, IncludeDeferred: true}}),
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				res, err := searchers[g%2].Search(fmt.Sprintf("widgets thing %d", i), 3)
				if !assert.NoError(t, err) {
					return
				}
				assert.LessOrEqual(t, len(res.Matches), 3)
			}
		})
	}
	wg.Go(func() {
		for i := range 20 {
			_, err := reg.SetServerTools("b", manyTools("b", 10+i))
			assert.NoError(t, err)
			reg.SetServerStatus("a", toolsearch.ServerStatus(i%3))
		}
		reg.SetServerStatus("a", toolsearch.ServerConnected)
	})
	wg.Wait()
	searchers[0].Prepare()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	require.NoError(t, st.Wait(ctx))
	res := search(t, searchers[0], "thing number 150")
	assert.Equal(t, "mcp__a__tool_150", res.Matches[0].Name)
	assert.Empty(t, res.Notes, "every tool is embedded")

	texts := emb.embeddedTexts()
	seen := map[string]int{}
	for _, tx := range texts {
		seen[tx]++
	}
	for tx, n := range seen {
		if n > 1 && !slices.Contains([]string{"thing number 150"}, tx) && !isQuery(tx) {
			t.Errorf("%q embedded %d times", tx, n)
		}
	}
	require.NoError(t, st.Close())
	settles(t, base, "after Close")
}

// A tool text whose vector its table got after the index looked for it
// (a batch delivered between the index's look and its enqueue, then taken
// off the pending jobs) is not queued again: it would be embedded twice.
func TestEnqueueSkipsAVectorDeliveredMeanwhile(t *testing.T) {
	emb := newTestEmbedder()
	st, err := New(emb, nil)
	require.NoError(t, err)
	defer st.Close()
	k := KeyOf(emb.Model(), "a tool")
	tab := newTable(emb.Dimensions())
	x := &index{keys: []Key{k}}
	missing := tab.attach(x, nil, nil)
	require.Equal(t, []int32{0}, missing, "the index looked, and found no vector")
	vecs, err := emb.hashEmbedder.Embed(context.Background(), []string{"a tool"})
	require.NoError(t, err)
	tab.mu.Lock()
	require.NoError(t, tab.add([]Key{k}, vecs), "the delivery of the vector")
	tab.mu.Unlock()

	st.work.enqueue(tab, []job{{key: k, text: "a tool"}})
	require.NoError(t, st.Wait(context.Background()))
	assert.Zero(t, emb.calls.Load(), "Embed calls")
	assert.Equal(t, 1, x.vecs.Len(), "the table's rows")
}

func isQuery(s string) bool { return len(s) > 0 && s[0] == 'w' } // "widgets thing N"

// The fusion's arithmetic, on a hand-made case.
func TestFusion(t *testing.T) {
	hits := func() []toolsearch.Hit {
		return []toolsearch.Hit{{Tool: 3, Score: 1, Rules: toolsearch.RuleHint}, {Tool: 1, Score: 5, Rules: toolsearch.RulePartExact}, {Tool: 2, Score: 1}}
	}
	sem := []semHit{{tool: 2, cos: 0.9}, {tool: 7, cos: 0.8}, {tool: 1, cos: 0.5}}
	byTool := func(hs []toolsearch.Hit) map[int]toolsearch.Hit {
		m := map[int]toolsearch.Hit{}
		for _, h := range hs {
			m[h.Tool] = h
		}
		return m
	}

	rrf := rrf{k: 60, w: 1} // the sweep's alternative
	got := byTool(rrf.apply(hits(), 0, sem, queryShape{words: 6}))
	require.Len(t, got, 4)
	// Hybrid ranks: 1 (score 5), then 2 and 3 tied, in pool order: 2, 3.
	assert.InDelta(t, 1.0/61+1.0/63, got[1].Score, 1e-12)
	assert.InDelta(t, 1.0/62+1.0/61, got[2].Score, 1e-12)
	assert.InDelta(t, 1.0/63, got[3].Score, 1e-12)
	assert.InDelta(t, 1.0/62, got[7].Score, 1e-12)
	assert.Equal(t, toolsearch.RulePartExact|toolsearch.RuleSemantic, got[1].Rules)
	assert.Equal(t, toolsearch.RuleHint, got[3].Rules)
	assert.Equal(t, toolsearch.RuleSemantic, got[7].Rules)

	got = byTool(rrf.apply(hits(), 0, sem, queryShape{words: 6, required: true}))
	assert.Len(t, got, 3, "with a required term, only the hybrid hits")
	assert.NotContains(t, got, 7)

	// The strategy's fusion. Best hybrid score 5, a query of 7 words:
	// w = 0.8/(1 + 1) = 0.4; the spread of the embedding ranking, 0.9 −
	// 0.5 = 0.4, is over fuseSpread: the whole share. A tool's part of
	// it: fuseRankPart by its place among the 3 nearest (2/3, 1/3, 0),
	// the rest by its cosine above the last over the spread (1, 0.75, 0).
	seven := queryShape{words: 7, k: -1}
	fu := fusion{max: 0.8}
	got = byTool(fu.apply(hits(), 0, sem, seven))
	require.Len(t, got, 4)
	part := func(place, cos float64) float64 { return fuseRankPart*place + (1-fuseRankPart)*cos }
	assert.InDelta(t, 0.6*1, got[1].Score, 1e-6, "the last of the nearest adds 0")
	assert.InDelta(t, 0.6*0.2+0.4*part(2.0/3, 1), got[2].Score, 1e-6, "1/5, and the first of the nearest")
	assert.InDelta(t, 0.6*0.2, got[3].Score, 1e-6)
	assert.InDelta(t, 0.4*part(1.0/3, 0.3/0.4), got[7].Score, 1e-6, "over the spread, 0.4, which is over fuseSpread")
	assert.Equal(t, toolsearch.RulePartExact|toolsearch.RuleSemantic, got[1].Rules)
	assert.Equal(t, toolsearch.RuleSemantic, got[7].Rules)
	got = byTool(fu.apply(hits(), 0, sem, queryShape{words: 7, required: true, k: -1}))
	assert.Len(t, got, 3, "with a required term, only the hybrid hits")

	// The share: halved at a best hybrid score of fuseEvidence, less for
	// a long query, none for an embedding ranking of no spread, none for
	// a query of up to fuseShort words matching a tool's name.
	flat := []semHit{{tool: 2, cos: 0.9}, {tool: 7, cos: 0.85}}
	assert.InDelta(t, 0.4, fu.share(hits(), sem, seven), 1e-9)
	assert.InDelta(t, 0.8, fu.share(nil, sem, seven), 1e-9, "no word matched: the whole weight")
	assert.InDelta(t, 0.4*30/60, fu.share(hits(), sem, queryShape{words: 60}), 1e-9)
	assert.Zero(t, fu.share(hits(), flat, seven), "a spread of 0.05, under fuseFloor")
	assert.InDelta(t, 0.4*(0.2-fuseFloor)/(fuseSpread-fuseFloor), fu.share(hits(), []semHit{{2, 0.9}, {7, 0.7}}, seven), 1e-6)
	assert.Zero(t, fu.share(hits(), sem, queryShape{words: 2}), "tool 1, the best, matched on its name")
	assert.Zero(t, fu.share(hits(), sem, queryShape{words: fuseShort}), "fuseShort words, the best matched on its name")
	assert.InDelta(t, 0.8/(1+0.04), fu.share([]toolsearch.Hit{{Tool: 3, Score: 1, Rules: toolsearch.RuleHint}}, sem, queryShape{words: 2}), 1e-9,
		"a short query matching only a description")
	assert.Equal(t, hits(), fu.apply(hits(), 0, sem, queryShape{words: 2, k: 5}), "a share of 0 leaves the hybrid hits as they are")
	strong := []toolsearch.Hit{{Tool: 3, Score: 30, Rules: toolsearch.RuleHint}}
	assert.Zero(t, fu.share(strong, sem, seven), "0.8/(1 + 6²), under fuseMinShare")
	assert.InDelta(t, 0.8/(1+4), fu.share([]toolsearch.Hit{{Tool: 3, Score: 10, Rules: toolsearch.RuleHint}}, sem, seven), 1e-9, "0.8/(1 + 2²), over fuseMinShare")
	// A query vector that points at no tool: the spread, 0.4, over the
	// best cosine, 0.2, is 2, over fuseLost; 1.3 is between fuseAstray
	// and fuseLost; a best cosine of 0 or less leaves nothing.
	assert.Zero(t, fu.share(nil, []semHit{{2, 0.2}, {7, -0.2}}, seven), "spread/c1 = 2")
	assert.InDelta(t, 0.8*(fuseLost-1.3)/(fuseLost-fuseAstray), fu.share(nil, []semHit{{2, 0.3}, {7, -0.09}}, seven), 1e-6, "spread/c1 = 1.3")
	assert.InDelta(t, 0.8, fu.share(nil, []semHit{{2, 0.3}, {7, -0.06}}, seven), 1e-6, "spread/c1 = 1.2")
	assert.Zero(t, fu.share(nil, []semHit{{2, -0.1}, {7, -0.6}}, seven), "no tool on the query's side")

	// Weight 1: the embedding ranking alone, best first.
	alone := fusion{max: 1}
	out := alone.apply(hits(), 0, sem, seven)
	require.Len(t, out, 3)
	for i, want := range []int{2, 7, 1} {
		assert.Equal(t, want, out[i].Tool)
		assert.Equal(t, toolsearch.RuleSemantic, out[i].Rules)
	}
	assert.Greater(t, out[0].Score, out[1].Score)
	assert.Greater(t, out[1].Score, out[2].Score)
	assert.Greater(t, out[2].Score, 0.0)
	got = byTool(alone.apply(hits(), 0, sem, queryShape{words: 6, required: true}))
	require.Len(t, got, 3, "with a required term, the hybrid hits")
	assert.Greater(t, got[2].Score, got[1].Score, "ordered by the embedding")
	assert.Greater(t, got[1].Score, got[3].Score, "tool 3, not in the embedding ranking, last")

	// No embedding ranking: the hybrid hits as they are.
	assert.Equal(t, hits(), fu.apply(hits(), 0, nil, seven))

	// The hits before base are left alone.
	for _, f := range []fuser{rrf, fu, alone} {
		pre := append([]toolsearch.Hit{{Tool: 9, Score: 42}}, hits()...)
		out := f.apply(pre, 1, sem, seven)
		assert.Equal(t, toolsearch.Hit{Tool: 9, Score: 42}, out[0], "%v", f)
	}
}

// The last of the k hits kept goes to the embedding's nearest tool that
// the k − 1 best do not have.
func TestFusionReserve(t *testing.T) {
	// Hybrid: tools 0..5 with falling scores; the embedding ranks tool 5
	// (hybrid's last) nearest, then tools 0 and 6 (6: embedding only).
	hits := func() []toolsearch.Hit {
		return []toolsearch.Hit{{Tool: 0, Score: 6}, {Tool: 1, Score: 5}, {Tool: 2, Score: 4}, {Tool: 3, Score: 3.5}, {Tool: 4, Score: 3}, {Tool: 5, Score: 0.5}}
	}
	sem := []semHit{{tool: 5, cos: 0.62}, {tool: 0, cos: 0.61}, {tool: 6, cos: 0.6}, {tool: 1, cos: 0.2}}
	top := func(hs []toolsearch.Hit, q queryShape) []int { return topOf(hs, q.k, q.in) }
	fu := fusion{max: 0.9}
	// A weak word match (best score 6): w = 0.9/(1 + 1.44) ≈ 0.37, over
	// fuseReserve.
	q := queryShape{words: 8, k: 3}
	withRes := fu.apply(hits(), 0, sem, q)
	require.Greater(t, fu.share(hits(), sem, q), fuseReserve)
	got := top(withRes, q)
	require.Len(t, got, 3)
	assert.Equal(t, 5, got[2], "the embedding's nearest, not among the two best, is third")
	// Without the reserve (every hit kept), the same scores but tool 5's.
	all := fu.apply(hits(), 0, sem, queryShape{words: 8, k: -1})
	byTool := map[int]float64{}
	for _, h := range all {
		byTool[h.Tool] = h.Score
	}
	for _, h := range withRes {
		if h.Tool != 5 {
			assert.Equal(t, byTool[h.Tool], h.Score, "tool %d", h.Tool)
		}
	}
	assert.NotEqual(t, 5, top(all, queryShape{k: 3})[2], "the fusion alone does not put tool 5 third")
	// Its score lies between the second and the former third.
	assert.Equal(t, top(all, queryShape{k: 2}), got[:2])

	// Out of scope, the nearest is skipped for the next one in scope that
	// is not among the best: tool 0 is, tool 6 is next.
	in := func(pos int) bool { return pos != 5 }
	got = top(fu.apply(hits(), 0, sem, queryShape{words: 8, k: 3, in: in}), queryShape{k: 3, in: in})
	assert.Equal(t, 6, got[2])
	// A tool further than fuseReserveNear below the nearest's cosine is
	// not given the place: the nearest, tool 0, is among the best, and
	// tool 5 is 0.1 below it.
	far := []semHit{{tool: 0, cos: 0.7}, {tool: 5, cos: 0.6}, {tool: 6, cos: 0.3}, {tool: 1, cos: 0.2}}
	h := hits()
	reserve(h, far, q)
	assert.Equal(t, hits(), h)
	near := []semHit{{tool: 0, cos: 0.64}, {tool: 5, cos: 0.6}, {tool: 6, cos: 0.3}, {tool: 1, cos: 0.2}}
	reserve(h, near, q)
	assert.Equal(t, 5, top(h, q)[2], "0.04 below: it is")
	// k = 1 or every hit kept: no reserve; a strong word match (a share
	// under fuseReserve): none either.
	assert.Equal(t, top(all, queryShape{k: 1}), top(fu.apply(hits(), 0, sem, queryShape{words: 8, k: 1}), queryShape{k: 1}))
	strong := func() []toolsearch.Hit {
		h := hits()
		h[0].Score = 14 // w = 0.9/(1 + 2.8²) ≈ 0.10
		return h
	}
	require.Less(t, fu.share(strong(), sem, q), fuseReserve)
	assert.Equal(t, top(fu.apply(strong(), 0, sem, queryShape{words: 8, k: -1}), queryShape{k: 3}), top(fu.apply(strong(), 0, sem, q), q))
	// Equal scores at the cut: nothing between them, nothing moves;
	// else the nearest other tool lands halfway.
	tied := []toolsearch.Hit{{Tool: 0, Score: 3}, {Tool: 1, Score: 2}, {Tool: 2, Score: 2}, {Tool: 3, Score: 1}}
	want := slices.Clone(tied)
	reserve(tied, []semHit{{tool: 3, cos: 0.5}}, queryShape{k: 3})
	assert.Equal(t, want, tied)
	reserve(tied, []semHit{{tool: 3, cos: 0.5}}, queryShape{k: 2})
	assert.Equal(t, 2.5, tied[3].Score)
}

// Random queries: hits name tools of the corpus once each, with scores
// above 0; the same query gives the same hits; a required term keeps only
// tools the hybrid ranking matched.
func FuzzSemanticRank(f *testing.F) {
	for _, q := range []string{"git status", paraphrase, "+container run", "+", "mcp__git__", "select:x", "   ", "changes changes changes", "+zzz stash", "ÿ\x00"} {
		f.Add(q)
	}
	emb := newTestEmbedder()
	reg, err := toolsearch.NewRegistry(nil, semanticTools()...)
	require.NoError(f, err)
	sem, err := New(emb, nil)
	require.NoError(f, err)
	f.Cleanup(func() { sem.Close() })
	st := &recording{Strategy: sem}
	s := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st})
	s.Prepare()
	require.NoError(f, st.Wait(context.Background()))
	x := st.lastIndex(s)
	hyb := toolsearch.HybridStrategy().Index(toolsearch.NewCorpus(corpusOf(reg)))
	f.Fuzz(func(t *testing.T, q string) {
		hits, notes, err := x.Rank(context.Background(), toolsearch.Query{Text: q, K: -1}, nil)
		require.NoError(t, err)
		assert.Empty(t, notes, "every tool is embedded and the embedder works")
		seen := map[int]bool{}
		for _, h := range hits {
			assert.True(t, h.Tool >= 0 && h.Tool < x.n, "tool %d in range", h.Tool)
			assert.Greater(t, h.Score, 0.0)
			assert.False(t, seen[h.Tool], "tool %d once", h.Tool)
			seen[h.Tool] = true
		}
		again, _, _ := x.Rank(context.Background(), toolsearch.Query{Text: q, K: -1}, nil)
		assert.ElementsMatch(t, hits, again, "deterministic")
		if hasRequired(q) {
			lex, _, _ := hyb.Rank(context.Background(), toolsearch.Query{Text: q, K: -1}, nil)
			matched := map[int]bool{}
			for _, h := range lex {
				matched[h.Tool] = true
			}
			for _, h := range hits {
				assert.True(t, matched[h.Tool], "query %q: tool %d has every required term", q, h.Tool)
			}
		}
	})
}
