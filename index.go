package toolsearch

import (
	"hash/maphash"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/vocab"
)

// The keyword index. A snapshot holds an index over its available deferred
// tools. The index is immutable once published: a change builds the next
// index from the previous one, copying only what the change touches, so
// readers never wait and a one-tool change costs far less than a rebuild.
//
// Every indexed tool has a slot, a small integer; postings are lists of
// slots. One map, split into shards by a hash of the key, maps a token to
// its postings:
//   - part: the tools with a name part equal to the token (the exact rule,
//     and the parts that make up the full-name fallback);
//   - hint, desc: the tools whose lowercased search hint or description has
//     the token as one of its runs (textRuns): a maximal run of ASCII word
//     characters, or a maximal run of other characters, without
//     whitespace, between two word characters. \bterm\b matches only where
//     each run of the term is such a run of the text, so a term of one run
//     (a word, or punctuation alone) is answered by its postings, and a
//     term of several runs ("c++", "e.g") is checked with hasWord on the
//     tools in every one of its runs' postings, within the query's work
//     budget (strategy_default.go).
//
// The distinct name parts (the vocabulary, much smaller than the tool count)
// are also listed with, for every character and every pair of adjacent
// characters, the parts that contain it: the substring rule checks only the
// parts listed under the rarest pair of the term, and compares only those
// whose key (vocab.Key: the part's length and a bit per pair it holds) may
// contain the term.
//
// A query (keywordIndex.Rank in strategy_default.go, the default strategy's Index) accumulates
// scores in an array indexed by slot, taken from a scratchPool, and reports
// every tool that scores as a Hit at its position in the Corpus (the
// snapshot's deferred tools in pool order: keywordIndex maps slots to
// positions); the search pipeline keeps the best k.
//
// An entry's slot is stored in the entry (entry.slot) and is valid for the
// registry's newest index only: writers set and read it, readers never do,
// and only the registry that owns an entry builds indexes of it.

// postings are the slots of the tools that have one token: as a name part
// of a tool that does not score as MCP (part) or of one that does (mpart,
// whose weights differ), in the search hint, in the description. Every
// list is in slot order, in pages shared between index versions (cow.List):
// a change copies the pages it touches and a list's header, never a whole
// long list.
type postings struct {
	part, mpart, hint, desc slotList
	vid                     int32 // the part's vocabulary id, or -1
}

// slotList is a postings list: slots in increasing order, in pages of at
// most slotPage(its length) slots, or of the size the list was written
// with when it was longer or shorter.
type slotList = cow.List[int32]

// slotPage returns the most slots a page of a postings list of n slots
// holds: a change copies the page it writes (4 bytes a slot) and the
// list's header (24 bytes a page), which together cost least in pages of
// about the square root of 6n, the power of two nearest it here, from
// cow.ListPage to 4,096. A list of every tool of a registry of 100k tools
// (400 KB) costs a change 6 KB in pages of 1,024 (20 KB in pages of 128);
// of 1M tools, 20 KB in pages of 2,048 (190 KB).
func slotPage(n int) int {
	p := cow.ListPage
	for p < 4096 && 2*p*p <= 6*n { // p√2 ≤ √(6n): 2p is nearer
		p *= 2
	}
	return p
}

// slotOf is the slot of a posting, for cow.List.Patch.
func slotOf(s int32) int32 { return s }

// parts returns the number of tools with the token as a name part.
func (p *postings) parts() int { return p.part.Len() + p.mpart.Len() }

// hasSlot reports whether l holds s: a binary search of the pages' first
// slots, then of one page.
func hasSlot(l slotList, s int32) bool {
	pages := l.Pages()
	lo, hi := 0, len(pages) // the page is the last before hi whose first slot is not above s
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if pages[m][0] <= s {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return false
	}
	_, found := slices.BinarySearch(pages[lo-1], s)
	return found
}

// index is the keyword index of one snapshot.
type index struct {
	shards   cow.Paged[map[string]*postings] // in pages shared between versions
	nshards  int                             // a power of two
	building []map[string]*postings          // the shards of an index being built
	slots    cow.Paged[*entry]               // slot → tool; nil for a free slot
	nslots   int                             // the number of slots
	free     []int32                         // free slots, reused first
	live     int                             // indexed tools
	words    int                             // tokens in shards
	vocab    *vocab.Vocabulary
	partRefs cow.Paged[*postings] // vocabulary id → the part's postings; nil when gone
	dead     int                  // parts in vocab that are no longer indexed
	joins    *vocab.JoinFilter    // joins of adjacent parts, for the full-name rule
	joinKeys int                  // keys added to joins
	pool     *scratchPool         // shared by the snapshots of one registry
}

