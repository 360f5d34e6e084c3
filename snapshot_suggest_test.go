package toolsearch

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/text"
)

// suggestBrute is the rule of snapshot_suggest.go applied to every tool of the
// pool: what the index must find.
func suggestBrute(pool []*entry, name string, in func(*entry) bool) []string {
	q := text.FoldName(name)
	if q == "" {
		return nil
	}
	limit := max(2, len(q)/4)
	type cand struct {
		name      string
		dist, pos int
	}
	var cs []cand
	for i, e := range pool {
		if !in(e) {
			continue
		}
		if d := nameDistance(text.FoldName(e.tool.Name), q, limit, limit, querywork.New(1<<40)); d >= 0 {
			cs = append(cs, cand{e.tool.Name, d, i})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.dist - b.dist })
	out := []string{}
	for _, c := range cs[:min(len(cs), maxSuggestions)] {
		out = append(out, c.name)
	}
	return out
}

// TestSuggestEqualsBruteForce: the indexed search for close names finds
// exactly what comparing the name with every tool finds, for random
// catalogs and names (near misses, substrings, short and long names,
// characters no tool has).
func TestSuggestEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	parts := []string{"get", "set", "list", "create", "issue", "read", "file", "a", "ab", "x1", "mcp", "slack", "send", "message", "q", "zz"}
	word := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteString([]string{"_", "", "-", "."}[rng.IntN(4)])
			}
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		return b.String()
	}
	mutate := func(s string) string {
		b := []byte(s)
		for range 1 + rng.IntN(3) {
			if len(b) == 0 {
				break
			}
			i := rng.IntN(len(b))
			switch rng.IntN(4) {
			case 0:
				b = slices.Delete(b, i, i+1)
			case 1:
				b = slices.Insert(b, i, "abcxyz$é"[rng.IntN(8)])
			case 2:
				b[i] = "abcdefgh"[rng.IntN(8)]
			default:
				b[i] = byte(strings.ToUpper(string(b[i]))[0])
			}
		}
		return string(b)
	}
	checked := 0
	for round := range 80 {
		seen := map[string]bool{}
		var tools []Tool
		for range 5 + rng.IntN(200) {
			n := word(1 + rng.IntN(4))
			if round%4 == 3 { // many names alike, numbered
				n = fmt.Sprintf("mcp__srv%d__read_file_%d", rng.IntN(10), rng.IntN(300))
			} else if rng.IntN(3) == 0 {
				n = "mcp__s" + fmt.Sprint(rng.IntN(3)) + "__" + strings.ReplaceAll(n, ".", "_")
			}
			if seen[n] || checkName(n) != nil {
				continue
			}
			seen[n] = true
			tools = append(tools, Tool{Name: n, ShouldDefer: rng.IntN(2) == 0})
		}
		r, err := NewRegistry(nil, tools...)
		require.NoError(t, err)
		snap := r.load()
		in := everything
		if round%3 == 1 {
			in = func(e *entry) bool { return len(e.tool.Name)%2 == 0 }
		}
		for range 100 {
			var name string
			switch rng.IntN(4) {
			case 0:
				name = word(1 + rng.IntN(5))
			case 1:
				n := tools[rng.IntN(len(tools))].Name
				name = n[:min(len(n), 1+rng.IntN(3))]
			default:
				name = mutate(tools[rng.IntN(len(tools))].Name)
			}
			got, complete := snap.closeNames(name, in, querywork.New(1<<40))
			require.True(t, complete)
			want := suggestBrute(slices.Collect(snap.pool.All()), name, in)
			if len(want) == 0 {
				want = nil
			}
			if len(got) == 0 {
				got = nil
			}
			require.Equal(t, want, got, "closeNames(%q) over %d tools", name, len(tools))
			checked++
		}
	}
	assert.Equal(t, 8000, checked)
}

// TestSuggestionsAreBounded: names near every tool of a large catalog (32
// near misses cost seconds at 10k tools) are answered within
// MaxQueryWork; a query that runs out says so.
func TestSuggestionsAreBounded(t *testing.T) {
	const n = 5000
	tools := make([]Tool, n)
	for i := range tools {
		tools[i] = Tool{Name: fmt.Sprintf("mcp__srv%d__read_file_%d", i%50, i)}
	}
	r, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	var names []string
	for i := range 32 {
		names = append(names, fmt.Sprintf("mcp__srv%d__read_fil_%d", i, i*7))
	}
	query := "select:" + strings.Join(names, ",")
	res := search(t, NewSearcher(r, nil), query, 0)
	assert.Len(t, res.NotFound, 32)
	assert.Len(t, res.Suggestions, 32, "every name gets close names")
	assert.Empty(t, res.Notes)
	assert.Equal(t, "mcp__srv0__read_file_0", res.Suggestions[names[0]][0])

	tight := NewSearcher(r, &SearchOptions{MaxQueryWork: 200_000})
	res = search(t, tight, query, 0)
	assert.Len(t, res.NotFound, 32, "names not found are still reported")
	assert.Less(t, len(res.Suggestions), 32)
	assert.Contains(t, res.Notes, suggestionsCut(), "a query that runs out says so")
}
