package toolsearch

import (
	"context"
	"math"
	"slices"

	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/words"
)

// BM25 defaults (Okapi BM25 as most search engines ship it).
const (
	defaultBM25K1 = 1.5  // term-frequency saturation
	defaultBM25B  = 0.75 // document-length normalisation
)

// BM25Options configure BM25Strategy. A nil *BM25Options means the
// defaults; a zero field means its default.
type BM25Options struct {
	// K1 is the term-frequency saturation; default 1.5.
	K1 float64
	// B is the length normalisation, between 0 and 1; default 0.75. (A
	// zero B cannot be asked for; use a tiny value such as 1e-9.)
	B float64
}

type bm25Strategy struct {
	k1, b float64
	block int32 // slots Rank scores at a time; 0: bm25BlockSlots (tests make it small)
}

// BM25Strategy returns Okapi BM25 ranking: each tool is one document made
// of the words of its name parts, search hint and description; a query's
// words each add idf × tf × (k1+1) / (tf + k1 × (1 − b + b × len/avglen)),
// with idf = ln(1 + (N − n + 0.5)/(n + 0.5)) over the N deferred tools, n
// of which have the word. Words are maximal runs of Unicode letters and digits,
// lowercased; nothing is stemmed and no word is ignored. A "+word" query
// token makes its words required. Tools that match no query word are left
// out; ties keep pool order. Its term budget (StrategyInput.MaxTerms) is
// 128.
func BM25Strategy(opts *BM25Options) Strategy {
	st := bm25Strategy{k1: defaultBM25K1, b: defaultBM25B}
	if opts != nil {
		if opts.K1 > 0 {
			st.k1 = opts.K1
		}
		if opts.B > 0 {
			st.b = min(opts.B, 1)
		}
	}
	return st
}

func (bm25Strategy) Name() string         { return "bm25" }
func (bm25Strategy) Input() StrategyInput { return StrategyInput{MaxTerms: bm25MaxTerms} }

// bm25MaxTerms is the bm25 term budget: a term costs one postings lookup.
const bm25MaxTerms = 128

// The bm25 index keeps a postings list per word, in the order of the
// tools' keyword-index slots (index.go): a tool keeps its slot while it is
// unchanged, so the index of a new registry version is the previous one
// with the postings of the tools that differ patched in (the tables are split into shards and
// copied on write, and each list into pages shared between versions, of
// which a change copies those it touches: internal/cow), never rebuilt
// from scratch. The global
// statistics (the tool count and the total document length, hence the
// average length) are two numbers kept up to date; a word's IDF is the
// length of its postings list. The length normalisation is computed at
// query time from the length stored in each posting, so no posting depends
// on the others; each version keeps a table of the normalisations of the
// short lengths (bm25Lens), which depend only on the average length.

// bm25Posting is one tool's entry in a word's postings list.
type bm25Posting struct {
	slot  int32
	tf    float32 // occurrences of the word in the tool
	dl    float32 // the tool's length in words
	rules Rule    // the fields the word is in
}

// bm25Word is one word of a tool and where it occurs.
type bm25Word struct {
	w     string
	tf    float32
	rules Rule
}

type bm25Index struct {
	st    bm25Strategy
	c     *Corpus // the tools, by slot
	n     int     // tools
	total float64 // the sum of the tools' lengths (whole numbers: exact)
	post  cow.ShardedMap[cow.List[bm25Posting]]
	pool  *pool[bm25Scratch] // shared by the versions of the index
	lens  *bm25Lens          // the length normalisations of this version
}

// bm25LensCached is how many lengths (0 to bm25LensCached-1 words)
// bm25Lens holds the normalisations of; longer tools compute theirs.
const bm25LensCached = 1024

// bm25Lens holds k1 × (1 − b + b × length/average length) by length in
// words, for one index version: a lookup in 8 KB instead of a division per
// posting, computed by the same expression.
type bm25Lens struct {
	k1, b, avgdl float64
	norm         [bm25LensCached]float64
}

func newBM25Lens(k1, b, avgdl float64) *bm25Lens {
	l := &bm25Lens{k1: k1, b: b, avgdl: avgdl}
	for i := range bm25LensCached {
		l.norm[i] = l.compute(float64(i))
	}
	return l
}

func (l *bm25Lens) compute(dl float64) float64 { return l.k1 * (1 - l.b + l.b*dl/l.avgdl) }

// of returns the normalisation of a tool of dl words (a whole number).
func (l *bm25Lens) of(dl float32) float64 {
	if i := int(dl); i < bm25LensCached {
		return l.norm[i]
	}
	return l.compute(float64(dl))
}

