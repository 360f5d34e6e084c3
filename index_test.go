package toolsearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/text"
)

// indexView is what an index says about each tool, independent of slots:
// token → field → sorted tool names, plus the live parts of the vocabulary.
type indexView struct {
	tokens map[string][fields][]string
	parts  []string
}

// viewOf returns the view of ix, and fails t when ix is not consistent.
// Its checks run once per token and posting, so they call t.Fatalf only on
// a failure: a testify call per check (t.Helper walks the stack) made
// TestIncrementalIndexEqualsRebuild spend half its time there.
func viewOf(t *testing.T, ix *index) indexView {
	t.Helper()
	v := indexView{tokens: map[string][fields][]string{}}
	n := 0
	for i, sh := range ix.shardMaps() {
		for tok, p := range sh {
			if want := tokenHash(tok) & uint64(ix.nshards-1); uint64(i) != want {
				t.Fatalf("token %q is in shard %d, not %d", tok, i, want)
			}
			var got [fields][]string
			for f := range fields {
				l := *p.list(field(f))
				checkSlotList(t, tok, f, l)
				for s := range l.All() {
					e := ix.slot(s)
					if e == nil {
						t.Fatalf("token %q lists free slot %d", tok, s)
					}
					if e.slot != s {
						t.Fatalf("token %q lists slot %d, which holds %s of slot %d", tok, s, e.tool.Name, e.slot)
					}
					got[f] = append(got[f], e.tool.Name)
				}
				slices.Sort(got[f])
				if len(slices.Compact(slices.Clone(got[f]))) != len(got[f]) {
					t.Fatalf("token %q lists a tool twice in field %d: %q", tok, f, got[f])
				}
			}
			if len(got[0])+len(got[1])+len(got[2])+len(got[3]) == 0 {
				t.Fatalf("token %q has no postings", tok)
			}
			if p.parts() > 0 && p.vid < 0 {
				t.Fatalf("part %q has no vocabulary id", tok)
			}
			if p.vid >= 0 {
				if ix.vocab.Parts[p.vid] != tok {
					t.Fatalf("vocabulary id %d of %q is %q's", p.vid, tok, ix.vocab.Parts[p.vid])
				}
				if ix.partRefs.At(p.vid) != p {
					t.Fatalf("the vocabulary id of %q does not find its postings", tok)
				}
			}
			v.tokens[tok] = got
			n++
		}
	}
	require.Equal(t, n, ix.words, "word count")
	live := 0
	for s := range int32(ix.nslots) {
		if ix.slot(s) != nil {
			live++
		}
	}
	require.Equal(t, live, ix.live, "live count")
	for id, p := range ix.vocab.Parts {
		if q := ix.lookup(p); q != nil && q.parts() > 0 {
			v.parts = append(v.parts, p)
		}
		if q := ix.partRefs.At(int32(id)); q != nil && q.vid != int32(id) {
			t.Fatalf("vocabulary id %d (%q) finds the postings of another part (id %d)", id, p, q.vid)
		}
	}
	for s := range int32(ix.nslots) {
		e := ix.slot(s)
		if e == nil {
			continue
		}
		for i := range e.parts {
			flat := e.parts[i]
			for j := i + 1; j < len(e.parts); j++ {
				flat += e.parts[j]
				if !strings.ContainsAny(flat, "-.") && !ix.joins.MayHave(flat) {
					t.Fatalf("the join filter lacks %q of %s", flat, e.tool.Name)
				}
			}
		}
	}
	slices.Sort(v.parts)
	v.parts = slices.Compact(v.parts)
	return v
}

// checkSlotList fails t unless l, token tok's list of field f, is in
// strictly increasing slot order, in pages of 1 to 4,096 slots (the most
// slotPage gives; at least a quarter of cow.ListPage when it has
// several), adding up to its length.
func checkSlotList(t *testing.T, tok string, f field, l slotList) {
	t.Helper()
	n, last := 0, int32(-1)
	pages := l.Pages()
	for _, pg := range pages {
		if len(pg) == 0 || len(pg) > slotPage(math.MaxInt32) || len(pages) > 1 && len(pg) < cow.ListPage/4 {
			t.Fatalf("token %q, field %d: a page of %d slots, of %d pages", tok, f, len(pg), len(pages))
		}
		for _, s := range pg {
			if s <= last {
				t.Fatalf("token %q, field %d: slot %d after %d", tok, f, s, last)
			}
			last = s
		}
		n += len(pg)
	}
	if n != l.Len() {
		t.Fatalf("token %q, field %d: %d slots in pages, length %d", tok, f, n, l.Len())
	}
}

