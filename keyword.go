package toolsearch

import (
	"context"
	"math/bits"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/words"
)

// The default strategy's query: the scoring rules (scoring.go) applied to
// the keyword index (index.go), term by term.

// keywordIndex is the default strategy's Index: a keyword index read with
// the scoring rules (scoring.go).
type keywordIndex struct {
	ix  *index
	pos []int32 // slot → position in the Corpus; -1 for a free slot
}

// newKeywordIndex returns the Index of ix, whose tools at Corpus position i
// has slot slots[i].
func newKeywordIndex(ix *index, slots []int32) *keywordIndex {
	pos := make([]int32, len(ix.slots))
	for i := range pos {
		pos[i] = -1
	}
	for i, s := range slots {
		pos[s] = int32(i)
	}
	return &keywordIndex{ix, pos}
}

// Rank appends every tool whose score for the query is above 0 and that
// has every required term.
func (k *keywordIndex) Rank(ctx context.Context, query string, hits []Hit) ([]Hit, []string, error) {
	ix := k.ix
	t := parseTerms(words.Lower(words.TrimSpace(query)))
	if ix.live == 0 || len(t.all) == 0 {
		return hits, nil, nil
	}
	a := ix.pool.get()
	if len(a.acc) < len(ix.slots) {
		a.acc = make([]acc, len(ix.slots)+len(ix.slots)/8)
		a.gen = 0
	}
	nreq := len(t.required)
	work := queryWorkOf(ctx)
	for j, term := range t.all {
		ix.scoreTerm(a, term, j < nreq, a.next(), k.pos, work)
	}
	for _, s := range a.touched {
		c := &a.acc[s]
		if int(c.req) == nreq {
			hits = append(hits, Hit{Tool: int(k.pos[s]), Score: float64(c.score), Rules: c.rules})
		}
		c.score, c.req, c.rules = 0, 0, 0
	}
	a.touched = a.touched[:0]
	ix.pool.put(a)
	return hits, nil, nil
}

func (ix *index) scoreTerm(a *accumulator, term string, required bool, g uint32, pos []int32, work *queryWork) {
	p := ix.lookup(term)
	// A name part equals the term.
	if p != nil {
		for _, s := range p.part {
			w := int32(weightPartExact)
			if ix.slots[s].scoresMCP {
				w = weightMCPPartExact
			}
			a.acc[s].nameGen = g
			a.add(s, w, RulePartExact)
			a.sat(s, g, required)
		}
	}
	// Else a name part contains it.
	// (A part is at most a name long; the parts compared are paid for from
	// the query's work budget.)
	if len(term) < maxNameLength && partChars(term) {
		for _, id := range ix.vocab.candidates(term) {
			part := ix.vocab.parts[id]
			if len(part) <= len(term) {
				continue // the exact rule, or too short
			}
			if !work.spend(len(part)) {
				break
			}
			if !strings.Contains(part, term) {
				continue
			}
			q := ix.lookup(part)
			if q == nil {
				continue
			}
			for _, s := range q.part {
				if a.acc[s].nameGen == g {
					continue
				}
				w := int32(weightPartSubstring)
				if ix.slots[s].scoresMCP {
					w = weightMCPPartSubstring
				}
				a.acc[s].nameGen = g
				a.add(s, w, RulePartSubstring)
				a.sat(s, g, required)
			}
		}
	}
	ix.spans(a, term, g)
	// The hint and the description have it as a whole word. A term of one
	// run is indexed as it is; any other is checked on the tools that have
	// all its runs.
	if oneRun(term) {
		if p != nil {
			for _, s := range p.hint {
				a.add(s, weightHint, RuleHint)
				a.sat(s, g, required)
			}
			for _, s := range p.desc {
				a.add(s, weightDescription, RuleDescription)
				a.sat(s, g, required)
			}
		}
		return
	}
	ix.slowWord(a, term, g, required, fieldHint, pos, work)
	ix.slowWord(a, term, g, required, fieldDesc, pos, work)
}

// spans applies the full-name fallback: the term without '_', '-' and '.'
// equals two or more adjacent name parts joined. Such a tool has a part that
// is a prefix of the flattened term and one that is a suffix of it; those
// tools are checked with spansParts.
func (ix *index) spans(a *accumulator, term string, g uint32) {
	flat := unseparated(term)
	if len(flat) < 2 || len(flat) > maxNameLength || !partChars(flat) {
		return // (parts joined are at most a name long)
	}
	anyPrefix := false
	for i := 1; i < len(flat); i++ {
		if p := ix.lookup(flat[:i]); p != nil && len(p.part) > 0 {
			anyPrefix = true
			break
		}
	}
	if !anyPrefix {
		return
	}
	for i := 1; i < len(flat); i++ {
		if p := ix.lookup(flat[i:]); p != nil {
			for _, s := range p.part {
				a.acc[s].spanGen = g
			}
		}
	}
	for i := 1; i < len(flat); i++ {
		p := ix.lookup(flat[:i])
		if p == nil {
			continue
		}
		for _, s := range p.part {
			c := &a.acc[s]
			if c.spanGen == g && c.nameGen != g && spansParts(term, ix.slots[s].parts) {
				c.nameGen = g
				a.add(s, weightFullName, RuleFullName)
			}
		}
	}
}

// The work of checking one candidate of a term of several runs (beyond the
// bytes read), and of one comparison sorting them.
const (
	workPerCandidate = 100
	workSortEntry    = 4
)

// slowWord applies the hint or description rule for a term of several
// runs ("c++", "e.g", "a.b"): the candidates are the tools whose text has
// every run of the term as a run of its own (see textRuns), and each is
// checked with hasWord, in pool order (pos maps slots to it), as long as
// the query's work budget lasts.
func (ix *index) slowWord(a *accumulator, term string, g uint32, required bool, f field, pos []int32, work *queryWork) {
	w, r := int32(weightDescription), RuleDescription
	if f == fieldHint {
		w, r = weightHint, RuleHint
	}
	var lists [][]int32
	none := false
	termRuns(term, func(run string) {
		p := ix.lookup(run)
		if p == nil || len(*p.list(f)) == 0 {
			none = true
		} else if !none {
			lists = append(lists, *p.list(f))
		}
	})
	if none {
		return
	}
	slices.SortFunc(lists, func(x, y []int32) int { return len(x) - len(y) })
	cands := a.intersect(lists, len(ix.slots), work)
	byPos := func(x, y int32) int { return int(pos[x] - pos[y]) }
	if !slices.IsSortedFunc(cands, byPos) { // (they are, after a full build)
		if !work.spend(workSortEntry * len(cands) * bits.Len(uint(len(cands)))) {
			return
		}
		slices.SortFunc(cands, byPos)
	}
	for _, s := range cands {
		e := ix.slots[s]
		if e == nil {
			continue
		}
		text := e.desc
		if f == fieldHint {
			text = e.hint
		}
		if !work.spend(workPerCandidate + len(text.s)) {
			return
		}
		end := text.end(term)
		if end >= 0 {
			work.refund(len(text.s) - end) // the rest was not read
			a.add(s, w, r)
			a.sat(s, g, required)
		}
	}
}
