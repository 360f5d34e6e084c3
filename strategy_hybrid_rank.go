package toolsearch

import (
	"context"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/words"
)

// hybridTerm is one term of a query for the hybrid index.
type hybridTerm struct {
	word, stem string
	required   bool
	stop       bool // a stop word kept in a query that has other words
}

// terms parses a query into its terms. Each whitespace-separated token
// ("+token": required) is cut into pieces at characters other than
// letters, digits and the name separators '_', '-' and '.'; a piece is
// split into words as tool names are (words.NameWords). A piece of several
// words whose words joined are a word some tool has (GitHub, e-mail) is
// that one term; otherwise its words are terms, and so is their join
// (listpullrequests), which the full-name rule matches. Terms of the same
// stem are kept once (required if any was); stop words come last, marked
// as such, unless the query has nothing else.
func (x *hybridIndex) terms(query string) []hybridTerm {
	return hybridTerms(query, x.knownWord, x.p.stop > 0)
}

// hybridTerms is the parse of terms: known reports whether some tool has
// a stem as a word of its own, and stops whether stop words are kept.
func hybridTerms(query string, known func(string) bool, stops bool) []hybridTerm {
	var allBuf [8]hybridTerm // most queries have few terms: no allocation for them
	all := allBuf[:0]
	var ws, pieces []string
	for _, tok := range words.Fields(query) {
		req := len(tok) > 1 && tok[0] == '+'
		if req {
			tok = tok[1:]
		}
		pieces = appendPieces(pieces[:0], tok)
		for _, piece := range pieces {
			ws = words.NameWords(ws[:0], piece)
			if len(ws) == 1 {
				all = append(all, hybridTerm{word: ws[0], stem: words.Stem(ws[0]), required: req})
				continue
			}
			if len(ws) == 0 {
				continue
			}
			joined := strings.Join(ws, "")
			js := words.Stem(joined)
			if known(js) {
				all = append(all, hybridTerm{word: joined, stem: js, required: req})
				continue
			}
			for _, w := range ws {
				all = append(all, hybridTerm{word: w, stem: words.Stem(w), required: req})
			}
			all = append(all, hybridTerm{word: joined, stem: js})
		}
	}
	out := make([]hybridTerm, 0, len(all))
	var stopWords []hybridTerm
	var seen map[string]int // with many terms; with few, out is searched
	if len(all) > 16 {
		seen = make(map[string]int, len(all))
	}
	keep := func(t hybridTerm) {
		i, ok := -1, false
		if seen != nil {
			i, ok = seen[t.stem]
		} else {
			for j := range out {
				if out[j].stem == t.stem {
					i, ok = j, true
					break
				}
			}
		}
		if ok {
			out[i].required = out[i].required || t.required
			return
		}
		if seen != nil {
			seen[t.stem] = len(out)
		}
		out = append(out, t)
	}
	for _, t := range all {
		if words.IsStop(t.word) && !t.required {
			t.stop = true
			stopWords = append(stopWords, t)
		} else {
			keep(t)
		}
	}
	if len(out) == 0 { // only stop words: they are the terms
		for _, t := range all {
			keep(t)
		}
		return out
	}
	if stops { // stop words count a little, after the other terms
		for _, t := range stopWords {
			keep(t)
		}
	}
	return out
}

// appendPieces appends the pieces of tok (tokenPieces) to dst.
func appendPieces(dst []string, tok string) []string {
	for i := 0; i < len(tok); i++ {
		if tok[i] >= utf8.RuneSelf {
			return append(dst, tokenPieces(tok)...)
		}
	}
	start := -1
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; {
		case c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			if start < 0 {
				start = i
			}
		case start >= 0:
			dst = append(dst, tok[start:i])
			start = -1
		}
	}
	if start >= 0 {
		dst = append(dst, tok[start:])
	}
	return dst
}

// tokenPieces cuts a query token at characters other than letters, digits,
// marks and the name separators '_', '-' and '.'.
func tokenPieces(tok string) []string {
	return strings.FieldsFunc(tok, func(r rune) bool {
		return !(r == '_' || r == '-' || r == '.' || words.IsWordRune(r))
	})
}

// knownWord reports whether some tool has the stem s as a word of its
// name, hint, description or arguments.
func (x *hybridIndex) knownWord(s string) bool { return x.post.Get(s).Len() > 0 }

// hybridAcc is one tool's state during a query, in 16 bytes (the array
// of a large registry is read at random, once per posting).
type hybridAcc struct {
	score                     float64 // the score so far
	matched, needed, nameHits uint16  // terms matched (stop words left out), required terms matched, own name words hit
	// rules holds the rules that fired and, in its top two bits (rules no
	// hybrid match fires), the name credit the current term gives the
	// tool, if any: an index of hybridQuery.credits, shifted by
	// creditShift.
	rules Rule
	own   uint8 // with nameHits > 0: the tool's hybridPost.own
}

