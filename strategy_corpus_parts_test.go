package toolsearch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/querywork"
)

// refPartsContaining is Corpus.PartsContaining as it was written first:
// every listed part that has postings compared with strings.Contains,
// each paid for on its own.
func refPartsContaining(c *Corpus, work *querywork.Budget, term string, fn func(slot int)) {
	if !partChars(term) {
		return
	}
	ix := c.ix
	for _, id := range ix.vocab.Candidates(term) {
		if !ix.partRefs.Has(id) {
			break
		}
		pp := ix.partRefs.At(id)
		if pp == nil {
			continue
		}
		part := ix.vocab.Parts[id]
		if !work.Spend(len(part)) {
			break
		}
		if part != term && strings.Contains(part, term) {
			for s := range pp.part.All() {
				fn(int(s))
			}
			for s := range pp.mpart.All() {
				fn(int(s))
			}
		}
	}
}

// refSubstrings is index.substrings as it was written first.
func refSubstrings(ix *index, term string, work *querywork.Budget, fn func(q *postings)) bool {
	for _, id := range ix.vocab.Candidates(term) {
		part := ix.vocab.Parts[id]
		if len(part) <= len(term) {
			continue
		}
		if !work.Spend(len(part)) {
			return false
		}
		if !strings.Contains(part, term) {
			continue
		}
		if q := ix.partRefs.At(id); q != nil {
			fn(q)
		}
	}
	return true
}

// TestPartScansSpendLikeEachPart: Corpus.PartsContaining and the default
// strategy's substring scan find the same parts, in the same order, as
// comparing every candidate part with strings.Contains and paying for
// each on its own, and leave the same budget, cut or not: on every budget
// from nothing to more than the scan costs, for terms found in many parts,
// in few and in none, over a registry fresh, then with parts gone (dead,
// some without postings) and new ones added (a vocabulary extended), and
// with parts of hundreds of characters.
func TestPartScansSpendLikeEachPart(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	mk := func(i int) Tool {
		parts := []string{"xab", "abx", "create", "issue", "list", "abab", strings.Repeat("ab", 15) + "xy", "q.b-x"}
		name := fmt.Sprintf("mcp__s%d__%s_%sx%d_%s", i%3, parts[rng.IntN(len(parts))], parts[rng.IntN(len(parts))], i, parts[rng.IntN(len(parts))])
		return Tool{Name: name, Description: "d " + parts[rng.IntN(len(parts))], ShouldDefer: true}
	}
	var tools []Tool
	for i := range 300 {
		tools = append(tools, mk(i))
	}
	r, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	terms := []string{"ab", "xab", "abx", "bab", "aba", "abababab", "eat", "ssu", "x1", "x12", "q.b", "b-x", ".b-", "zzz", "abxy", "s1"}
	check := func(stage string, c *Corpus) {
		for _, term := range terms {
			// What the scans cost with no limit.
			costHybrid, costDefault := partScanCosts(c, term)
			for _, budget := range []int{0, 1, 2, 3, 5, 8, 13, 61, 62, 63, 100, 500, costHybrid / 3, costHybrid / 2, costHybrid - 1, costHybrid, costHybrid + 1, costDefault - 1, costDefault, costDefault + 1, 1 << 40} {
				requirePartScansMatch(t, stage, c, term, max(budget, 0))
			}
		}
	}
	check("fresh", corpusOf(r, r.load()))
	require.Zero(t, r.load().ix.dead)
	for round := range 6 {
		var gone []string
		for _, tl := range tools {
			if rng.IntN(4) == 0 {
				gone = append(gone, tl.Name)
			}
		}
		r.Remove(gone...)
		check(fmt.Sprintf("round %d, removed", round), corpusOf(r, r.load()))
		var add []Tool
		for i := range 40 {
			add = append(add, mk(1000*(round+1)+i))
		}
		require.NoError(t, r.Register(add...))
		tools = append(tools, add...)
		check(fmt.Sprintf("round %d, added", round), corpusOf(r, r.load()))
	}
	require.NotZero(t, r.load().ix.dead, "parts are dead")
	// Parts longer than a Key's length, in a Corpus of tools not validated.
	long := []Tool{
		{Name: "s__" + strings.Repeat("ab", 500) + "_x", Description: "d"},
		{Name: "s__" + strings.Repeat("ba", 200) + "xab_y", Description: "d"},
		{Name: "s__" + strings.Repeat("a", 255) + "b_xab", Description: "d"},
	}
	check("long parts", NewCorpus(append(long, tools[:50]...)))
}

// TestAppendPiecesEqualsTokenPieces: the ASCII cut of a query token into
// pieces gives what tokenPieces gives, on random tokens of letters,
// digits, separators and other characters, ASCII or not.
func TestAppendPiecesEqualsTokenPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	chars := []string{"a", "Z", "0", "_", "-", ".", "+", "(", "/", "é", "\u0301", "—", "x"}
	for round := range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(chars[rng.IntN(len(chars))])
		}
		tok := b.String()
		want := tokenPieces(tok)
		got := appendPieces([]string{"kept"}, tok)
		require.Equal(t, "kept", got[0], "round %d: appends", round)
		require.Equal(t, len(want), len(got)-1, "round %d: the pieces of %q", round, tok)
		for i := range want {
			require.Equal(t, want[i], got[i+1], "round %d: the pieces of %q", round, tok)
		}
	}
}

// partScanCosts returns what the hybrid and the default scans of term
// cost c's keyword index with no limit (their references').
func partScanCosts(c *Corpus, term string) (hybrid, dflt int) {
	full := querywork.New(1 << 40)
	refPartsContaining(c, full, term, func(int) {})
	hybrid = 1<<40 - full.Left()
	full = querywork.New(1 << 40)
	refSubstrings(c.ix, term, full, func(*postings) {})
	return hybrid, 1<<40 - full.Left()
}

// requirePartScansMatch checks the hybrid scan (Corpus.PartsContaining) and
// the default one (index.substrings) of term within budget against their
// references, part by part: what they find, the budget they leave, whether
// they were cut.
func requirePartScansMatch(t *testing.T, stage string, c *Corpus, term string, budget int) {
	t.Helper()
	ix := c.ix
	want := querywork.New(budget)
	var ws, gs []int
	refPartsContaining(c, want, term, func(s int) { ws = append(ws, s) })
	ctx, gw := querywork.With(context.Background(), budget)
	c.PartsContaining(ctx, term, func(s int) { gs = append(gs, s) })
	require.Equal(t, ws, gs, "%s: the slots of %q within %d", stage, term, budget)
	require.Equal(t, want.Left(), gw.Left(), "%s: the budget left by %q within %d", stage, term, budget)
	require.Equal(t, want.Cut(), gw.Cut(), "%s: %q cut within %d", stage, term, budget)

	want, got := querywork.New(budget), querywork.New(budget)
	var wq, gq []*postings
	wok := refSubstrings(ix, term, want, func(q *postings) { wq = append(wq, q) })
	gok := ix.substrings(term, got, func(q *postings) { gq = append(gq, q) })
	require.Equal(t, wok, gok, "%s: the substring scan of %q within %d", stage, term, budget)
	require.Equal(t, wq, gq, "%s: the parts of %q within %d", stage, term, budget)
	require.Equal(t, want.Left(), got.Left(), "%s: the budget left by %q within %d", stage, term, budget)
	require.Equal(t, want.Cut(), got.Cut(), "%s: %q cut within %d", stage, term, budget)
}
