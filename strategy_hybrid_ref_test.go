package toolsearch

// The hybrid index as it was before it was kept by slot and patched: built
// from scratch for every registry version, every weight computed when it
// is built. TestHybridMatchesReference checks the index against it.

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/vocab"
	"github.com/toolsearch/toolsearch/internal/words"
)

// refHybridPost is one tool's entry in a stem's postings list: the stem's
// weight w in the tool (computed when the index is built) and the rules
// it fires.
type refHybridPost struct {
	doc          int32
	w            float32
	rules        Rule
	name, server bool // a name word has the stem; only the server's
}

type refHybridIndex struct {
	p       hybridParams
	docs    toolDocs[*hybridDoc]
	text    []*hybridDoc // per tool, in Corpus order
	post    map[string][]refHybridPost
	joins   map[string][]int32  // stem of adjacent name words joined → tools
	typos   map[string][]string // a name word, and each with a letter deleted → the name words
	vocab   *vocab.Vocabulary   // the distinct name parts
	parts   [][]int32           // vocabulary id → the tools with that part
	avgDesc float64
	avgArg  float64
	scratch sync.Pool // *refHybridScratch
}

// Index builds the postings of every word stem of c's tools.
func refHybridBuild(st hybridStrategy, c *Corpus) *refHybridIndex {
	var old toolDocs[*hybridDoc]
	n := c.Len()
	x := &refHybridIndex{
		p:     st.p,
		docs:  make(toolDocs[*hybridDoc], n),
		text:  make([]*hybridDoc, n),
		post:  map[string][]refHybridPost{},
		joins: map[string][]int32{},
		typos: map[string][]string{},
		vocab: &vocab.Vocabulary{},
	}
	var sumDesc, sumArg float64
	for i := range n {
		t := c.Tool(i)
		d := old.get(&t, x.docs, newHybridDoc)
		x.text[i] = d
		sumDesc += d.descLen
		sumArg += d.args
	}
	if n > 0 {
		x.avgDesc, x.avgArg = max(sumDesc/float64(n), 1), max(sumArg/float64(n), 1)
	}
	partID := map[string]int{}
	p := st.p
	for i, d := range x.text {
		descNorm := 1 - p.b + p.b*d.descLen/x.avgDesc
		argNorm := 1 - p.b + p.b*d.args/x.avgArg
		for _, c := range d.stems {
			ps := refHybridPost{doc: int32(i), name: c.name, server: c.server}
			w := p.hint*float64(c.hint) + p.lead*float64(c.lead) + float64(c.desc)/descNorm + p.arg*float64(c.arg)/argNorm
			if c.name {
				w += p.name
				ps.rules |= RulePartExact
			}
			if c.hint > 0 {
				ps.rules |= RuleHint
			}
			if c.desc > 0 {
				ps.rules |= RuleDescription
			}
			if c.arg > 0 {
				ps.rules |= RuleArgument
			}
			ps.w = float32(w)
			x.post[c.stem] = append(x.post[c.stem], ps)
		}
		for _, s := range d.joins {
			x.joins[s] = append(x.joins[s], int32(i))
		}
		for _, w := range d.words {
			x.addTypoKeys(w)
		}
		for j, p := range d.parts {
			if slices.Contains(d.parts[:j], p) {
				continue
			}
			id, ok := partID[p]
			if !ok {
				id = len(x.parts)
				partID[p] = id
				x.vocab.Add(p)
				x.parts = append(x.parts, nil)
			}
			x.parts[id] = append(x.parts[id], int32(i))
		}
	}
	return x
}

// addTypoKeys lists name word w under itself and under each of its forms
// with one letter deleted: two words one edit apart share a key.
func (x *refHybridIndex) addTypoKeys(w string) {
	if len(w) < minTypoLen || slices.Contains(x.typos[w], w) {
		return
	}
	x.typos[w] = append(x.typos[w], w)
	for j := range len(w) {
		k := w[:j] + w[j+1:]
		if !slices.Contains(x.typos[k], w) {
			x.typos[k] = append(x.typos[k], w)
		}
	}
}