// creditShift is where hybridAcc.rules keeps the current term's credit.
const creditShift = 6

// credit returns the name credit the current term gives the tool.
func (a *hybridAcc) credit() Rule { return a.rules >> creditShift }

// The name credits of a term, by their index in hybridQuery.credits.
const (
	creditJoin Rule = 1 + iota
	creditPart
	creditTypo
)

// creditRules are the rules of the name credits.
var creditRules = [4]Rule{0, RuleFullName, RulePartSubstring, RulePartSubstring}

// hybridMaxAccTerms is the most terms a query's accumulators count.
const hybridMaxAccTerms = math.MaxUint16

// hybridScratch is the per-query state, reused through hybridIndex.scratch.
type hybridScratch struct {
	acc  []hybridAcc
	all  []int32  // tools touched by the query
	cred []int32  // tools the current term gives a name credit, each once
	kind []Rule   // their credits
	mark []uint64 // a bit per slot: in cred and not yet scored (a probe: a candidate); clear between queries

	probe   []probeTerm // the terms of a probed query
	credBuf []int32     // their credited tools
	kindBuf []Rule      // and credits
	credOf  []uint32    // per slot: the credit of term i at bits 2i, 2i+1
	cand    []int32     // its candidates
	fresh   []uint64    // a bit per slot: a candidate not yet scored
	sorted  []int32     // credited tools in slot order (postedCredits)
}

// Rank appends the best q.K tools in scope with a query term and every
// required term.
func (x *hybridIndex) Rank(ctx context.Context, qu Query, hits []Hit) ([]Hit, []string, error) {
	terms := x.terms(qu.Text)
	if len(terms) == 0 || x.n == 0 {
		return hits, nil, nil
	}
	var notes []string
	if len(terms) > hybridMaxAccTerms { // only with a term budget raised past it
		notes = []string{hybridTermsCut(len(terms), hybridMaxAccTerms)}
		terms = keepTerms(terms, hybridMaxAccTerms)
	}
	sc := x.getScratch()
	best := qu.TopHits(hits)
	work := querywork.Of(ctx) // pays for the name parts compared
	switch {
	case len(terms) == 1:
		x.rankOne(ctx, terms[0], sc, work, &best)
	case x.probeWorth(qu, terms):
		x.rankProbe(ctx, terms, sc, work, &best)
	default:
		x.rankTerms(ctx, terms, sc, work, &best)
	}
	x.scratch.put(sc)
	return best.Hits(), notes, nil
}

// getScratch returns a scratch from the pool, its arrays as long as the
// slots of x.
func (x *hybridIndex) getScratch() *hybridScratch {
	sc := x.scratch.get()
	if slots := x.c.Slots(); len(sc.acc) < slots {
		sc.acc = make([]hybridAcc, slots+slots/8)
		sc.mark = make([]uint64, (len(sc.acc)+63)/64)
		sc.fresh = make([]uint64, len(sc.mark))
		sc.credOf = make([]uint32, len(sc.acc))
	}
	return sc
}

// rankTerms scores the terms one at a time into sc's accumulators, then
// offers every tool they reached to best.
func (x *hybridIndex) rankTerms(ctx context.Context, terms []hybridTerm, sc *hybridScratch, work *querywork.Budget, best *TopHits) {
	p := x.p
	q := x.newQuery()
	var required, counted uint16
	for _, t := range terms {
		x.scoreTerm(ctx, sc, &q, t, work)
		if t.required {
			required++
		}
		if !t.stop {
			counted++
		}
	}
	thr := best.threshold() // Below(s) is s < thr, until the next Offer
	prune := p.nameCover >= 0
	var cover coverTable
	covered := p.coverage != 0 && counted > 0
	if covered {
		cover.init(int(counted), p.coverage)
	}
	acc := sc.acc
	for _, d := range sc.all {
		ap := &acc[d]
		a := *ap
		*ap = hybridAcc{}
		s := a.score
		if !(s > 0) || a.needed < required || a.matched == 0 && counted > 0 {
			continue
		}
		if covered {
			s *= cover.factor(int(a.matched))
		}
		// The name-cover factor, 1 + nameCover × nameHits / own, is 1
		// without name hits, and at most 1 + nameCover × nameHits: a
		// tool that cannot enter the kept hits is left before its
		// own name words are looked at. (Offer keeps nothing below thr.)
		if a.nameHits > 0 {
			if prune && s*(1+p.nameCover*float64(a.nameHits)) < thr {
				continue
			}
			s = x.nameCovered(s, &a, d)
		}
		if s >= thr {
			best.Offer(x.c.Position(int(d)), s, a.rules&^(3<<creditShift))
			thr = best.threshold()
		}
	}
	sc.all = sc.all[:0]
}

