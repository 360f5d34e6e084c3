package toolsearch

import (
	"context"
	"strings"

	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/vocab"
)

// Corpus is what a Strategy indexes: the deferred tools of one registry
// version, in pool order. It never changes and is safe for concurrent use.
// The Searcher makes one for every registry version it ranks; NewCorpus
// makes one of any tools.
//
// Besides its position, every tool has a slot: a small number, unique in
// the Corpus, that the tool keeps in the following versions of the
// registry for as long as it stays registered and unchanged. An index can
// keep what it knows of each tool in arrays by slot, and patch them from
// one version to the next with Changes, instead of rebuilding them.
type Corpus struct {
	tools  *cow.Sorted[slotted] // by position, with their slots
	slots  *cow.Paged[*entry]   // slot → tool; nil for a free slot
	nslots int
	pos    []int32 // slot → position; -1 for a free slot
	ix     *index  // the keyword index of the tools
	reg    *Registry
}

// corpusOf returns the Corpus of snap, a version of r.
func corpusOf(r *Registry, snap *snapshot) *Corpus {
	return &Corpus{tools: &snap.deferred, slots: &snap.ix.slots, nslots: snap.ix.nslots, pos: snap.positions(), ix: snap.ix, reg: r}
}

// NewCorpus returns a Corpus of tools, in the order given, outside any
// registry: for ranking a list of tools with a Strategy directly, or for
// testing one. The tools are not validated; their slots are their
// positions. Changes between it and another Corpus reports every tool as
// changed.
func NewCorpus(tools []Tool) *Corpus {
	es := make([]*entry, len(tools))
	for i := range tools {
		es[i] = newEntry(&tools[i])
	}
	ix := buildIndex(es, nil, nil) // slot i at position i
	ds := make([]slotted, len(es))
	pos := make([]int32, len(es))
	for i, e := range es {
		ds[i], pos[i] = slotted{e, int32(i)}, int32(i)
	}
	sorted := cow.NewSorted(ds, nil) // (in the order given: nothing is inserted)
	return &Corpus{tools: &sorted, slots: &ix.slots, nslots: ix.nslots, pos: pos, ix: ix}
}

// Len returns the number of tools.
func (c *Corpus) Len() int { return c.tools.Len() }

// Tool returns the tool at position i, 0 ≤ i < Len(). Its slices
// (InputSchema, Aliases) are shared with the registry: read them, never
// change them.
func (c *Corpus) Tool(i int) Tool { return c.tools.At(i).e.tool }

// Slot returns the slot of the tool at position i, 0 ≤ i < Len().
func (c *Corpus) Slot(i int) int { return int(c.tools.At(i).slot) }

// Slots returns the number of slots: one more than the largest slot of a
// tool, and at least Len() (the slots of removed tools are reused).
func (c *Corpus) Slots() int { return c.nslots }

// Position returns the position of the tool at slot s, or -1 when s is
// free (no tool of the Corpus has it), 0 ≤ s < Slots().
func (c *Corpus) Position(s int) int { return int(c.pos[s]) }

// Changes calls fn for every slot whose tool differs between prev and c:
// was is the position of prev's tool at the slot, is the position of c's,
// -1 where there is none (a tool that joined, or left). A tool whose
// definition changed is reported as changed even when it keeps its slot.
// prev is a Corpus of another version of the same registry (usually the
// previous one), when only the slots that changed are reported, in
// increasing order, at the cost of one comparison per slot; for a nil prev
// or a Corpus of something else, every tool of prev leaves and every tool
// of c joins.
func (c *Corpus) Changes(prev *Corpus, fn func(slot, was, is int)) {
	if prev == nil || prev.reg == nil || prev.reg != c.reg {
		if prev != nil {
			for s := range prev.nslots {
				if prev.slots.At(int32(s)) != nil {
					fn(s, int(prev.pos[s]), -1)
				}
			}
		}
		for s := range c.nslots {
			if c.slots.At(int32(s)) != nil {
				fn(s, -1, int(c.pos[s]))
			}
		}
		return
	}
	for s := range max(prev.nslots, c.nslots) {
		var a, b *entry
		was, is := -1, -1
		if s < prev.nslots {
			a, was = prev.slots.At(int32(s)), int(prev.pos[s])
		}
		if s < c.nslots {
			b, is = c.slots.At(int32(s)), int(c.pos[s])
		}
		if a != b {
			fn(s, was, is)
		}
	}
}

