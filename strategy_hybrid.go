package toolsearch

import (
	"math"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/schema"
	"github.com/toolsearch/toolsearch/internal/words"
)

// The hybrid weights. A query term adds idf × sat(w), where w is the term's
// weighted frequency in the tool:
//
//	w = hybridName·[a name word has the term's stem, or adjacent name words joined do]
//	  + hybridNamePart·[else a name part contains the term]
//	  + hybridTypo·hybridName·[else, when no tool has the term, a name word is one edit from it]
//	  + hybridHint·tf(hint) + hybridLead·tf(first sentence of the description)
//	  + tf(description)/lenNorm + hybridArgument·tf(arguments)/lenNorm
//
// sat(w) = w·(k1+1)/(w+k1) with k1 = hybridK1, lenNorm = 1 − b + b·len/avglen
// with b = hybridB (per field), and idf = ln(1 + (N − n + 0.5)/(n + 0.5))
// over the n tools the term matches; a stop word's idf is multiplied by
// hybridStopWord. The sum over the query's terms is multiplied by (matched
// terms / query terms)^hybridCoverage, stop words not counted, then by 1 +
// hybridNameCover × the fraction of the tool's own name words (its
// server's not counted) the query has.
const (
	hybridName      = 3.0  // a name word has the query term's stem
	hybridNamePart  = 1.5  // a name part contains the query term (3+ letters)
	hybridTypo      = 0.25 // of a name match, for a term one edit from a name word
	hybridHint      = 1.5  // per occurrence in the search hint
	hybridLead      = 0.5  // per occurrence in the description's first sentence, its summary
	hybridArgument  = 0.3  // per occurrence in argument names and descriptions
	hybridStopWord  = 0.5  // of the idf, for a stop word in a query that has other words
	hybridK1        = 1.2  // saturation
	hybridB         = 0.75 // length normalisation
	hybridCoverage  = 1.0  // preference for tools matching more query terms
	hybridNameCover = 0.25 // of read_file and read_multiple_files, "read file" prefers the first
)

// hybridMaxTerms is the hybrid term budget: a term costs a few postings
// lookups and a scan of the name parts that share its rarest letter pair.
const hybridMaxTerms = 128

// hybridParams are the hybrid weights as one value (the constants above).
type hybridParams struct {
	name, namePart, typo, hint, lead, arg, stop, k1, b, coverage, nameCover float64
}

var hybridDefaults = hybridParams{hybridName, hybridNamePart, hybridTypo, hybridHint, hybridLead, hybridArgument,
	hybridStopWord, hybridK1, hybridB, hybridCoverage, hybridNameCover}

type hybridStrategy struct{ p hybridParams }

// HybridStrategy returns the hybrid strategy, made for queries written by
// models, whatever their shape: keywords, a tool's name (whole, in part,
// in snake_case, camelCase or kebab-case, with a typo), or a sentence.
//
//   - a tool's name is split into words (at "_", "-", ".", "__" and
//     camelCase boundaries); a query term found there weighs most, a term
//     contained in a name part next (the default strategy's precedence of
//     name parts), and a term no tool has that is one edit (a letter
//     deleted, added, replaced, or two swapped) from a name word counts a
//     little (reported as RulePartSubstring, the closest rule);
//   - a query token is split as names are (listPullRequests → list, pull,
//     requests), unless it is a word some tool has as written (GitHub,
//     e-mail); its words joined (listpullrequests) is a term too, which
//     matches a tool whose adjacent name words join into it (the full-name
//     rule, RuleFullName);
//   - the search hint, description and argument names and descriptions
//     (a weak field) are bags of words, saturated and length-normalised as
//     in BM25, and the description's first sentence, its summary, counts
//     a little more;
//   - rare terms count more than common ones (IDF over the deferred
//     tools);
//   - English function words ("the", "for", "can", "please" …) count half
//     and do not make a tool cover more of the query; alone in a query,
//     they count fully;
//   - words are compared after a light normalisation of plurals and verb
//     forms (issues → issue, created/creating/creates → create);
//   - tools matching more of the query's terms, and more of their own
//     name's words, rank higher.
//
// In numbers: each query term adds idf × w·(k1+1)/(w+k1), with k1 = 1.2,
// idf = ln(1 + (N − n + 0.5)/(n + 0.5)) over the N deferred tools, n of
// which match the term (halved for a stop word), and w the term's weight
// in the tool: 3 when a name word has its normal form (or adjacent name
// words joined do), else 1.5 when a name part contains it (terms of 3 or
// more letters), else 0.75 for a name word one edit away when no tool has
// the term (terms of 4 or more letters); plus 1.5 per occurrence in the
// hint, 0.5 per occurrence in the description's first sentence, 1 per
// occurrence in the description and 0.3 per occurrence in the arguments,
// these two divided by 1 − b + b × length/average length with b = 0.75.
// The sum is multiplied by the fraction of the query's terms (stop words
// left out) the tool matches, then by 1 + 0.25 × the fraction of the
// tool's own name words (not its server's) the query has. The weights are
// fixed: chosen by design, checked one at a time on the even-numbered
// queries of public benchmarks, and reported on the odd-numbered ones.
//
// Repeated query terms count once. "+word" makes word required (its
// normalised form in some field, or contained in a name part). Ties keep
// pool order; tools matching no query term are left out. Its term budget
// (StrategyInput.MaxTerms) is 128.
func HybridStrategy() Strategy { return hybridStrategy{hybridDefaults} }