// nameCovered returns s times the name-cover factor of the tool at slot
// d, whose accumulator a has name hits: 1 + nameCover × nameHits / own,
// or 1 for a tool without own name words.
func (x *hybridIndex) nameCovered(s float64, a *hybridAcc, d int32) float64 {
	nw := int32(a.own)
	if a.own == ownLarge {
		nw = x.info.At(d).own
	}
	if nw > 0 {
		s *= x.p.coverOf(int32(a.nameHits), nw)
	}
	return s
}

// coverOf is the name-cover factor of hits own name word hits of a tool
// with nw own name words (nw > 0).
func (p *hybridParams) coverOf(hits, nw int32) float64 {
	return 1 + p.nameCover*float64(hits)/float64(nw)
}

// keepTerms returns the first n of terms, the required ones first, in
// their order.
func keepTerms(terms []hybridTerm, n int) []hybridTerm {
	kept := make([]hybridTerm, 0, n)
	for _, req := range []bool{true, false} {
		for _, t := range terms {
			if t.required == req && len(kept) < n {
				kept = append(kept, t)
			}
		}
	}
	return kept
}

// hybridQuery is what a query reads of the index statistics.
type hybridQuery struct {
	lens    *hybridLens
	credits [4]float64 // by hybridAcc.credit
}

// gatherCredits appends to slots and kinds the tools term t gives a name
// credit and the credit (creditJoin, creditPart, creditTypo): those whose
// adjacent name words join into the term, those with a name part
// containing it (paid from work), and, when nothing else reaches the
// term, those with a name word one edit from it. Each tool comes once,
// with the first of these rules, and has its bit set in mark (clear
// between terms).
func (x *hybridIndex) gatherCredits(ctx context.Context, t hybridTerm, post cow.List[hybridPost], work *querywork.Budget, mark []uint64, slots []int32, kinds []Rule) ([]int32, []Rule) {
	if t.stop {
		return slots, kinds
	}
	cr := creditor{mark: mark, slots: slots, kinds: kinds}
	start := len(slots)
	cr.pages(x.joins.Get(t.stem).Pages(), creditJoin)
	if len(t.word) >= 3 && partChars(t.word) && !work.Cut() {
		x.c.partsContaining(ctx, t.word, func(pp *postings) {
			cr.pages(pp.part.Pages(), creditPart)
			cr.pages(pp.mpart.Pages(), creditPart)
		})
	}
	if post.Len() == 0 && len(cr.slots) == start && len(t.word) >= minTypoLen {
		for _, cw := range x.typoWords(t.word) {
			for ps := range x.post.Get(words.Stem(cw)).All() {
				if ps.name() {
					cr.one(ps.slot, creditTypo)
				}
			}
		}
	}
	slots, kinds = cr.slots, cr.kinds
	return slots, kinds
}

// creditor gathers the credited tools: each once, marked in mark, with
// the credit of the first rule that reaches it.
type creditor struct {
	mark  []uint64
	slots []int32
	kinds []Rule
}

// one credits the tool at slot d with c, unless it is credited.
func (cr *creditor) one(d int32, c Rule) {
	if bit := uint64(1) << (d & 63); cr.mark[d>>6]&bit == 0 {
		cr.mark[d>>6] |= bit
		cr.slots = append(cr.slots, d)
		cr.kinds = append(cr.kinds, c)
	}
}

// pages credits the tools of pages (slots) with c, but those already
// credited (one's loop, with mark in a register).
func (cr *creditor) pages(pages [][]int32, c Rule) {
	mark := cr.mark
	for _, ds := range pages {
		for _, d := range ds {
			if bit := uint64(1) << (d & 63); mark[d>>6]&bit == 0 {
				mark[d>>6] |= bit
				cr.slots = append(cr.slots, d)
				cr.kinds = append(cr.kinds, c)
			}
		}
	}
}