// rebuilt returns a snapshot of r built from scratch, from copies of its
// entries: building an index sets the slots of its entries, which belong
// to the registry's index.
func rebuilt(r *Registry) *snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	copies := map[string]*entry{}
	for n, e := range r.tools {
		copies[n] = newEntry(&e.tool)
	}
	return buildSnapshot(copies, r.servers, nil, nil)
}

// sameSnapshot checks that got, a snapshot patched change after change,
// holds what want, built from scratch, holds: its lists (in pages) read as
// want's, the slot and position of every deferred tool agree, and the
// prefix index and its counts of uppercase names are want's.
func sameSnapshot(t *testing.T, want, got *snapshot, step string) {
	t.Helper()
	all := func(l cow.Sorted[*entry]) []string { return entryNames(slices.Collect(l.All())) }
	require.Equal(t, all(want.pool), all(got.pool), "%s: pool", step)
	require.Equal(t, all(want.loaded), all(got.loaded), "%s: loaded", step)
	require.Equal(t, entryNames(slices.Collect(want.deferredTools())), entryNames(slices.Collect(got.deferredTools())), "%s: deferred", step)
	pos := got.positions()
	require.Len(t, pos, got.ix.nslots, "%s: a position per slot", step)
	free := 0
	for _, p := range pos {
		if p < 0 {
			free++
		}
	}
	require.Equal(t, got.ix.nslots-got.deferred.Len(), free, "%s: the free slots have no position", step)
	for i, d := range got.deferred.From(0) {
		if got.ix.slot(d.slot) != d.e {
			t.Fatalf("%s: the slot of %s holds another entry", step, d.e.tool.Name)
		}
		if pos[d.slot] != int32(i) {
			t.Fatalf("%s: the position of %s is %d, not %d", step, d.e.tool.Name, pos[d.slot], i)
		}
		if got.deferredAt(i) != d.e {
			t.Fatalf("%s: deferredAt(%d) is not %s", step, i, d.e.tool.Name)
		}
	}
	require.Equal(t, all(want.prefix.tools), all(got.prefix.tools), "%s: prefix index", step)
	n := got.prefix.tools.Len()
	for _, r := range [][2]int{{0, n}, {0, n / 2}, {n / 3, n}} {
		require.Equal(t, want.prefix.tools.Marked(r[0], r[1]), got.prefix.tools.Marked(r[0], r[1]), "%s: prefix counts %v", step, r)
	}
	require.Equal(t, want.pending, got.pending, "%s: pending", step)
}

// TestIncrementalIndexEqualsRebuild changes a registry many times and
// checks after each change that the patched snapshot holds exactly what a
// snapshot built from scratch holds.
func TestIncrementalIndexEqualsRebuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var r Registry
	m := &refModel{tools: map[string]*refTool{}, servers: map[string]ServerStatus{}}
	var tools []Tool
	for range 150 {
		tl := diffTool(rng)
		tl.Aliases = nil
		if !slices.ContainsFunc(tools, func(x Tool) bool { return x.Name == tl.Name }) {
			tools = append(tools, tl)
		}
	}
	require.NoError(t, r.Register(tools...))
	steps := sweepSize(60, 300)
	for step := range steps {
		mutate(t, rng, &r, m)
		got, want := r.load(), rebuilt(&r)
		require.Equal(t, viewOf(t, want.ix), viewOf(t, got.ix), "step %d: index", step)
		sameSnapshot(t, want, got, fmt.Sprintf("step %d", step))
		for e := range want.pool.All() {
			if got.named(e.tool.Name) == nil {
				t.Fatalf("step %d: named(%q) is nil", step, e.tool.Name)
			}
			if w, g := entryNames(want.lowered(e.lowerName)), entryNames(got.lowered(e.lowerName)); !slices.Equal(w, g) {
				t.Fatalf("step %d: lowered(%q) is %q, want %q", step, e.lowerName, g, w)
			}
		}
	}
}