func (hybridStrategy) Name() string { return "hybrid" }
func (hybridStrategy) Input() StrategyInput {
	return StrategyInput{MaxTerms: hybridMaxTerms}
}

// hybridDoc is the per-tool data of the hybrid index, kept from one index
// to the next while the tool is unchanged.
type hybridDoc struct {
	stems         []stemCount // by stem
	words         []string    // the name words, lowercased
	joins         []string    // stems of two or more adjacent name words joined
	parts         []string    // lowercased name parts, for the substring rule
	descLen, args float64     // words in the description and the arguments
	own           int         // name word stems that are not only the server's
}

// stemCount is where one stem occurs in a tool.
type stemCount struct {
	stem                  string
	hint, lead, desc, arg float32 // occurrences
	name, server          bool    // a name word has it; only the server's name
}

// maxJoin is the most adjacent name words the full-name rule joins.
const maxJoin = 6

func newHybridDoc(t *Tool) *hybridDoc {
	d := &hybridDoc{words: words.NameWords(nil, t.Name)}
	m := map[string]*stemCount{}
	at := func(w string) *stemCount {
		s := words.Stem(w)
		c := m[s]
		if c == nil {
			c = &stemCount{stem: s}
			m[s] = c
		}
		return c
	}
	for i, w := range d.words {
		at(w).name = true
		joined := w
		for j := i + 1; j < len(d.words) && j < i+maxJoin; j++ {
			joined += d.words[j]
			if s := words.Stem(joined); !slices.Contains(d.joins, s) {
				d.joins = append(d.joins, s)
			}
		}
	}
	srv := t.Server
	if rest, ok := strings.CutPrefix(t.Name, "mcp__"); ok && srv == "" {
		srv, _, _ = strings.Cut(rest, "__")
	}
	sw := words.NameWords(nil, srv)
	count := func(l []string, w string) int {
		n := 0
		for _, x := range l {
			if x == w {
				n++
			}
		}
		return n
	}
	server := 0
	for _, w := range sw {
		if c := at(w); count(d.words, w) <= count(sw, w) && !c.server { // the tool's own name does not have it
			c.server = true
			server++
		}
	}
	for _, w := range words.Words(nil, t.SearchHint) {
		at(w).hint++
	}
	first, _, _ := strings.Cut(t.Description, ". ")
	first, _, _ = strings.Cut(first, "\n")
	for _, w := range words.Words(nil, first) {
		at(w).lead++
	}
	for _, w := range words.Words(nil, t.Description) {
		at(w).desc++
		d.descLen++
	}
	names, descs := schema.ArgumentTexts(t.InputSchema)
	var ws []string
	for _, n := range names {
		ws = words.NameWords(ws, n)
	}
	for _, s := range descs {
		ws = words.Words(ws, s)
	}
	for _, w := range ws {
		at(w).arg++
		d.args++
	}
	d.stems = make([]stemCount, 0, len(m))
	for _, c := range m {
		d.stems = append(d.stems, *c)
		if c.name {
			d.own++
		}
	}
	d.own -= server
	slices.SortFunc(d.stems, func(a, b stemCount) int { return strings.Compare(a.stem, b.stem) })
	d.parts, _ = nameParts(t.Name)
	return d
}

