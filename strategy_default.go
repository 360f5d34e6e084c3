package toolsearch

import (
	"context"
	"math/bits"
	"slices"

	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/text"
	"github.com/toolsearch/toolsearch/internal/words"
)

// The default strategy's query: the scoring rules (scoring.go) applied to
// the keyword index (index.go), term by term.

// keywordIndex is the default strategy's Index: a keyword index read with
// the scoring rules (scoring.go).
type keywordIndex struct {
	ix  *index
	pos []int32 // slot → position in the Corpus; -1 for a free slot
	// exhaustive turns pruning off (strategy_default_prune.go): every
	// posting of every term is read. Tests compare the two paths.
	exhaustive bool
}

// Rank appends the best q.K tools in scope whose score for the query is
// above 0 and that have every required term.
func (k *keywordIndex) Rank(ctx context.Context, q Query, hits []Hit) ([]Hit, []string, error) {
	hits, notes, _ := k.rank(ctx, q, hits)
	return hits, notes, nil
}

// rank is Rank, reporting whether the query was pruned.
func (k *keywordIndex) rank(ctx context.Context, q Query, hits []Hit) ([]Hit, []string, bool) {
	ix := k.ix
	t := parseTerms(words.Lower(words.TrimSpace(q.Text)))
	if ix.live == 0 || len(t.all) == 0 {
		return hits, nil, false
	}
	var notes []string
	if len(t.all) > maxRankedTerms {
		notes = append(notes, termsCut(len(t.all), maxRankedTerms, t.all[maxRankedTerms:]))
		t.all = t.all[:maxRankedTerms]
		t.required = t.required[:min(len(t.required), maxRankedTerms)]
	}
	a := ix.pool.get()
	a.begin(ix.nslots, len(t.all))
	nreq := len(t.required)
	work := querywork.Of(ctx)
	if nreq == 0 && !k.exhaustive && q.K > 0 && q.K <= collectAllAbove {
		hits, pruned := k.rankPruned(q, t.all, a, work, hits)
		a.touched = a.touched[:0]
		ix.pool.put(a)
		return hits, notes, pruned
	}
	var prev uint32
	for j, term := range t.all {
		ts := termState{g: a.next(), prev: prev, required: j < nreq, chain: j > 0 && j < nreq, alive: nreq > 0 && j >= nreq}
		ix.scoreTerm(a, term, &ts, k.pos, work)
		if j == nreq-1 {
			a.markAlive(ts.g)
		}
		prev = ts.g
	}
	best := q.TopHits(hits)
	for _, s := range a.touched {
		c := &a.acc[s]
		sr := c.sr
		c.sr = 0
		if nreq == 0 || sr&accAlive != 0 {
			best.Offer(int(k.pos[s]), float64(sr&accScore), Rule(sr>>accScoreBits)&accRules)
		}
	}
	a.touched = a.touched[:0]
	ix.pool.put(a)
	return best.Hits(), notes, false
}

// Update returns the index of c: the keyword index the registry keeps for
// that version.
func (k *keywordIndex) Update(c *Corpus) Index { return defaultStrategy{}.Index(c) }

func (ix *index) scoreTerm(a *accumulator, term string, t *termState, pos []int32, work *querywork.Budget) {
	p := ix.lookup(term)
	// A name part equals the term.
	if p != nil {
		a.nameRule(p.part, weightPartExact, RulePartExact, t)
		a.nameRule(p.mpart, weightMCPPartExact, RulePartExact, t)
	}
	// Else a name part contains it.
	// (A part is at most a name long; the parts compared are paid for from
	// the query's work budget.)
	if len(term) < maxNameLength && partChars(term) {
		ix.substrings(term, work, func(q *postings) {
			a.nameRule(q.part, weightPartSubstring, RulePartSubstring, t)
			a.nameRule(q.mpart, weightMCPPartSubstring, RulePartSubstring, t)
		})
	}
	ix.spans(a, term, t)
	// The hint and the description have it as a whole word. A term of one
	// run is indexed as it is; any other is checked on the tools that have
	// all its runs.
	if text.OneRun(term) {
		if p != nil {
			a.textRule(p.hint, weightHint, RuleHint, t)
			a.textRule(p.desc, weightDescription, RuleDescription, t)
		}
		return
	}
	ix.slowWord(a, term, t, fieldHint, pos, work)
	ix.slowWord(a, term, t, fieldDesc, pos, work)
}

// substrings calls fn with the postings of every name part longer than
// term that contains it, in vocabulary order, paying for the parts
// compared from work; it reports false when the budget ran out first.
func (ix *index) substrings(term string, work *querywork.Budget, fn func(q *postings)) bool {
	// (The parts no longer than term are the exact rule, or too short.)
	return ix.partsWith(term, work, true, false, fn)
}