// TestOneToolChangeCopiesLittle checks that replacing one tool's
// description shares every untouched shard and postings value with the
// previous snapshot.
func TestOneToolChangeCopiesLittle(t *testing.T) {
	var tools []Tool
	for i := range 2000 {
		tools = append(tools, Tool{Name: "mcp__s" + strconv.Itoa(i/40) + "__tool_" + strconv.Itoa(i), Server: "s" + strconv.Itoa(i/40),
			Description: "Tool number " + strconv.Itoa(i) + " reads files and sends messages"})
	}
	r, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	before := r.load()
	changed := tools[700]
	changed.Description = "Tool number 700 reads files and sends weather reports"
	require.NoError(t, r.Replace(changed))
	after := r.load()
	beforeShards, afterShards := before.ix.shardMaps(), after.ix.shardMaps()

	copied := 0
	for i := range afterShards {
		for tok, p := range afterShards[i] {
			if beforeShards[i][tok] != p {
				copied++
			}
		}
	}
	assert.Equal(t, 3, copied, "only the postings of the words that changed are new: messages (left), weather and reports (joined)")
	sharedShards := 0
	for i := range afterShards {
		if len(afterShards[i]) > 0 && len(beforeShards[i]) > 0 && sameMap(afterShards[i], beforeShards[i]) {
			sharedShards++
		}
	}
	assert.Greater(t, sharedShards, len(afterShards)-4, "untouched shards are shared")
	assert.Equal(t, before.named(changed.Name).slot, after.named(changed.Name).slot, "the new version takes the old one's slot")
	res, err := NewSearcher(r, nil).Search("weather", 5)
	require.NoError(t, err)
	assert.Equal(t, []string{changed.Name}, matchNames(res))
}

func entryNames(es []*entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.tool.Name)
	}
	return out
}

// sameMap reports whether a and b are the same map (not equal copies).
func sameMap(a, b map[string]*postings) bool {
	const probe = "\x00probe"
	if _, ok := a[probe]; ok {
		return false
	}
	a[probe] = nil
	_, same := b[probe]
	delete(a, probe)
	return same
}

func TestSchemaCache(t *testing.T) {
	const valid = `{"type":"object","properties":{"q":{"type":"string"}}}`
	const invalid = `{"type":7}`
	var r Registry
	var tools []Tool
	for i := range 3 * parallelSchemas {
		sch := valid
		if i%3 == 2 {
			sch = invalid
		}
		tools = append(tools, Tool{Name: "t" + strconv.Itoa(i), InputSchema: json.RawMessage(sch)})
	}
	err := r.Register(tools...)
	require.ErrorIs(t, err, ErrInvalidSchema, "many tools: compiled in parallel, the invalid ones reported")
	var joined interface{ Unwrap() []error }
	require.True(t, errors.As(err, &joined))
	assert.Len(t, joined.Unwrap(), parallelSchemas, "one error per tool with the invalid schema")

	var ok []Tool
	for _, tl := range tools {
		if string(tl.InputSchema) == valid {
			ok = append(ok, tl)
		}
	}
	require.NoError(t, r.Register(ok...))
	a, b := r.tools[ok[0].Name], r.tools[ok[1].Name]
	assert.Same(t, &a.tool.InputSchema[0], &b.tool.InputSchema[0], "tools with the same schema share one copy")
	assert.Equal(t, 1, r.schemas.n, "one valid schema remembered")

	err = r.Register(Tool{Name: "again", InputSchema: json.RawMessage(invalid)})
	require.ErrorIs(t, err, ErrInvalidSchema, "an invalid schema is not remembered as valid")
	assert.Contains(t, err.Error(), `"again"`)
	tools[0].InputSchema[1] = ' ' // the caller's bytes are the caller's
	got, _ := r.Lookup(ok[0].Name)
	assert.Equal(t, valid, string(got.InputSchema))
}