// The hybrid index is kept by keyword-index slot, like the bm25 index: the
// index of a new registry version is the previous one with the tools that
// changed patched in (sharded copy-on-write tables of lists in pages
// shared between versions, internal/cow). A posting
// holds a stem's occurrences in one tool, the tool's description and
// argument lengths and its own name word count, not its weight: the lengths
// are normalised by averages that change with every tool, so the weight is
// computed at query time from the posting alone and small tables made for
// each index version (hybridLens: the normalisations by length, and the
// normalised terms of small counts, which spare most postings a division):
// a query reads no per-tool array but its accumulators. The name-part rule reads the keyword index's
// vocabulary of name parts and its part postings (same slots,
// Corpus.PartsContaining). The typo keys only grow: a key left by a removed
// tool names a word no tool has, which finds no postings.

// hybridPost is one tool's entry in a stem's postings list: the stem's
// occurrences per field, the rules it fires, the tool's lengths and its
// own name words, in 16 bytes. Counts too large for their field (postBig,
// saturated here) are kept whole in the index's big table; lengths too
// large (postLong) are read from the index's slot data.
type hybridPost struct {
	slot       int32
	desc, arg  uint16 // occurrences
	hint, lead uint8
	// flags holds the rules the posting fires (postRules: RulePartExact
	// when a name word has the stem, RuleHint, RuleDescription,
	// RuleArgument) and, in bits no posting's rule uses, postServer,
	// postBig, postLong and postFast.
	flags      Rule
	own        uint8  // the tool's hybridSlot.own: 0 when below 1, ownLarge when that or more
	dlen, alen uint16 // the tool's description and argument lengths in words
}

const (
	postName   = RulePartExact     // a name word has the stem
	postServer = RulePartSubstring // only the server's name has it (the bit of a rule no posting fires)
	postBig    = RuleFullName      // the counts are in hybridIndex.big (likewise)
	postLong   = Rule(1 << 7)      // the lengths are in hybridIndex.info (a bit no rule has)
	postFast   = RuleSemantic      // the weight is in hybridLens' tables (fastWeight; the bit of a rule no posting fires)
	// postRules are the bits of flags that are rules.
	postRules = RulePartExact | RuleHint | RuleDescription | RuleArgument
)

// ownLarge in hybridPost.own says the tool has that many own name words or
// more: hybridSlot.own has the number (a registry's names are at most
// maxNameLength bytes, so only a Corpus of tools not validated has one).
const ownLarge = math.MaxUint8

// hybridBig is a posting's counts when one does not fit a hybridPost.
type hybridBig struct {
	slot                  int32
	hint, lead, desc, arg float32
}

func (ps *hybridPost) name() bool { return ps.flags&postName != 0 }

// newHybridPost returns the posting of c at slot s in a tool of document d,
// and whether its counts need a hybridBig.
func newHybridPost(s int32, c *stemCount, d *hybridDoc) (hybridPost, bool) {
	ps := hybridPost{slot: s, own: uint8(min(max(d.own, 0), ownLarge))}
	if d.descLen > math.MaxUint16 || d.args > math.MaxUint16 {
		ps.flags |= postLong
	} else {
		ps.dlen, ps.alen = uint16(d.descLen), uint16(d.args)
	}
	big := c.hint > math.MaxUint8 || c.lead > math.MaxUint8 || c.desc > math.MaxUint16 || c.arg > math.MaxUint16
	if big {
		ps.flags |= postBig
	}
	ps.hint, ps.lead = uint8(min(c.hint, math.MaxUint8)), uint8(min(c.lead, math.MaxUint8))
	ps.desc, ps.arg = uint16(min(c.desc, math.MaxUint16)), uint16(min(c.arg, math.MaxUint16))
	if c.name {
		ps.flags |= postName
	}
	if c.server {
		ps.flags |= postServer
	}
	if c.hint > 0 {
		ps.flags |= RuleHint
	}
	if c.desc > 0 {
		ps.flags |= RuleDescription
	}
	if c.arg > 0 {
		ps.flags |= RuleArgument
	}
	if ps.flags&(postBig|postLong) == 0 && (ps.desc|ps.arg|uint16(ps.lead)|uint16(ps.hint)) < hybridFastCounts && (ps.dlen|ps.alen) < hybridFastLens {
		ps.flags |= postFast
	}
	return ps, big
}

// hybridSlot is what the hybrid index knows of the tool at a slot.
type hybridSlot struct {
	descLen, args float32 // words in the description and the arguments
	own           int32   // name word stems that are not only the server's
}