// bm25Doc returns the words of t, each once, and t's length in words.
func bm25Doc(t *Tool) ([]bm25Word, float64) {
	m := map[string]int{}
	var out []bm25Word
	n := 0.0
	add := func(ws []string, r Rule) {
		for _, w := range ws {
			i, ok := m[w]
			if !ok {
				i = len(out)
				m[w] = i
				out = append(out, bm25Word{w: w})
			}
			out[i].tf++
			out[i].rules |= r
			n++
		}
	}
	var buf []string
	parts, _ := nameParts(t.Name)
	for _, p := range parts {
		buf = words.Words(buf, p)
	}
	add(buf, RulePartExact)
	add(words.Words(nil, t.SearchHint), RuleHint)
	add(words.Words(nil, t.Description), RuleDescription)
	return out, n
}

// Index returns the postings of every word of c's tools.
func (st bm25Strategy) Index(c *Corpus) Index {
	empty := &bm25Index{st: st, post: cow.NewShardedMap[cow.List[bm25Posting]](0), pool: &pool[bm25Scratch]{}}
	return empty.Update(c)
}

// Update returns x with the tools that changed between x's Corpus and c
// patched in.
func (x *bm25Index) Update(c *Corpus) Index {
	p := x
	x = &bm25Index{st: p.st, c: c, n: c.Len(), total: p.total, pool: p.pool}
	type delta struct {
		gone []int32
		join []bm25Posting
	}
	deltas := map[string]*delta{}
	at := func(w string) *delta {
		d := deltas[w]
		if d == nil {
			d = &delta{}
			deltas[w] = d
		}
		return d
	}
	c.Changes(p.c, func(slot, was, is int) {
		s := int32(slot)
		if was >= 0 {
			t := p.c.Tool(was)
			ws, n := bm25Doc(&t)
			x.total -= n
			for _, w := range ws {
				d := at(w.w)
				d.gone = append(d.gone, s)
			}
		}
		if is >= 0 {
			t := c.Tool(is)
			ws, n := bm25Doc(&t)
			x.total += n
			for _, w := range ws {
				d := at(w.w)
				d.join = append(d.join, bm25Posting{slot: s, tf: w.tf, dl: float32(n), rules: w.rules})
			}
		}
	})
	if x.n == 0 {
		x.total = 0
	}
	e := p.post.Edit()
	for w, d := range deltas {
		cow.PatchSorted(e, w, d.gone, d.join, bm25Slot)
	}
	x.post = e.Done()
	if x.n > 0 {
		x.lens = newBM25Lens(x.st.k1, x.st.b, x.total/float64(x.n))
	}
	return x
}

// bm25Slot is the slot of a posting. Every postings list is in slot
// order (Rank relies on it), in pages shared between versions: a change
// copies the pages it touches, gone and join being in slot order as
// Changes reports them.
func bm25Slot(p bm25Posting) int32 { return p.slot }

// idf is the BM25 inverse document frequency of a term found in n of N
// documents.
func idf(n, N int) float64 {
	return math.Log(1 + (float64(N)-float64(n)+0.5)/(float64(n)+0.5))
}

// queryWords splits a query into its words and the words that are
// required ("+word" tokens).
func queryWords(q string) (all, required []string) {
	var optional []string
	for _, tok := range words.Fields(q) {
		if len(tok) > 1 && tok[0] == '+' {
			required = words.Words(required, tok[1:])
		} else {
			optional = words.Words(optional, tok)
		}
	}
	return append(append([]string(nil), required...), optional...), required
}

// bm25Acc is one tool's state during a query.
type bm25Acc struct {
	score   float64
	need    int32 // required words found
	touched bool
	rules   Rule
}

// bm25BlockSlots is how many slots Rank scores at a time: their
// accumulators (16 bytes each, 256 KB) stay in the core's cache while
// every query word's postings of the block are added, instead of being
// read at random from an array of every slot. (Term at a time over the
// whole slot range misses the cache on nearly every posting once the
// array outgrows it: at a million tools, 16 MB.)
const bm25BlockSlots = 1 << 14

// bm25Cursor is one query word's postings and how far Rank has read them:
// ps is the page being read, rest the pages after it. ps has a posting
// left to read (at < len(ps)) unless rest is empty.
type bm25Cursor struct {
	ps     []bm25Posting
	at     int
	rest   [][]bm25Posting
	weight float64 // the word's idf (for an optional word)
}

// newBM25Cursor returns a cursor at the start of l, which is not empty.
func newBM25Cursor(l cow.List[bm25Posting], weight float64) bm25Cursor {
	pages := l.Pages()
	return bm25Cursor{ps: pages[0], rest: pages[1:], weight: weight}
}