// PartsContaining calls fn with the slot of every tool that has a name
// part (see the package documentation, Ranking) containing term without
// being term, term lowercased; a tool with several such parts, once per
// part. It reads the keyword index the registry keeps, which lists the
// distinct name parts by the pairs of letters they hold, so that only the
// parts that share term's rarest pair are compared; each part compared
// costs its length from the query's work budget (SearchOptions.MaxQueryWork,
// carried by the ctx the Searcher gives Rank), and the comparing stops
// when it runs out. A term with a character no name part has (outside
// [a-z0-9.-]) finds nothing.
func (c *Corpus) PartsContaining(ctx context.Context, term string, fn func(slot int)) {
	c.partsContaining(ctx, term, func(pp *postings) {
		for s := range pp.part.All() {
			fn(int(s))
		}
		for s := range pp.mpart.All() {
			fn(int(s))
		}
	})
}

// partsContaining is PartsContaining calling fn once per part, with its
// postings.
func (c *Corpus) partsContaining(ctx context.Context, term string, fn func(pp *postings)) {
	if !partChars(term) {
		return
	}
	// Without dead parts every listed part has postings (a part's postings
	// go only when it dies), so none is looked up before it matches.
	c.ix.partsWith(term, querywork.Of(ctx), c.ix.dead == 0, true, fn)
}

// partsWith calls fn with the postings of each of term's candidate parts
// that contains it and is longer, in vocabulary order, paying for the
// parts scanned from work as scanParts does (live and short are its); it
// reports false when the budget ran out first.
func (ix *index) partsWith(term string, work *querywork.Budget, live, short bool, fn func(q *postings)) bool {
	ids := ix.vocab.Candidates(term)
	sig := vocab.Signature(term)
	for {
		i, left, cost := ix.scanParts(ids, sig, len(term), work.Left(), live, short)
		work.Spend(work.Left() - left)
		switch {
		case cost > 0:
			work.Spend(cost) // (fails, recording the cut)
			return false
		case i == len(ids) || cost < 0:
			return true
		}
		if id := ids[i]; strings.Contains(ix.vocab.Parts[id], term) {
			if q := ix.partRefs.At(id); q != nil {
				fn(q)
			}
		}
		ids = ids[i+1:]
	}
}

// scanParts pays for the candidate parts ids, in order, from a budget of
// left units (each part that has postings costs its length), until one is
// longer than a term of signature sig and length tl and its key may
// contain the term. It returns that part's index, or len(ids), and the
// budget left; cost > 0 when the part at i costs more than is left (not
// paid for: the scan is cut there), cost < 0 when the part at i is of a
// later version (the scan ends there). live says that every part has
// postings (else a part without is skipped), short that the parts no
// longer than the term are paid for too. (A loop without calls, for its
// registers.)
func (ix *index) scanParts(ids []int32, sig vocab.Key, tl, left int, live, short bool) (i, rest, cost int) {
	v := ix.vocab
	for i, id := range ids {
		if !live {
			if !ix.partRefs.Has(id) {
				return i, left, -1 // listed by a later version
			}
			if ix.partRefs.At(id) == nil {
				continue // no tool has the part any more
			}
		}
		k := v.Keys[id]
		n := v.PartLen(id, k)
		if !short && n <= tl {
			continue
		}
		if n > left {
			return i, left, n
		}
		left -= n
		// (A part of term's length that contains it is term.)
		if n > tl && k.May(sig) {
			return i, left, 0
		}
	}
	return len(ids), left, 0
}