func TestPrefixFindKeepsPoolOrder(t *testing.T) {
	r, err := NewRegistry(nil,
		Tool{Name: "mcp__gh__create", Server: "gh"},
		Tool{Name: "mcp__gh__Delete", Server: "gh"}, // uppercase: before "create" in pool order
		Tool{Name: "mcp__gh__b", Server: "gh"},
		Tool{Name: "mcp__ghx__a", Server: "ghx"},
		Tool{Name: "MCP__gh__zed", ShouldDefer: true}, // not an MCP tool: pool order puts it first
	)
	require.NoError(t, err)
	s := r.load()
	for _, tc := range []struct {
		name, q string
		k       int
		want    []string
	}{
		{"uppercase names in range", "mcp__gh__", 10, []string{"MCP__gh__zed", "mcp__gh__Delete", "mcp__gh__b", "mcp__gh__create"}},
		{"limit applies after ordering", "mcp__gh__", 2, []string{"MCP__gh__zed", "mcp__gh__Delete"}},
		{"lowercase-only range", "mcp__ghx", 10, []string{"mcp__ghx__a"}},
		{"no match", "mcp__zz", 10, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range s.prefix.find(tc.q, tc.k, everything) {
				got = append(got, e.tool.Name)
			}
			assert.Equal(t, tc.want, got, "find(%q, %d)", tc.q, tc.k)
		})
	}
}

func TestSortNames(t *testing.T) {
	for _, tc := range []struct {
		name       string
		in, sorted []string
	}{
		{"two runs", []string{"B", "a", "mcp__a", "C", "mcp__b"}, nil},
		{"already sorted", []string{"A", "B", "mcp__x"}, nil},
		{"empty", []string{}, nil},
		{"three runs fall back to a sort", []string{"b", "a", "d", "c"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := append([]string{}, slices.Sorted(slices.Values(tc.in))...)
			assert.Equal(t, want, append([]string{}, sortNames(slices.Clone(tc.in))...))
		})
	}
}

func TestPatchSorted(t *testing.T) {
	mk := func(names ...string) []*entry {
		var out []*entry
		for _, n := range names {
			out = append(out, newEntry(&Tool{Name: n}))
		}
		return out
	}
	list := mk("a", "c", "e", "g")
	add := mk("b", "h", "0")
	sorted := cow.NewSorted(list, nil)
	got := sorted.With([]*entry{list[1], list[3]}, add, poolCompare)
	assert.Equal(t, []string{"0", "a", "b", "e", "h"}, entryNames(slices.Collect(got.All())))
	assert.Equal(t, []string{"a", "c", "e", "g"}, entryNames(slices.Collect(sorted.All())), "the list before is not changed")
	repl := mk("c")
	got = sorted.With(list[1:2], repl, poolCompare)
	assert.Same(t, repl[0], got.At(1), "a replaced tool takes the same place")
}

func TestIndexRebuildsWhenShardsFill(t *testing.T) {
	var r Registry
	require.NoError(t, r.Register(Tool{Name: "Seed", ShouldDefer: true, Description: "x"}))
	shards := r.load().ix.nshards
	for i := range 40 {
		var text []byte
		for j := range 400 {
			text = append(text, "w"+strconv.Itoa(i*400+j)+" "...)
		}
		require.NoError(t, r.Register(Tool{Name: "T" + strconv.Itoa(i), ShouldDefer: true, Description: string(text)}))
	}
	ix := r.load().ix
	assert.Greater(t, ix.nshards, shards, "many new words: the index was rebuilt with more shards")
	assert.LessOrEqual(t, ix.words, 256*ix.nshards)
	res, err := NewSearcher(&r, nil).Search("w15999", 5)
	require.NoError(t, err)
	assert.Equal(t, []string{"T39"}, matchNames(res))
}