// hashSeed seeds the shard hashes of this process. Shard placement is
// never visible: results do not depend on it.
var hashSeed = maphash.MakeSeed()

func tokenHash(s string) uint64 { return maphash.String(hashSeed, s) }

func (ix *index) shard(tok string) map[string]*postings {
	return ix.shards.At(int32(tokenHash(tok) & uint64(ix.nshards-1)))
}

// lookup returns the postings of tok, or nil.
func (ix *index) lookup(tok string) *postings {
	return ix.shard(tok)[tok]
}

// field selects one postings list.
type field uint8

const (
	fieldPart field = iota
	fieldMCPPart
	fieldHint
	fieldDesc
	fields // the number of fields
)

func (p *postings) list(f field) *slotList {
	switch f {
	case fieldPart:
		return &p.part
	case fieldMCPPart:
		return &p.mpart
	case fieldHint:
		return &p.hint
	}
	return &p.desc
}

// tokens calls fn with every token of e, per field; a token may repeat.
func (e *entry) tokens(fn func(tok string, f field)) {
	pf := fieldPart
	if e.scoresMCP {
		pf = fieldMCPPart
	}
	for _, p := range e.parts {
		fn(p, pf)
	}
	e.hint.Runs(func(w string) { fn(w, fieldHint) })
	e.desc.Runs(func(w string) { fn(w, fieldDesc) })
}

// assignSlots gives every tool of tools a slot: its slot in old if old
// holds it, else the lowest slot no tool has.
func (ix *index) assignSlots(tools []*entry, old *index) {
	var slots []*entry
	if old == nil {
		slots = make([]*entry, len(tools))
		for i, e := range tools {
			e.slot = int32(i)
			slots[i] = e
		}
		ix.setSlots(slots)
		return
	}
	slots = make([]*entry, max(len(tools), old.nslots))
	var fresh []*entry
	for _, e := range tools {
		if s := e.slot; s >= 0 && int(s) < old.nslots && old.slot(s) == e {
			slots[s] = e
		} else {
			fresh = append(fresh, e)
		}
	}
	next := int32(0)
	for _, e := range fresh {
		for slots[next] != nil {
			next++
		}
		e.slot = next
		slots[next] = e
	}
	last := len(slots)
	for last > 0 && slots[last-1] == nil {
		last--
	}
	slots = slots[:last]
	for s := int32(last) - 1; s >= 0; s-- {
		if slots[s] == nil {
			ix.free = append(ix.free, s) // popped from the end: lowest first
		}
	}
	ix.setSlots(slots)
}

// setSlots sets the slots of an index being built.
func (ix *index) setSlots(slots []*entry) {
	ed := ix.slots.Edit()
	for s, e := range slots {
		ed.Set(int32(s), e)
	}
	ix.slots, ix.nslots = ed.Done(), len(slots)
}

// slot returns the tool at slot s, 0 ≤ s < nslots; nil for a free slot.
func (ix *index) slot(s int32) *entry { return ix.slots.At(s) }

// needsRebuild reports whether the index has outgrown its shards or its
// join filter, or its vocabulary holds too many dropped parts.
func (ix *index) needsRebuild() bool {
	return ix.words > 256*ix.nshards && ix.nshards < cow.MaxShards ||
		ix.dead > 1024 && ix.dead > len(ix.vocab.Parts)-ix.dead || ix.joins.Full(ix.joinKeys)
}