type hybridIndex struct {
	p       hybridParams
	c       *Corpus // the tools, by slot, and their name parts
	n       int
	sumDesc float64 // the sums of descLen and args (whole numbers: exact)
	sumArg  float64
	info    cow.Paged[hybridSlot]
	post    cow.ShardedMap[cow.List[hybridPost]] // stem → its postings, in slot order
	big     cow.ShardedMap[[]hybridBig]          // stem → the counts of its postBig postings
	joins   cow.ShardedMap[cow.List[int32]]      // stem of adjacent name words joined → slots, in order
	typos   cow.ShardedMap[[]string]             // a name word, and each with a letter deleted → the name words
	named   cow.ShardedMap[int32]                // a name word of minTypoLen or more letters → the tools that have it
	scratch *pool[hybridScratch]                 // shared by the versions of the index
	lens    *hybridLens                          // the length normalisations of this version
}

// Index returns the postings of every word stem of c's tools.
func (st hybridStrategy) Index(c *Corpus) Index {
	empty := &hybridIndex{p: st.p, post: cow.NewShardedMap[cow.List[hybridPost]](0), big: cow.NewShardedMap[[]hybridBig](0),
		joins: cow.NewShardedMap[cow.List[int32]](0), typos: cow.NewShardedMap[[]string](0), named: cow.NewShardedMap[int32](0),
		scratch: &pool[hybridScratch]{}}
	return empty.Update(c)
}

// Update returns x with the tools that changed between x's Corpus and c
// patched in.
func (x *hybridIndex) Update(c *Corpus) Index {
	p := x
	x = &hybridIndex{p: p.p, c: c, n: c.Len(), sumDesc: p.sumDesc, sumArg: p.sumArg, scratch: p.scratch}
	type delta struct {
		gone []int32
		join []hybridPost
		big  []hybridBig
	}
	posts := map[string]*delta{}
	joins := map[string]*struct{ gone, join []int32 }{}
	typos := p.typos.Edit()
	named := map[string]int32{} // the change of each name word's tool count
	nameWords := func(d *hybridDoc, by int32) {
		for i, w := range d.words {
			if len(w) >= minTypoLen && !slices.Contains(d.words[:i], w) {
				named[w] += by
			}
		}
	}
	info := p.info.Edit()
	c.Changes(p.c, func(slot, was, is int) {
		s := int32(slot)
		if was >= 0 {
			t := p.c.Tool(was)
			d := newHybridDoc(&t)
			x.sumDesc -= d.descLen
			x.sumArg -= d.args
			nameWords(d, -1)
			for _, c := range d.stems {
				pd := posts[c.stem]
				if pd == nil {
					pd = &delta{}
					posts[c.stem] = pd
				}
				pd.gone = append(pd.gone, s)
			}
			for _, j := range d.joins {
				jd := joins[j]
				if jd == nil {
					jd = &struct{ gone, join []int32 }{}
					joins[j] = jd
				}
				jd.gone = append(jd.gone, s)
			}
		}
		if is < 0 {
			return
		}
		t := c.Tool(is)
		d := newHybridDoc(&t)
		x.sumDesc += d.descLen
		x.sumArg += d.args
		nameWords(d, 1)
		info.Set(s, hybridSlot{descLen: float32(d.descLen), args: float32(d.args), own: int32(d.own)})
		for i := range d.stems {
			c := &d.stems[i]
			ps, big := newHybridPost(s, c, d)
			pd := posts[c.stem]
			if pd == nil {
				pd = &delta{}
				posts[c.stem] = pd
			}
			pd.join = append(pd.join, ps)
			if big {
				pd.big = append(pd.big, hybridBig{slot: s, hint: c.hint, lead: c.lead, desc: c.desc, arg: c.arg})
			}
		}
		for _, j := range d.joins {
			jd := joins[j]
			if jd == nil {
				jd = &struct{ gone, join []int32 }{}
				joins[j] = jd
			}
			jd.join = append(jd.join, s)
		}
		for _, w := range d.words {
			addTypoKeys(typos, w)
		}
	})
	if x.n == 0 {
		x.sumDesc, x.sumArg = 0, 0
	}
	pe := p.post.Edit()
	for stem, d := range posts {
		cow.PatchSorted(pe, stem, d.gone, d.join, hybridPostSlot)
	}
	x.post = pe.Done()
	be := p.big.Edit()
	for stem, d := range posts {
		if l, _ := be.Get(stem); len(l) > 0 || len(d.big) > 0 {
			cow.PatchList(be, stem, d.gone, d.big, func(q hybridBig) int32 { return q.slot })
		}
	}
	x.big = be.Done()
	je := p.joins.Edit()
	for stem, d := range joins {
		cow.PatchSorted(je, stem, d.gone, d.join, joinSlot)
	}
	x.joins = je.Done()
	x.typos = typos.Done()
	ne := p.named.Edit()
	for w, by := range named {
		if by == 0 {
			continue
		}
		n, had := ne.Get(w)
		switch {
		case n+by <= 0:
			ne.Del(w)
		case had:
			ne.Set(w, n+by)
		default:
			ne.Set(strings.Clone(w), n+by)
		}
	}
	x.named = ne.Done()
	x.info = info.Done()
	x.lens = x.makeLens()
	return x
}