func TestAccumulatorReuse(t *testing.T) {
	r := specPool(t)
	s := NewSearcher(r, nil)
	first := search(t, s, "github issue", 5)
	a := r.scratch.spare.Load()
	require.NotNil(t, a, "the accumulator is kept after a query")
	for _, c := range a.acc {
		require.Zero(t, c.sr, "scores are cleared after a query")
	}
	assert.Equal(t, hits(first), hits(search(t, s, "github issue", 5)), "a reused accumulator gives the same answer")
	a.gen = ^uint32(0) - 1 // about to wrap
	assert.Equal(t, hits(first), hits(search(t, s, "github issue", 5)), "generation wrap-around")
}

func TestHasLineTerminator(t *testing.T) {
	for _, s := range []string{"", "a", "a\nb", "\r", "x\u2028", "\u2029y", "\u2027", "\u202a", "é\u2030", "\xe2\x80", "\xe2", "ab\xe2\x80\xa8"} {
		assert.Equal(t, strings.ContainsAny(s, "\n\r\u2028\u2029"), text.HasLineTerminator(s), "%q", s)
	}
}

// punctuationCatalog registers n deferred tools whose 2 KB descriptions
// are full of punctuation and of the words around it.
func punctuationCatalog(t testing.TB, n int) *Registry {
	t.Helper()
	desc := strings.Repeat("a.b c++x e.g. x-y f(z) a---b ", 80)[:1995] + " q.z" // q.z only at the end
	tools := make([]Tool, n)
	for i := range tools {
		tools[i] = Tool{Name: fmt.Sprintf("mcp__s%d__tool_%d", i%20, i), Description: desc}
	}
	r, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	return r
}

// TestPunctuationTermsAreBounded: a term made only of punctuation is
// answered from the index, scanning no description (it used to scan every
// one: 32 such terms cost a second at 10k tools); a term mixing words and
// punctuation checks only the tools that have all its runs, within
// MaxQueryWork, and a query that runs out says so.
func TestPunctuationTermsAreBounded(t *testing.T) {
	const n = 2000
	r := punctuationCatalog(t, n)
	snap := r.load()
	idx := DefaultStrategy().Index(corpusOf(r, snap))
	rank := func(q string, budget int) ([]Hit, *querywork.Budget) {
		ctx, w := querywork.With(context.Background(), budget)
		hits, _, err := idx.Rank(ctx, Query{Text: q, K: -1}, nil)
		require.NoError(t, err)
		return hits, w
	}
	punct := strings.Repeat("--- . ( - ", 8) // ("++" would be a required "+")
	hits, w := rank(punct, 1)
	assert.Len(t, hits, n, "every tool has those runs")
	assert.Equal(t, 1, w.Left(), "punctuation-only terms scan nothing")
	assert.False(t, w.Cut())
	hits, w = rank("c++ a.b", 1<<30)
	assert.Len(t, hits, n)
	assert.False(t, w.Cut())
	hits, w = rank("zz.b a.zz", 1)
	assert.Empty(t, hits, "a term whose runs some tool lacks checks nothing")
	assert.Equal(t, 1, w.Left())

	// "b.c" has runs every tool has, but occurs nowhere: each check reads
	// a whole description.
	s := NewSearcher(r, &SearchOptions{MaxQueryWork: 100 * 2000})
	res := search(t, s, "b.c", 20)
	require.Len(t, res.Notes, 1, "a query that runs out of work says so")
	assert.Equal(t, matchingCut(), res.Notes[0])
	res = search(t, s, "b.c xabx", 20)
	assert.Equal(t, []string{matchingCut()}, res.Notes)
	want := search(t, NewSearcher(r, nil), "q.z", 20)
	assert.Empty(t, want.Notes)
	assert.Len(t, want.Matches, 20)
	res = search(t, NewSearcher(r, &SearchOptions{MaxQueryWork: 10 * 2000}), "q.z", 20)
	assert.Equal(t, []string{matchingCut()}, res.Notes)
	got := matchNames(res)
	require.NotEmpty(t, got, "the tools checked before the cut are found")
	assert.Equal(t, matchNames(want)[:len(got)], got, "the first tools in pool order are checked first")
}