// update returns a new index: ix without the tools in remove and with those
// in add. ix is not changed, except the slot field of the added entries. A
// tool that replaces one of the same name takes over its slot, so the
// tokens both versions have keep their postings untouched: only the tokens
// that differ are patched, and of their lists only the pages that hold a
// slot that leaves or joins are copied.
func (ix *index) update(remove, add []*entry) *index {
	nx := &index{
		nshards:  ix.nshards,
		nslots:   ix.nslots,
		free:     slices.Clone(ix.free),
		live:     ix.live - len(remove) + len(add),
		words:    ix.words,
		vocab:    ix.vocab,
		dead:     ix.dead,
		joins:    ix.joins,
		joinKeys: ix.joinKeys,
		pool:     ix.pool,
	}
	// Slots: a replacement takes its predecessor's slot; other removed
	// slots are freed, other additions take free slots first.
	slots := ix.slots.Edit()
	heir := make(map[string]int32, len(remove))
	for _, e := range remove {
		heir[e.tool.Name] = e.slot
		slots.Set(e.slot, nil)
	}
	for _, e := range add {
		if s, ok := heir[e.tool.Name]; ok {
			e.slot = s
			slots.Set(s, e)
			delete(heir, e.tool.Name)
		} else {
			e.slot = -1
		}
	}
	for _, s := range heir {
		nx.free = append(nx.free, s)
	}
	for _, e := range add {
		if e.slot >= 0 {
			continue
		}
		if n := len(nx.free); n > 0 {
			e.slot = nx.free[n-1]
			nx.free = nx.free[:n-1]
		} else {
			e.slot = int32(nx.nslots)
			nx.nslots++
		}
		slots.Set(e.slot, e)
	}
	nx.slots = slots.Done()

	// The change of every token: slots leaving and joining each list.
	type delta struct{ gone, join [fields][]int32 }
	deltas := map[string]*delta{}
	note := func(e *entry, leave bool) {
		slot := e.slot
		e.tokens(func(tok string, f field) {
			d := deltas[tok]
			if d == nil {
				d = &delta{}
				deltas[strings.Clone(tok)] = d // tok may be a run of a text
			}
			l := &d.join[f]
			if leave {
				l = &d.gone[f]
			}
			if n := len(*l); n == 0 || (*l)[n-1] != slot {
				*l = append(*l, slot)
			}
		})
	}
	for _, e := range remove {
		note(e, true)
	}
	for _, e := range add {
		note(e, false)
		nx.joinKeys += nx.joins.AddJoins(e.parts)
	}

	shards := ix.shards.Edit()
	cloned := map[int32]bool{}
	refs := ix.partRefs.Edit()
	type newPart struct {
		tok string
		p   *postings
	}
	var parts []newPart // tokens that become parts
	for tok, d := range deltas {
		changed := false
		for f := range d.gone {
			// In slot order, for Patch; a slot that leaves and joins the
			// same list stays in it.
			slices.Sort(d.gone[f])
			slices.Sort(d.join[f])
			if len(d.gone[f]) > 0 && len(d.join[f]) > 0 {
				d.gone[f], d.join[f] = dropCommon(d.gone[f], d.join[f])
			}
			changed = changed || len(d.gone[f]) > 0 || len(d.join[f]) > 0
		}
		if !changed {
			continue
		}
		i := int32(tokenHash(tok) & uint64(nx.nshards-1))
		if !cloned[i] {
			shards.Set(i, clonePostingsMap(shards.At(i)))
			cloned[i] = true
		}
		sh := shards.At(i)
		old := sh[tok]
		p := &postings{vid: -1}
		if old != nil {
			*p = *old
		} else {
			nx.words++
		}
		hadPart := p.parts() > 0
		for f := range d.gone {
			l := p.list(field(f))
			if len(d.gone[f]) == 0 && len(d.join[f]) == 0 {
				continue
			}
			*l = l.PatchPages(d.gone[f], d.join[f], slotOf, slotPage(l.Len()))
		}
		switch hasPart := p.parts() > 0; {
		case hadPart && !hasPart:
			nx.dead++
		case !hadPart && hasPart && p.vid >= 0:
			nx.dead-- // listed, and a part again
		case !hadPart && hasPart:
			parts = append(parts, newPart{tok, p})
		}
		if p.parts()+p.hint.Len()+p.desc.Len() == 0 {
			delete(sh, tok)
			nx.words--
			if p.vid >= 0 {
				refs.Set(p.vid, nil)
			}
			continue
		}
		sh[tok] = p
		if p.vid >= 0 {
			refs.Set(p.vid, p)
		}
	}
	if len(parts) > 0 {
		// Map order must not decide part ids.
		slices.SortFunc(parts, func(a, b newPart) int { return strings.Compare(a.tok, b.tok) })
		toks := make([]string, len(parts))
		for i, np := range parts {
			toks[i] = np.tok
			np.p.vid = int32(len(nx.vocab.Parts) + i)
			refs.Set(np.p.vid, np.p)
		}
		nx.vocab = nx.vocab.Extend(toks)
	}
	nx.partRefs = refs.Done()
	nx.shards = shards.Done()
	return nx
}

// shardMaps returns the shards, for tests and checks.
func (ix *index) shardMaps() []map[string]*postings {
	out := make([]map[string]*postings, ix.nshards)
	for i := range out {
		out[i] = ix.shards.At(int32(i))
	}
	return out
}

// dropCommon returns a and b, both in increasing order, without the
// elements they share, in new arrays.
func dropCommon(a, b []int32) ([]int32, []int32) {
	var x, y []int32
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			x = append(x, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			y = append(y, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return x, y
}

func clonePostingsMap(m map[string]*postings) map[string]*postings {
	c := make(map[string]*postings, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	return c
}
