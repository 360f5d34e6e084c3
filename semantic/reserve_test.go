package semantic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// topOf returns the tools of the best k hits (k < 0: all) in scope (score
// above 0 and in q.in), by score then tool, as the Searcher keeps them.
func topOf(hs []toolsearch.Hit, k int, in func(int) bool) []int {
	hs = slices.DeleteFunc(slices.Clone(hs), func(h toolsearch.Hit) bool { return !(h.Score > 0) || in != nil && !in(h.Tool) })
	slices.SortFunc(hs, func(a, b toolsearch.Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return a.Tool - b.Tool
	})
	if k >= 0 {
		hs = hs[:min(k, len(hs))]
	}
	out := []int{}
	for _, h := range hs {
		out = append(out, h.Tool)
	}
	return out
}

// wantReserved returns the best k of fused (the fusion's hits with every
// hit kept) as the reserve puts them: the k − 1 best, then the nearest
// tool of sem within fuseReserveNear of sem[0]'s cosine that is a hit in
// scope and not among them, if any, else the kth; as they are when k < 2,
// when k or fewer are in scope, or when the (k−1)th and kth scores are
// equal.
func wantReserved(fused []toolsearch.Hit, sem []semHit, k int, in func(int) bool) []int {
	all := topOf(fused, -1, in)
	if k < 2 || len(all) <= k {
		return topOf(fused, k, in)
	}
	score := map[int]float64{}
	for _, h := range fused {
		score[h.Tool] = h.Score
	}
	if score[all[k-2]] == score[all[k-1]] {
		return all[:k]
	}
	out := slices.Clone(all[:k-1])
	for _, sh := range sem {
		if sh.cos < sem[0].cos-fuseReserveNear {
			break
		}
		if slices.Contains(all, sh.tool) && !slices.Contains(out, sh.tool) {
			return append(out, sh.tool)
		}
	}
	return append(out, all[k-1])
}

// TestFusionReserveRandom: on random hybrid hits (equal scores, scores of
// 0) and embedding rankings (equal cosines, tools the words do not match,
// tools of no hit), scopes that leave out many tools, with and without a
// required term, for k from 0 to above collectAllAbove and above the
// hits: the fusion's best k are those of wantReserved over the same
// fusion with every hit kept, the other scores unchanged, and no tool is
// returned twice.
func TestFusionReserveRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	fu := fusion{max: 0.9}
	reserved := 0
	for round := range 20000 {
		nt := 2 + rng.IntN(90)
		var hits []toolsearch.Hit
		for tool := range nt {
			if rng.IntN(3) > 0 {
				s := float64(1 + rng.IntN(6))
				if rng.IntN(2) == 0 {
					s = rng.Float64() * 8
				}
				if rng.IntN(40) == 0 {
					s = 0
				}
				hits = append(hits, toolsearch.Hit{Tool: tool, Score: s, Rules: toolsearch.RuleHint})
			}
		}
		rng.Shuffle(len(hits), func(i, j int) { hits[i], hits[j] = hits[j], hits[i] })
		perm := rng.Perm(nt + 10) // tools past nt: in no hit
		sem := make([]semHit, 1+rng.IntN(min(len(perm), 40)))
		cos := 0.3 + 0.6*rng.Float32()
		for i := range sem {
			sem[i] = semHit{tool: perm[i], cos: cos}
			if rng.IntN(3) > 0 {
				cos -= 0.05 * rng.Float32()
			}
			if rng.IntN(5) == 0 {
				cos -= 0.2
			}
		}
		var in func(int) bool
		if rng.IntN(2) == 0 {
			mod := 2 + rng.IntN(4)
			in = func(pos int) bool { return pos%mod == 0 }
		}
		ks := []int{-1, 0, 1, 2, 3, 5, 10, 64, 65, 70, 200}
		k := ks[rng.IntN(len(ks))]
		q := queryShape{words: 7 + rng.IntN(3), required: rng.IntN(4) == 0, k: k, in: in}
		all := q
		all.k = -1
		fused := fu.apply(slices.Clone(hits), 0, sem, all)
		got := fu.apply(slices.Clone(hits), 0, sem, q)
		msg := fmt.Sprintf("round %d: k %d, %d hits, %d near, share %.3f", round, k, len(hits), len(sem), fu.share(hits, sem, q))
		require.Len(t, got, len(fused), msg)
		seen := map[int]bool{}
		for _, h := range got {
			require.False(t, seen[h.Tool], "%s: tool %d twice", msg, h.Tool)
			seen[h.Tool] = true
		}
		want := topOf(fused, k, in)
		if fu.share(hits, sem, q) >= fuseReserve {
			want = wantReserved(fused, sem, k, in)
		}
		gotTop := topOf(got, k, in)
		require.Equal(t, want, gotTop, msg)
		if !slices.Equal(want, topOf(fused, k, in)) {
			reserved++
		}
		moved := 0
		for i := range got {
			require.Equal(t, fused[i].Tool, got[i].Tool, msg)
			// (Hits of score 0 alone give NaN scores, which no Searcher keeps.)
			if got[i].Score != fused[i].Score && !(math.IsNaN(got[i].Score) && math.IsNaN(fused[i].Score)) {
				moved++
				require.Greater(t, got[i].Score, fused[i].Score, "%s: tool %d raised", msg, got[i].Tool)
			}
		}
		require.LessOrEqual(t, moved, 1, msg)
		if q.required {
			for _, h := range got {
				require.True(t, slices.ContainsFunc(hits, func(l toolsearch.Hit) bool { return l.Tool == h.Tool }), "%s: tool %d is no hybrid hit", msg, h.Tool)
			}
		}
	}
	require.Greater(t, reserved, 500, "the reserve moved a tool")
}