// TestNamePartWorkIsBounded: the name parts compared for the "a name part
// contains the term" rule (default and hybrid strategies) are paid for from
// MaxQueryWork, so a catalog of many distinct parts that all hold the
// term costs a bounded amount per query, with a note when cut.
func TestNamePartWorkIsBounded(t *testing.T) {
	tools := make([]Tool, 3000)
	for i := range tools {
		tools[i] = Tool{Name: fmt.Sprintf("mcp__s__xabx%d", i), Description: "d"}
	}
	r, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	for _, st := range []Strategy{DefaultStrategy(), HybridStrategy()} {
		res := search(t, NewSearcher(r, &SearchOptions{Strategy: st}), "xab", 5)
		assert.Empty(t, res.Notes, st.Name())
		assert.Len(t, res.Matches, 5, st.Name())
		res = search(t, NewSearcher(r, &SearchOptions{Strategy: st, MaxQueryWork: 1000}), "xab", 5)
		assert.Equal(t, []string{matchingCut()}, res.Notes, "%s: the parts compared are bounded", st.Name())
	}
}

// TestPagedSnapshotEqualsRebuild: over a registry large enough that its
// lists span several pages (of 1,024 items when built), random batches of
// changes (runs of tools added and removed, so that pages grow and
// shrink; replacements; tools loaded and deferred in turn) leave a patched
// snapshot that holds what one built from scratch holds. (Splits and
// merges of pages: TestSortedEqualsASortedSlice in internal/cow.)
func TestPagedSnapshotEqualsRebuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	mk := func(i int) Tool {
		name := fmt.Sprintf("tool_%05d", i)
		switch i % 3 {
		case 1:
			name = fmt.Sprintf("mcp__s%d__Tool_%05d", i%7, i) // in the prefix index, with an uppercase letter
		case 2:
			name = fmt.Sprintf("mcp__s%d__tool_%05d", i%7, i)
		}
		return Tool{Name: name, Description: "does thing " + strconv.Itoa(i%50), ShouldDefer: rng.IntN(8) > 0}
	}
	var r Registry
	var tools []Tool
	held := map[int]bool{}
	for i := range 5000 {
		if i%2 == 0 {
			tools, held[i] = append(tools, mk(i)), true
		}
	}
	require.NoError(t, r.Register(tools...))
	for step := range sweepSize(12, 60) {
		lo := rng.IntN(5000)
		switch rng.IntN(3) {
		case 0: // a run removed
			var gone []string
			for i := lo; i < min(5000, lo+rng.IntN(280)); i++ {
				if held[i] {
					gone, held[i] = append(gone, mk(i).Name), false
				}
			}
			r.Remove(gone...)
		case 1: // a run added
			var add []Tool
			for i := lo; i < min(5000, lo+rng.IntN(280)); i++ {
				if !held[i] {
					add, held[i] = append(add, mk(i)), true
				}
			}
			require.NoError(t, r.Register(add...))
		default: // a few replaced (deferred or not, as drawn)
			var repl []Tool
			for i := lo; i < min(5000, lo+40); i++ {
				if held[i] {
					repl = append(repl, mk(i))
				}
			}
			require.NoError(t, r.Replace(repl...))
		}
		got, want := r.load(), rebuilt(&r)
		sameSnapshot(t, want, got, fmt.Sprintf("step %d", step))
		require.Greater(t, got.pool.Len(), 2048, "step %d: the pool spans several pages", step)
	}
}

// TestSortPoolEqualsPoolCompare checks sortPool (names beside the entries,
// halves sorted side by side from parallelBuild tools) against sorting
// with poolCompare, on random pools of both sizes.
func TestSortPoolEqualsPoolCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{0, 1, 50, parallelBuild + 999, 2*parallelBuild + 1} {
		seen := map[string]bool{}
		var pool []*entry
		for len(pool) < n {
			tl := diffTool(rng)
			tl.Name += strconv.Itoa(rng.IntN(n + 1))
			if !seen[tl.Name] {
				seen[tl.Name] = true
				pool = append(pool, newEntry(&tl))
			}
		}
		want := slices.Clone(pool)
		slices.SortFunc(want, poolCompare)
		sortPool(pool)
		require.Equal(t, entryNames(want), entryNames(pool), "%d tools", n)
	}
}