// typoWords returns the name words one edit from w: a letter deleted,
// added or replaced, or two adjacent letters swapped.
func (x *refHybridIndex) typoWords(w string) []string {
	var out []string
	check := func(k string) {
		for _, cw := range x.typos[k] {
			if cw != w && !slices.Contains(out, cw) && oneEdit(w, cw) {
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

// terms parses a query as the index does (hybridTerms), with this index's
// vocabulary.
func (x *refHybridIndex) terms(query string) []hybridTerm {
	return hybridTerms(query, x.knownWord, x.p.stop > 0)
}

// knownWord reports whether some tool has the stem s as a word of its
// name, hint, description or arguments.
func (x *refHybridIndex) knownWord(s string) bool { return len(x.post[s]) > 0 }

// refHybridAcc is one tool's state during a query.
type refHybridAcc struct {
	score, w                  float64 // the score so far; the current term's weight
	matched, needed, nameHits int32   // terms matched (stop words left out), required terms matched, own name words hit
	seen, named               int32   // 1 + the term that last touched it, that last gave it a name credit
	rules                     Rule
}

// refHybridScratch is the per-query state, reused through refHybridIndex.scratch.
type refHybridScratch struct {
	acc       []refHybridAcc
	all, term []int32 // tools touched by the query, by the current term
}

// Rank appends every tool with a query term and every required term.
func (x *refHybridIndex) Rank(ctx context.Context, query string, hits []Hit) ([]Hit, []string, error) {
	terms := x.terms(query)
	n := len(x.text)
	if len(terms) == 0 || n == 0 {
		return hits, nil, nil
	}
	sc, _ := x.scratch.Get().(*refHybridScratch)
	if sc == nil || len(sc.acc) < n {
		sc = &refHybridScratch{acc: make([]refHybridAcc, n)}
	}
	var required, counted int32
	work := querywork.Of(ctx) // pays for the name parts compared
	for ti, t := range terms {
		x.scoreTerm(sc, t, int32(ti+1), work)
		if t.required {
			required++
		}
		if !t.stop {
			counted++
		}
	}
	p := x.p
	for _, d := range sc.all {
		a := &sc.acc[d]
		if s := a.score; s > 0 && a.needed >= required && (a.matched > 0 || counted == 0) {
			if p.coverage != 0 && counted > 0 {
				s *= math.Pow(float64(a.matched)/float64(counted), p.coverage)
			}
			if nw := x.text[d].own; nw > 0 {
				s *= 1 + p.nameCover*float64(a.nameHits)/float64(nw)
			}
			hits = append(hits, Hit{Tool: int(d), Score: s, Rules: a.rules})
		}
		*a = refHybridAcc{}
	}
	sc.all, sc.term = sc.all[:0], sc.term[:0]
	x.scratch.Put(sc)
	return hits, nil, nil
}

// scoreTerm adds term t, the query's term mark-1, to the scores in sc.
func (x *refHybridIndex) scoreTerm(sc *refHybridScratch, t hybridTerm, mark int32, work *querywork.Budget) {
	p := x.p
	acc := sc.acc
	sc.term = sc.term[:0]
	touch := func(d int32) *refHybridAcc {
		a := &acc[d]
		if a.seen != mark {
			a.seen = mark
			sc.term = append(sc.term, d)
		}
		return a
	}
	nameCredit := func(d int32, w float64, r Rule) {
		if acc[d].named != mark {
			a := touch(d)
			a.named = mark
			a.w += w
			a.rules |= r
		}
	}
	for _, ps := range x.post[t.stem] {
		a := touch(ps.doc)
		if ps.name {
			if !ps.server {
				a.nameHits++
			}
			a.named = mark
		}
		a.w += float64(ps.w)
		a.rules |= ps.rules
	}
	if !t.stop {
		for _, d := range x.joins[t.stem] {
			nameCredit(d, p.name, RuleFullName)
		}
		if len(t.word) >= 3 && partChars(t.word) && !work.Cut() {
			for _, id := range x.vocab.Candidates(t.word) {
				part := x.vocab.Parts[id]
				if !work.Spend(len(part)) {
					break
				}
				if part != t.word && strings.Contains(part, t.word) {
					for _, d := range x.parts[id] {
						nameCredit(d, p.namePart, RulePartSubstring)
					}
				}
			}
		}
		if len(sc.term) == 0 && len(t.word) >= minTypoLen {
			for _, cw := range x.typoWords(t.word) {
				for _, ps := range x.post[words.Stem(cw)] {
					if ps.name {
						nameCredit(ps.doc, p.name*p.typo, RulePartSubstring)
					}
				}
			}
		}
	}
	if len(sc.term) == 0 {
		return
	}
	weight := idf(len(sc.term), len(x.text))
	if t.stop {
		weight *= p.stop
	}
	for _, d := range sc.term {
		a := &acc[d]
		if a.score == 0 && a.matched == 0 {
			sc.all = append(sc.all, d)
		}
		a.score += weight * a.w * (p.k1 + 1) / (a.w + p.k1)
		a.w = 0
		if !t.stop {
			a.matched++
			if t.required {
				a.needed++
			}
		}
	}
}