// hybridPostSlot and joinSlot are the slots of the elements of the
// postings and joins lists. The lists are in slot order, in pages shared
// between versions (cow.List): a change copies the pages it touches, the
// slots leaving and joining each list being in slot order as Changes
// reports them.
func hybridPostSlot(q hybridPost) int32 { return q.slot }
func joinSlot(s int32) int32            { return s }

// minTypoLen is the shortest word the typo rule matches.
const minTypoLen = 4

// addTypoKeys lists name word w under itself and under each of its forms
// with one letter deleted: two words one edit apart share a key. A list is
// copied before it grows (it may be shared with published versions).
func addTypoKeys(e *cow.MapEdit[[]string], w string) {
	if len(w) < minTypoLen {
		return
	}
	if l, _ := e.Get(w); slices.Contains(l, w) {
		return
	}
	w = strings.Clone(w)
	put := func(k string) {
		l, had := e.Get(k)
		if slices.Contains(l, w) {
			return
		}
		if !had {
			k = strings.Clone(k)
		}
		e.Set(k, append(slices.Clip(l), w))
	}
	put(w)
	for j := range len(w) {
		put(w[:j] + w[j+1:])
	}
}

// typoWords returns the name words one edit from w: a letter deleted,
// added or replaced, or two adjacent letters swapped. A word the typo keys
// list that no tool has any more is left out. A name word is at most
// maxNameLength bytes (names are ASCII), so a longer w has none one edit
// away and costs no key: the keys a term builds are bounded by the name
// limit, whatever the term's length.
func (x *hybridIndex) typoWords(w string) []string {
	if len(w) > maxNameLength+1 {
		return nil
	}
	var out []string
	check := func(k string) {
		for _, cw := range x.typos.Get(k) {
			if cw != w && !slices.Contains(out, cw) && oneEdit(w, cw) && x.named.Get(cw) > 0 {
				out = append(out, cw)
			}
		}
	}
	check(w)
	for j := range len(w) {
		check(w[:j] + w[j+1:])
	}
	return out
}

// oneEdit reports whether a and b differ by one deleted, added or replaced
// byte, or two adjacent bytes swapped.
func oneEdit(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	switch len(b) - len(a) {
	case 0:
		if i == len(a) {
			return false
		}
		return a[i+1:] == b[i+1:] || i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case 1:
		return a[i:] == b[i+1:]
	}
	return false
}

// hybridCoverCached is how many coverage factors a query computes once.
const hybridCoverCached = 64

// coverFactor is the coverage factor of a tool matching m of the query's
// counted terms.
func coverFactor(m, counted int, coverage float64) float64 {
	if coverage == 1 {
		return float64(m) / float64(counted) // what math.Pow gives
	}
	return math.Pow(float64(m)/float64(counted), coverage)
}

// coverTable holds a query's coverage factors: those of 0 to
// hybridCoverCached − 1 matched terms computed once, by coverFactor.
type coverTable struct {
	f        [hybridCoverCached]float64
	counted  int
	coverage float64
}

// init computes the factors of a query with counted terms.
func (t *coverTable) init(counted int, coverage float64) {
	t.counted, t.coverage = counted, coverage
	for m := range min(counted+1, len(t.f)) {
		t.f[m] = coverFactor(m, counted, coverage)
	}
}

// factor is the coverage factor of m matched terms.
func (t *coverTable) factor(m int) float64 {
	if m < len(t.f) {
		return t.f[m]
	}
	return coverFactor(m, t.counted, t.coverage)
}