// scoreTerm adds term t to the scores in sc. The tools a term reaches are
// the stem's postings and the tools its name credits reach (the full-name
// rule, the name-part rule and, when nothing else matches, the typo rule;
// a tool whose posting says a name word has the stem takes no credit). The
// credits are gathered first, each tool once (the first rule wins) and
// marked in sc.mark; the term's IDF counts the postings plus the credited
// tools without one; then each posting reads and writes its tool's
// accumulator once, and the credited tools without a posting last.
func (x *hybridIndex) scoreTerm(ctx context.Context, sc *hybridScratch, q *hybridQuery, t hybridTerm, work *querywork.Budget) {
	p := &x.p
	acc, mark := sc.acc, sc.mark
	post := x.post.Get(t.stem)
	sc.cred, sc.kind = x.gatherCredits(ctx, t, post, work, mark, sc.cred[:0], sc.kind[:0])
	for i, d := range sc.cred {
		a := &acc[d]
		a.rules = a.rules&^(3<<creditShift) | sc.kind[i]<<creditShift
	}
	both := sc.postedCredits(post, sc.cred) // postings of credited tools
	n := post.Len() + len(sc.cred) - both
	if n == 0 {
		return
	}
	weight := idf(n, x.n)
	if t.stop {
		weight *= p.stop
	}
	// What a match adds to a tool's counts: a counted term adds 1 to
	// matched, a required one 1 to needed too.
	var matched, needed uint16
	if !t.stop {
		matched = 1
		if t.required {
			needed = 1
		}
	}
	r := termRun{acc: acc, mark: mark, lens: q.lens, all: sc.all, credits: q.credits,
		weight: weight, k1: p.k1, k1p1: p.k1 + 1, matched: matched, needed: needed, both: both > 0}
	for _, pg := range post.Pages() {
		for i := 0; ; i++ {
			if i = r.page(pg, i); i >= len(pg) {
				break
			}
			ps := &pg[i] // its weight is not in the tables
			r.post(ps, float64(x.postWeight(q, ps, t.stem)))
		}
	}
	for _, d := range sc.cred {
		if bit := uint64(1) << (d & 63); mark[d>>6]&bit != 0 {
			mark[d>>6] &^= bit
			a := &acc[d]
			c := a.credit()
			a.rules |= creditRules[c]
			r.add(a, d, q.credits[c])
		}
	}
	sc.all = r.all
}

// termRun is what scoreTerm needs to score a term's postings into the
// accumulators in a loop of its own (termRun.page), without the call of
// the general weight that would keep the loop's variables on the stack.
type termRun struct {
	acc              []hybridAcc
	mark             []uint64 // the credited tools not yet scored
	lens             *hybridLens
	all              []int32    // hybridScratch.all: the tools reached
	credits          [4]float64 // hybridQuery.credits
	weight, k1, k1p1 float64    // the term's idf, and the saturation's
	matched, needed  uint16     // what a match adds to a tool's counts
	both             bool       // some credited tools have a posting
}

// page scores the postings of pg from i on, up to the first whose weight
// is not in hybridLens' tables (the caller scores it, by post), and
// returns its index (len(pg) when none). i is at least 0.
//
//go:noinline
func (r *termRun) page(pg []hybridPost, i int) int {
	acc, mark, lens := r.acc, r.mark, r.lens
	_ = lens.b // one nil check, before the loop
	for ; uint(i) < uint(len(pg)); i++ {
		ps := &pg[i]
		f := ps.flags
		if f&postFast == 0 {
			return i
		}
		// post's work, written out: a call would cost more than it.
		w := float64(lens.weight(ps))
		d := ps.slot
		a := &acc[d]
		if r.both && mark[d>>6]&(1<<(d&63)) != 0 {
			mark[d>>6] &^= 1 << (d & 63)
			if f&postName == 0 {
				c := a.credit()
				w += r.credits[c]
				a.rules |= creditRules[c]
			}
		}
		if f&(postName|postServer) == postName {
			a.nameHits++
			a.own = ps.own
		}
		a.rules |= f & postRules
		r.add(a, d, w)
	}
	return i
}

// post scores posting ps, of weight w: its credit taken (its mark
// cleared, the credit added unless a name word has the term), its name
// hit and rules noted, the saturated weight added.
func (r *termRun) post(ps *hybridPost, w float64) {
	d := ps.slot
	a := &r.acc[d]
	f := ps.flags
	if r.both && r.mark[d>>6]&(1<<(d&63)) != 0 {
		r.mark[d>>6] &^= 1 << (d & 63)
		if f&postName == 0 {
			c := a.credit()
			w += r.credits[c]
			a.rules |= creditRules[c]
		}
	}
	if f&(postName|postServer) == postName {
		a.nameHits++
		a.own = ps.own
	}
	a.rules |= f & postRules
	r.add(a, d, w)
}

// add adds the term's weight w in the tool at slot d.
func (r *termRun) add(a *hybridAcc, d int32, w float64) {
	if a.score == 0 && a.matched == 0 {
		r.all = append(r.all, d)
	}
	a.score += r.weight * w * r.k1p1 / (w + r.k1)
	a.matched += r.matched
	a.needed += r.needed
}