// spans applies the full-name fallback: the term without '_', '-' and '.'
// equals two or more adjacent name parts joined. The join filter rules
// most terms out at once; the others are checked on the tools that have a
// part that is a prefix of the flattened term and one that is a suffix of
// it, with spansParts.
func (ix *index) spans(a *accumulator, term string, t *termState) {
	if !ix.joinable(term) {
		return
	}
	flat := text.Unseparated(term)
	mark := func(l slotList, on bool) {
		for _, pg := range l.Pages() {
			for _, s := range pg {
				if on {
					a.mark[s>>6] |= 1 << (s & 63)
				} else {
					a.mark[s>>6] &^= 1 << (s & 63)
				}
			}
		}
	}
	for i := 1; i < len(flat); i++ {
		if p := ix.lookup(flat[i:]); p != nil {
			mark(p.part, true)
			mark(p.mpart, true)
		}
	}
	check := func(l slotList) {
		for _, pg := range l.Pages() {
			for _, s := range pg {
				c := &a.acc[s]
				if a.mark[s>>6]&(1<<(s&63)) == 0 || c.gen == t.g || t.skip(c) {
					continue
				}
				a.mark[s>>6] &^= 1 << (s & 63) // checked
				if spansParts(term, ix.slot(s).parts) {
					a.credit(s, c, weightFullName, RuleFullName)
				}
			}
		}
	}
	for i := 1; i < len(flat); i++ {
		if p := ix.lookup(flat[:i]); p != nil {
			check(p.part)
			check(p.mpart)
		}
	}
	for i := 1; i < len(flat); i++ {
		if p := ix.lookup(flat[i:]); p != nil {
			mark(p.part, false)
			mark(p.mpart, false)
		}
	}
}

// joinable reports whether the full-name fallback may fire for term: its
// flattened form may join parts (the join filter), and some part is a
// prefix of it.
func (ix *index) joinable(term string) bool {
	flat := text.Unseparated(term)
	if len(flat) < 2 || len(flat) > maxNameLength || !partChars(flat) || !ix.joins.MayHave(flat) {
		return false // (parts joined are at most a name long)
	}
	for i := 1; i < len(flat); i++ {
		if p := ix.lookup(flat[:i]); p != nil && p.parts() > 0 {
			return true
		}
	}
	return false
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
func (ix *index) slowWord(a *accumulator, term string, t *termState, f field, pos []int32, work *querywork.Budget) {
	w, r := uint32(weightDescription), RuleDescription
	if f == fieldHint {
		w, r = weightHint, RuleHint
	}
	var lists []slotList
	none := false
	text.TermRuns(term, func(run string) {
		p := ix.lookup(run)
		if p == nil || p.list(f).Len() == 0 {
			none = true
		} else if !none {
			lists = append(lists, *p.list(f))
		}
	})
	if none {
		return
	}
	slices.SortFunc(lists, func(x, y slotList) int { return x.Len() - y.Len() })
	cands := a.intersect(lists, ix.nslots, work)
	byPos := func(x, y int32) int { return int(pos[x] - pos[y]) }
	if !slices.IsSortedFunc(cands, byPos) { // (they are, after a full build)
		if !work.Spend(workSortEntry * len(cands) * bits.Len(uint(len(cands)))) {
			return
		}
		slices.SortFunc(cands, byPos)
	}
	for _, s := range cands {
		e := ix.slot(s)
		if e == nil {
			continue
		}
		txt := e.desc
		if f == fieldHint {
			txt = e.hint
		}
		if !work.Spend(workPerCandidate + txt.Len()) {
			return
		}
		end := txt.End(term)
		if end >= 0 {
			work.Refund(txt.Len() - end) // the rest was not read
			a.textHit(s, w, r, t)
		}
	}
}

// defaultStrategy is the keyword scoring of the package documentation.
type defaultStrategy struct{}

// DefaultStrategy returns the keyword scoring described in the package
// documentation (the Ranking section): name parts, then search hint and
// description words, with required "+" terms. Its rankings equal Claude
// Code's. Over a registry it reads the keyword index the registry keeps
// up to date as tools change (NewCorpus builds one).
func DefaultStrategy() Strategy { return defaultStrategy{} }

func (defaultStrategy) Name() string { return "default" }

func (defaultStrategy) Input() StrategyInput { return StrategyInput{claude: true} }

// Index returns the keyword index of c, read with the scoring rules.
func (defaultStrategy) Index(c *Corpus) Index { return &keywordIndex{ix: c.ix, pos: c.pos} }
