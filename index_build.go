package toolsearch

import (
	"runtime"
	"sync"

	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/vocab"
)

// Building an index from scratch (index.go describes the index). One pass
// over the tools' tokens gives each distinct token an id and records, per
// tool, the (token, field) keys it has; a counting sort then lays every
// postings list out in one array, in slot order, with no list grown by
// appending, and cuts it into pages; the tokens' postings are made in one
// slab and put in the shards once each. The result is the index that
// adding each tool's slot to its tokens' lists, in order, would give: the
// same lists and the same vocabulary ids (a part's id is its rank among
// the parts by first appearance).

// parallelBuild is the number of tools from which building an index, a
// snapshot, or a batch of entries, is spread over two goroutines or more.
const parallelBuild = 4096

// indexBuilder holds the state of one build.
type indexBuilder struct {
	ids  map[string]int32 // token → id
	toks []string         // id → token
	keys []uint32         // every tool's keys (id*fields + field), tool after tool
	ends []int32          // the end of each tool's keys in keys
	last []int32          // key → 1 + the last tool that had it, to drop repeats
	vids []int32          // id → vocabulary id, or -1
	buf  []byte           // the token being read
}

// buildIndex indexes tools, given in pool order. A tool that old (the
// index being replaced, or nil) holds keeps its slot, so that the indexes
// of other strategies, kept by slot, stay valid; the others take free
// slots, lowest first.
func buildIndex(tools []*entry, pool *scratchPool, old *index) *index {
	ix := &index{pool: pool, live: len(tools), vocab: &vocab.Vocabulary{}}
	ix.assignSlots(tools, old)
	joins := 0
	for _, e := range tools {
		joins += len(e.parts) * (len(e.parts) - 1) / 2
	}
	ix.joins = vocab.NewJoinFilter(joins)

	// The join filter (its bits are set atomically, in any order) is
	// filled beside the scan for a large index.
	addJoins := func() {
		for _, e := range tools {
			ix.joinKeys += ix.joins.AddJoins(e.parts)
		}
	}
	var wg sync.WaitGroup
	if len(tools) >= parallelBuild && runtime.GOMAXPROCS(0) > 1 {
		wg.Go(addJoins)
	} else {
		addJoins()
	}
	b := newIndexBuilder(len(tools))
	for i, e := range tools {
		b.scan(e, int32(i), ix.vocab)
	}
	wg.Wait()
	ix.words = len(b.toks)

	// Counting sort: start[k] is where key k's list begins in arena.
	start := make([]int32, len(b.last)+1)
	for _, k := range b.keys {
		start[k+1]++
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	arena := make([]int32, len(b.keys))
	next := make([]int32, len(b.last))
	copy(next, start)
	// The tools in slot order (the slots of a build are its tools'
	// positions unless old gave them theirs), so every list is in slot
	// order.
	bySlot := make([]int32, ix.nslots)
	for i := range bySlot {
		bySlot[i] = -1
	}
	for i, e := range tools {
		bySlot[e.slot] = int32(i)
	}
	for s, i := range bySlot {
		if i < 0 {
			continue
		}
		from := int32(0)
		if i > 0 {
			from = b.ends[i-1]
		}
		for _, k := range b.keys[from:b.ends[i]] {
			arena[next[k]] = int32(s)
			next[k]++
		}
	}
	// The lists, cut into pages of arena, with their headers in one array.
	npages := 0
	for k := range len(b.last) {
		n := int(start[k+1] - start[k])
		npages += cow.ListPages(n, slotPage(n))
	}
	heads := make([][]int32, 0, npages)
	list := func(k int) (l slotList) {
		els := arena[start[k]:start[k+1]:start[k+1]]
		l, heads = cow.AppendList(heads, els, slotPage(len(els)))
		return l
	}

	slab := make([]postings, len(b.toks))
	for id := range slab {
		k := id * int(fields)
		slab[id] = postings{
			part: list(k + int(fieldPart)), mpart: list(k + int(fieldMCPPart)),
			hint: list(k + int(fieldHint)), desc: list(k + int(fieldDesc)),
			vid: b.vids[id],
		}
	}
	// As many shards as appending tool after tool ends with: the estimate
	// from the tool count, or more when the tokens outnumber it.
	// The shards are filled in ix.building, then frozen into pages.
	ix.building = make([]map[string]*postings, max(cow.ShardCount(3*len(tools)), cow.ShardCount(ix.words)))
	n := len(ix.building)
	for i := range ix.building {
		ix.building[i] = make(map[string]*postings, ix.words/n+ix.words/(8*n)+1)
	}
	refs := (&cow.Paged[*postings]{}).Edit()
	for id, tok := range b.toks {
		p := &slab[id]
		ix.building[tokenHash(tok)&uint64(n-1)][tok] = p
		if p.vid >= 0 {
			refs.Set(p.vid, p)
		}
	}
	ix.partRefs = refs.Done()
	ed := ix.shards.Edit()
	for i, sh := range ix.building {
		ed.Set(int32(i), sh)
	}
	ix.shards, ix.nshards, ix.building = ed.Done(), n, nil
	return ix
}

func newIndexBuilder(tools int) *indexBuilder {
	// The token map grows as it fills (the distinct tokens of a catalog
	// vary with how much its descriptions repeat, and a map sized far
	// beyond them misses the cache on every lookup); about 16 keys per
	// tool on real catalogs.
	return &indexBuilder{
		ids:  make(map[string]int32, min(tools, 1024)),
		keys: make([]uint32, 0, 16*tools),
		ends: make([]int32, 0, tools),
	}
}

// scan records the keys of e, the i-th tool, giving new tokens ids and
// new parts vocabulary ids in v. It reads the tokens entry.tokens gives,
// lowercasing the runs of texts into one buffer.
func (b *indexBuilder) scan(e *entry, i int32, v *vocab.Vocabulary) {
	pf := fieldPart
	if e.scoresMCP {
		pf = fieldMCPPart
	}
	for _, p := range e.parts {
		b.buf = append(b.buf[:0], p...)
		b.key(b.buf, pf, i, v)
	}
	b.buf = e.hint.RunBytes(b.buf, func(r []byte) { b.key(r, fieldHint, i, v) })
	b.buf = e.desc.RunBytes(b.buf, func(r []byte) { b.key(r, fieldDesc, i, v) })
	b.ends = append(b.ends, int32(len(b.keys)))
}

// key records token tok in field f of the i-th tool.
func (b *indexBuilder) key(tok []byte, f field, i int32, v *vocab.Vocabulary) {
	id, ok := b.ids[string(tok)]
	if !ok {
		id = int32(len(b.toks))
		s := string(tok)
		b.ids[s] = id
		b.toks = append(b.toks, s)
		b.vids = append(b.vids, -1)
		var none [fields]int32
		b.last = append(b.last, none[:]...)
	}
	k := uint32(id)*uint32(fields) + uint32(f)
	if b.last[k] == i+1 {
		return // a repeated token of this tool
	}
	b.last[k] = i + 1
	if f <= fieldMCPPart && b.vids[id] < 0 {
		b.vids[id] = int32(len(v.Parts))
		v.Add(b.toks[id])
	}
	b.keys = append(b.keys, k)
}
