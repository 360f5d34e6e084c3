package toolsearch

import (
	"context"
	"math"
	"strings"

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
	var all []hybridTerm
	var ws []string
	for _, tok := range words.Fields(query) {
		req := len(tok) > 1 && tok[0] == '+'
		if req {
			tok = tok[1:]
		}
		for _, piece := range tokenPieces(tok) {
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
	var out, stopWords []hybridTerm
	seen := map[string]int{}
	keep := func(t hybridTerm) {
		if i, ok := seen[t.stem]; ok {
			out[i].required = out[i].required || t.required
			return
		}
		seen[t.stem] = len(out)
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

// tokenPieces cuts a query token at characters other than letters, digits,
// marks and the name separators '_', '-' and '.'.
func tokenPieces(tok string) []string {
	return strings.FieldsFunc(tok, func(r rune) bool {
		return !(r == '_' || r == '-' || r == '.' || words.IsWordRune(r))
	})
}

// knownWord reports whether some tool has the stem s as a word of its
// name, hint, description or arguments.
func (x *hybridIndex) knownWord(s string) bool { return len(x.post.Get(s)) > 0 }

// hybridAcc is one tool's state during a query, in 24 bytes (the array
// of a large registry is read at random).
type hybridAcc struct {
	score                     float64 // the score so far
	pw                        float32 // the current term's weight from its posting (float32 already)
	matched, needed, nameHits uint16  // terms matched (stop words left out), required terms matched, own name words hit
	rules                     Rule
	// flags is accSeen and accNamed for the current term, and which name
	// credit it gave the tool (accCredit bits: an index of hybridCredits).
	flags uint8
}

const (
	accSeen        = 1 << iota // the current term touched the tool
	accNamed                   // the current term gave it a name rule
	accCreditShift = iota
	accCredit      = 3 << accCreditShift
)

// The name credits of a term, by their index in accCredit.
const (
	creditJoin = 1 + iota
	creditPart
	creditTypo
)

// hybridMaxAccTerms is the most terms a query's accumulators count.
const hybridMaxAccTerms = math.MaxUint16

// hybridScratch is the per-query state, reused through hybridIndex.scratch.
type hybridScratch struct {
	acc       []hybridAcc
	all, term []int32 // tools touched by the query, by the current term
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
	sc := x.scratch.get()
	if slots := x.c.Slots(); len(sc.acc) < slots {
		sc.acc = make([]hybridAcc, slots+slots/8)
	}
	p := x.p
	q := hybridQuery{norms: x.norms(), credits: [4]float64{0, p.name, p.namePart, p.name * p.typo}}
	var required, counted uint16
	work := querywork.Of(ctx) // pays for the name parts compared
	for _, t := range terms {
		x.scoreTerm(ctx, sc, &q, t, work)
		if t.required {
			required++
		}
		if !t.stop {
			counted++
		}
	}
	best := qu.TopHits(hits)
	prune := p.nameCover >= 0
	for _, d := range sc.all {
		a := &sc.acc[d]
		if s := a.score; s > 0 && a.needed >= required && (a.matched > 0 || counted == 0) {
			if p.coverage != 0 && counted > 0 {
				if p.coverage == 1 {
					s *= float64(a.matched) / float64(counted) // what math.Pow gives
				} else {
					s *= math.Pow(float64(a.matched)/float64(counted), p.coverage)
				}
			}
			// The name-cover factor, 1 + nameCover × nameHits / own, is 1
			// without name hits, and at most 1 + nameCover × nameHits: a
			// tool that cannot enter the kept hits is left before its
			// slot data is read.
			switch {
			case a.nameHits == 0:
				if !best.Below(s) {
					best.Offer(x.c.Position(int(d)), s, a.rules)
				}
			case prune && best.Below(s*(1+p.nameCover*float64(a.nameHits))):
			default:
				if nw := x.info.At(d).own; nw > 0 {
					s *= 1 + p.nameCover*float64(a.nameHits)/float64(nw)
				}
				best.Offer(x.c.Position(int(d)), s, a.rules)
			}
		}
		*a = hybridAcc{}
	}
	sc.all, sc.term = sc.all[:0], sc.term[:0]
	x.scratch.put(sc)
	return best.Hits(), notes, nil
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
	norms   []hybridNorm
	credits [4]float64 // by accCredit index
}

// hybridNorm is a tool's length normalisations in one index version.
type hybridNorm struct{ desc, arg float64 }

// makeNorms returns every slot's length normalisations: made once per
// index version, on its first query (they depend on the average lengths,
// which change with every tool): 16 bytes per tool, O(n) once per version,
// against two divisions and a paged lookup per posting on every query.
func (x *hybridIndex) makeNorms() []hybridNorm {
	p := &x.p
	avgDesc, avgArg := 1.0, 1.0
	if x.n > 0 {
		avgDesc, avgArg = max(x.sumDesc/float64(x.n), 1), max(x.sumArg/float64(x.n), 1)
	}
	out := make([]hybridNorm, x.c.Slots())
	for s := range out {
		if x.c.Position(s) < 0 {
			continue // a free slot
		}
		in := x.info.At(int32(s))
		out[s] = hybridNorm{desc: 1 - p.b + p.b*float64(in.descLen)/avgDesc, arg: 1 - p.b + p.b*float64(in.args)/avgArg}
	}
	return out
}

// bigWeight is the weight of a posting whose counts are in x.big (see
// hybridParams.weight for the others).
func (x *hybridIndex) bigWeight(q *hybridQuery, ps *hybridPost, stem string) float32 {
	for _, b := range x.big.Get(stem) {
		if b.slot == ps.slot {
			return x.p.weight(float64(b.hint), float64(b.lead), float64(b.desc), float64(b.arg), &q.norms[ps.slot], ps.flags&postName != 0)
		}
	}
	// Not reached (a postBig posting has its counts in x.big): the
	// posting's own counts, saturated.
	return x.p.weight(float64(ps.hint), float64(ps.lead), float64(ps.desc), float64(ps.arg), &q.norms[ps.slot], ps.flags&postName != 0)
}

// weight is the weight of a stem's occurrences in one tool, given its
// length normalisations: what the hybrid weights say, rounded to a float32
// as it always was.
func (p *hybridParams) weight(hint, lead, desc, arg float64, in *hybridNorm, name bool) float32 {
	w := p.hint*hint + p.lead*lead + desc/in.desc + p.arg*arg/in.arg
	if name {
		w += p.name
	}
	return float32(w)
}

// scoreTerm adds term t to the scores in sc.
func (x *hybridIndex) scoreTerm(ctx context.Context, sc *hybridScratch, q *hybridQuery, t hybridTerm, work *querywork.Budget) {
	p := x.p
	acc := sc.acc
	sc.term = sc.term[:0]
	touch := func(d int32) *hybridAcc {
		a := &acc[d]
		if a.flags&accSeen == 0 {
			a.flags |= accSeen
			sc.term = append(sc.term, d)
		}
		return a
	}
	nameCredit := func(d int32, credit uint8, r Rule) {
		if acc[d].flags&accNamed == 0 {
			a := touch(d)
			a.flags |= accNamed | credit<<accCreditShift
			a.rules |= r
		}
	}
	post := x.post.Get(t.stem)
	for i := range post {
		ps := &post[i]
		a := touch(ps.slot)
		if ps.flags&postName != 0 {
			if ps.flags&postServer == 0 {
				a.nameHits++
			}
			a.flags |= accNamed
		}
		if ps.flags&postBig == 0 {
			a.pw = p.weight(float64(ps.hint), float64(ps.lead), float64(ps.desc), float64(ps.arg), &q.norms[ps.slot], ps.flags&postName != 0)
		} else {
			a.pw = x.bigWeight(q, ps, t.stem)
		}
		a.rules |= ps.rules
	}
	if !t.stop {
		for _, d := range x.joins.Get(t.stem) {
			nameCredit(d, creditJoin, RuleFullName)
		}
		if len(t.word) >= 3 && partChars(t.word) && !work.Cut() {
			x.c.PartsContaining(ctx, t.word, func(d int) { // nameCredit for creditPart, one call less a tool
				if acc[d].flags&accNamed == 0 {
					a := touch(int32(d))
					a.flags |= accNamed | creditPart<<accCreditShift
					a.rules |= RulePartSubstring
				}
			})
		}
		if len(sc.term) == 0 && len(t.word) >= minTypoLen {
			for _, cw := range x.typoWords(t.word) {
				for _, ps := range x.post.Get(words.Stem(cw)) {
					if ps.name() {
						nameCredit(ps.slot, creditTypo, RulePartSubstring)
					}
				}
			}
		}
	}
	if len(sc.term) == 0 {
		return
	}
	weight := idf(len(sc.term), x.n)
	if t.stop {
		weight *= p.stop
	}
	for _, d := range sc.term {
		a := &acc[d]
		if a.score == 0 && a.matched == 0 {
			sc.all = append(sc.all, d)
		}
		w := float64(a.pw) + q.credits[a.flags>>accCreditShift]
		a.score += weight * w * (p.k1 + 1) / (w + p.k1)
		a.pw, a.flags = 0, 0
		if !t.stop {
			a.matched++
			if t.required {
				a.needed++
			}
		}
	}
}