// next moves c to the next page once its page is read, and reports
// whether it has another.
func (c *bm25Cursor) next() bool {
	if c.at < len(c.ps) || len(c.rest) == 0 {
		return false
	}
	c.ps, c.rest, c.at = c.rest[0], c.rest[1:], 0
	return true
}

// bm25Scratch is the per-query state, reused through bm25Index.pool.
type bm25Scratch struct {
	acc     []bm25Acc    // by slot, less the block's first slot
	touched []int32      // the slots of the block with a query word
	req     []bm25Cursor // the distinct required words
	words   []bm25Cursor // every query word, in query order
}

// Rank appends the best q.K tools in scope with a query word and every
// required word. Only the tools in the query words' postings are visited.
//
// The postings are in slot order (bm25Slot), and Rank
// reads them a block of slots at a time: for each block, the required
// words' postings of the block, then every word's in query order, into
// accumulators of the block's slots only; then it offers the block's
// tools and clears their accumulators. A tool's score is the same sum, in
// the same order, as one pass over each whole list would make.
func (x *bm25Index) Rank(_ context.Context, q Query, hits []Hit) ([]Hit, []string, error) {
	all, required := queryWords(q.Text)
	if len(all) == 0 || x.n == 0 {
		return hits, nil, nil
	}
	best := q.TopHits(hits)
	k1, lens := x.st.k1, x.lens
	if len(all) == 1 { // one word: each posting is a tool's whole score
		l := x.post.Get(all[0])
		if l.Len() == 0 {
			return hits, nil, nil
		}
		weight := idf(l.Len(), x.n)
		for _, ps := range l.Pages() {
			for _, p := range ps {
				tf := float64(p.tf)
				score := weight * tf * (k1 + 1) / (tf + lens.of(p.dl)) // (0 + score: the same)
				if !best.Below(score) {
					best.Offer(x.c.Position(int(p.slot)), score, p.rules)
				}
			}
		}
		return best.Hits(), nil, nil
	}
	sc := x.pool.get()
	defer func() {
		clear(sc.req) // (the cursors hold postings of this version)
		clear(sc.words)
		x.pool.put(sc)
	}()
	sc.req, sc.words = sc.req[:0], sc.words[:0]
	for i, w := range required {
		if slices.Contains(required[:i], w) {
			continue
		}
		l := x.post.Get(w)
		if l.Len() == 0 { // no tool has every required word
			return hits, nil, nil
		}
		sc.req = append(sc.req, newBM25Cursor(l, 0))
	}
	nreq := int32(len(sc.req))
	for _, w := range all {
		if l := x.post.Get(w); l.Len() > 0 {
			sc.words = append(sc.words, newBM25Cursor(l, idf(l.Len(), x.n)))
		}
	}
	block := x.st.block
	if block <= 0 {
		block = bm25BlockSlots
	}
	block = min(block, int32(x.c.Slots()))
	if len(sc.acc) < int(block) {
		sc.acc = make([]bm25Acc, block)
	}
	acc := sc.acc
	for {
		// The next block: the one holding the first slot left unread.
		lo := int32(math.MaxInt32)
		for i := range sc.words {
			if c := &sc.words[i]; c.at < len(c.ps) {
				lo = min(lo, c.ps[c.at].slot)
			}
		}
		if lo == math.MaxInt32 {
			break
		}
		lo -= lo % block
		hi := lo + block
		for i := range sc.req {
			c := &sc.req[i]
			for ok := true; ok; ok = c.next() {
				for ; c.at < len(c.ps) && c.ps[c.at].slot < hi; c.at++ {
					s := c.ps[c.at].slot
					a := &acc[s-lo]
					if !a.touched {
						a.touched = true
						sc.touched = append(sc.touched, s)
					}
					a.need++
				}
			}
		}
		for i := range sc.words {
			c := &sc.words[i]
			weight := c.weight
			for ok := true; ok; ok = c.next() {
				for ; c.at < len(c.ps) && c.ps[c.at].slot < hi; c.at++ {
					p := &c.ps[c.at]
					tf := float64(p.tf)
					norm := lens.of(p.dl)
					a := &acc[p.slot-lo]
					if !a.touched {
						a.touched = true
						sc.touched = append(sc.touched, p.slot)
					}
					a.score += weight * tf * (k1 + 1) / (tf + norm)
					a.rules |= p.rules
				}
			}
		}
		for _, s := range sc.touched {
			a := &acc[s-lo]
			if a.score > 0 && a.need == nreq && !best.Below(a.score) {
				best.Offer(x.c.Position(int(s)), a.score, a.rules)
			}
			*a = bm25Acc{}
		}
		sc.touched = sc.touched[:0]
	}
	return best.Hits(), nil, nil
}