// TestSearcherReserveRandom: through Searcher.Call, on small registries
// with a test embedder, random queries (with and without a required word)
// with max_results from 1 to past collectAllAbove, with and without a
// scope that leaves out most tools: a result never has more matches than
// max_results, nor a tool twice, nor one out of scope; with a required
// word, only tools the hybrid strategy matches with it; the same call
// gives the same result; and the reserve changes only the last place:
// the first max_results − 1 matches are those of every match kept.
func TestSearcherReserveRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	vocab := []string{"file", "read", "write", "issue", "list", "create", "delete", "repo", "branch", "merge",
		"image", "photo", "resize", "send", "mail", "message", "channel", "search", "query", "table",
		"row", "column", "chart", "user", "team", "calendar", "event", "note", "page", "draft"}
	words := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = vocab[rng.IntN(len(vocab))]
		}
		return out
	}
	moved := 0
	for reg := range 6 {
		var tools []toolsearch.Tool
		nt := 20 + rng.IntN(100)
		for i := range nt {
			w := words(2)
			tools = append(tools, toolsearch.NewMCPTool(fmt.Sprintf("s%d", i%5), fmt.Sprintf("%s_%s_%d", w[0], w[1], i),
				"Does "+joinWords(words(3+rng.IntN(6)))+".", nil, nil))
		}
		r, err := toolsearch.NewRegistry(nil, tools...)
		require.NoError(t, err)
		st, err := New(newTestEmbedder(), nil)
		require.NoError(t, err)
		t.Cleanup(func() { st.Close() })
		var allow []string
		for _, tl := range tools {
			if rng.IntN(4) == 0 {
				allow = append(allow, tl.Name)
			}
		}
		for _, scope := range []*toolsearch.Scope{nil, {Allow: allow}} {
			opts := &toolsearch.SearchOptions{Strategy: st, Scope: scope, MaxResultsCap: 200}
			s := toolsearch.NewSearcher(r, opts)
			s.Prepare()
			require.NoError(t, st.Wait(t.Context()))
			hyb := toolsearch.NewSearcher(r, &toolsearch.SearchOptions{Strategy: toolsearch.HybridStrategy(), Scope: scope, MaxResultsCap: 200})
			inScope := map[string]bool{}
			for _, n := range allow {
				inScope[n] = true
			}
			for range 150 {
				ws := words(7 + rng.IntN(3))
				required := rng.IntN(3) == 0
				if required {
					ws[rng.IntN(len(ws))] = "+" + vocab[rng.IntN(len(vocab))]
				}
				query := joinWords(ws)
				k := []int{1, 2, 3, 5, 8, 64, 65, 70}[rng.IntN(8)]
				call := func(s *toolsearch.Searcher, k int) *toolsearch.Result {
					res, err := s.Call([]byte(fmt.Sprintf(`{"query": %q, "max_results": %d}`, query, k)))
					require.NoError(t, err, query)
					return res
				}
				msg := fmt.Sprintf("registry %d, scope %v, %q, max_results %d", reg, scope != nil, query, k)
				res := call(s, k)
				require.LessOrEqual(t, len(res.Matches), k, msg)
				seen := map[string]bool{}
				for _, m := range res.Matches {
					require.False(t, seen[m.Name], "%s: %s twice", msg, m.Name)
					seen[m.Name] = true
					require.True(t, scope == nil || inScope[m.Name], "%s: %s out of scope", msg, m.Name)
				}
				require.Equal(t, res, call(s, k), "%s: the same call, the same result", msg)
				if required {
					matched := map[string]bool{}
					for _, m := range call(hyb, 200).Matches {
						matched[m.Name] = true
					}
					for _, m := range res.Matches {
						require.True(t, matched[m.Name], "%s: %s lacks the required word", msg, m.Name)
					}
				}
				every := names(call(s, 200)) // every match kept: no reserve
				require.Less(t, len(every), 200, msg)
				got := names(res)
				if len(got) > 0 {
					require.Equal(t, every[:len(got)-1], got[:len(got)-1], "%s: the reserve moves only the last place", msg)
					require.Contains(t, every, got[len(got)-1], msg)
					if got[len(got)-1] != every[len(got)-1] {
						moved++
					}
				}
			}
		}
	}
	t.Logf("moved %d", moved)
	require.Greater(t, moved, 20, "the reserve moved tools")
}

func joinWords(ws []string) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += " "
		}
		out += w
	}
	return out
}

// The reserved tool takes the kth place even when the (k−1)th and kth
// scores are adjacent floats, with no float halfway between them.
func TestReserveBetweenAdjacentScores(t *testing.T) {
	below := 0.7
	above := math.Nextafter(below, 1)
	hits := []toolsearch.Hit{{Tool: 0, Score: 1}, {Tool: 1, Score: above}, {Tool: 2, Score: below}, {Tool: 3, Score: 0.1}}
	reserve(hits, []semHit{{tool: 3, cos: 0.5}}, queryShape{k: 3})
	require.Equal(t, []int{0, 1, 3}, topOf(hits, 3, nil), "tool 3 is third: %v", hits)
}
