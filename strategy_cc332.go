package toolsearch

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/text"
	"github.com/toolsearch/toolsearch/internal/vocab"
	"github.com/toolsearch/toolsearch/internal/words"
)

// The ranking of ClaudeCode2_1_332: Claude Code 2.1.332's keyword
// scoring. Each term (the query lowercased and split on whitespace,
// required terms first) adds to a deferred tool's score:
//
//	rule                                              MCP tool  other
//	a name part equals the term                             12     10
//	else a name part contains it                             6      5
//	a coarse part equals the term                           12     10
//	else a coarse part contains it                           4      3
//	the search hint has it as a whole word                   4      4
//	the description has it as a whole word                   2      2
//
// with the name parts and coarse parts of nameParts332 (an MCP tool's raw
// server and tool names, split and whole; another tool's name, split and
// whole), an MCP tool's description cut at 4,096 UTF-16 code units (and
// "… [truncated]" added) and a hint at 4,096, as Claude Code's search
// reads them. A required term must be in a name part or a coarse part, or
// a whole word of the hint or the description. (Claude Code also adds 3
// when the parts joined by spaces contain the term and the tool has no
// points yet; a term has no space, so a part contains it, and that never
// happens.) The coarse rules report RuleFullName.

// The weights of the coarse parts, added per term.
const (
	weightMCPCoarseExact     = 12 // a coarse part of an MCP tool equals the term
	weightCoarseExact        = 10 // a coarse part of another tool equals the term
	weightMCPCoarseSubstring = 4  // else a coarse part of an MCP tool contains the term
	weightCoarseSubstring    = 3  // else a coarse part of another tool contains the term
)

// maxSearchText is where Claude Code 2.1.332's search cuts an MCP tool's
// description and any tool's search hint, in UTF-16 code units.
const maxSearchText = 4096

// cc332Strategy is ClaudeCode2_1_332's ranked form, the strategy a
// Searcher of that profile uses when SearchOptions.Strategy is nil.
type cc332Strategy struct{}

func (cc332Strategy) Name() string { return "default" }

// Input keeps the default input; the term budget is Claude Code's 32.
func (cc332Strategy) Input() StrategyInput { return StrategyInput{MaxTerms: cc332MaxTerms} }

const cc332MaxTerms = 32

// The fields of a posting: where a tool has the token.
const (
	ccPart   uint8 = 1 << iota // a name part
	ccCoarse                   // a coarse part
	ccHint                     // a run of the search hint, as searched
	ccDesc                     // a run of the description, as searched
	ccMCP                      // (not a field) the tool scores as MCP
)

// ccPost is one tool's entry in a token's postings list.
type ccPost struct {
	slot int32
	f    uint8
}

// ccDoc is what the word rules read of one tool: its description and
// hint as Claude Code's search sees them, lowercased.
type ccDoc struct {
	desc, hint text.Lowered
}

// cc332Index keeps a postings list per token (a name part, a coarse part,
// a run of a hint or description), by keyword-index slot: the index of a
// new registry version is the previous one with the tools that differ
// patched in (as bm25's is). The distinct name and coarse parts are listed
// in a vocabulary, by the pairs of characters they contain, for the
// "contains" rules; it only grows, and the index is built afresh when
// most of it is gone.
type cc332Index struct {
	c     *Corpus // the tools, by slot
	docs  cow.Paged[*ccDoc]
	post  cow.ShardedMap[[]ccPost]
	vids  cow.ShardedMap[int32] // a part or coarse part → its vocabulary id
	vocab *vocab.Vocabulary
	named int // vocabulary entries that are a part or coarse part now
	vown  *ccVocabOwner
	pool  *pool[ccScratch]
}

// ccVocabOwner is shared by the versions of one index: a vocabulary grows
// its lists in place, so only the newest may be extended that way; a
// version built from an older one (two versions indexed at once) extends a
// copy.
type ccVocabOwner struct {
	mu     sync.Mutex
	latest *vocab.Vocabulary
}

// extend returns v with parts added.
func (o *ccVocabOwner) extend(v *vocab.Vocabulary, parts []string) *vocab.Vocabulary {
	o.mu.Lock()
	defer o.mu.Unlock()
	if v != o.latest {
		c := &vocab.Vocabulary{}
		for _, p := range v.Parts {
			c.Add(p)
		}
		v = c
	}
	o.latest = v.Extend(parts)
	return o.latest
}

// ccToken is one token of a tool and its fields.
type ccToken struct {
	tok string
	f   uint8
}

// cc332Doc returns the tokens of e's tool, each once with all its fields,
// and the texts its word rules read (e's own lowered texts when they are
// not cut).
func cc332Doc(e *entry) ([]ccToken, *ccDoc) {
	t := &e.tool
	parts, coarse, mcp := nameParts332(t)
	doc := &ccDoc{}
	descCut := false
	desc := t.Description
	if mcp {
		var d string
		if d, descCut = text.UTF16Prefix(desc, maxSearchText); descCut {
			desc = d + truncatedMark
		}
	}
	hint, hintCut := text.UTF16Prefix(t.SearchHint, maxSearchText)
	if doc.desc = e.desc; descCut {
		doc.desc = text.NewLowered(desc)
	}
	if doc.hint = e.hint; hintCut {
		doc.hint = text.NewLowered(hint)
	}
	var toks []ccToken
	for _, p := range parts {
		toks = append(toks, ccToken{p, ccPart})
	}
	for _, c := range coarse {
		toks = append(toks, ccToken{c, ccCoarse})
	}
	doc.hint.Runs(func(r string) { toks = append(toks, ccToken{strings.Clone(r), ccHint}) })
	doc.desc.Runs(func(r string) { toks = append(toks, ccToken{strings.Clone(r), ccDesc}) })
	slices.SortFunc(toks, func(a, b ccToken) int { return strings.Compare(a.tok, b.tok) })
	out := toks[:0]
	for _, tk := range toks {
		if n := len(out); n > 0 && out[n-1].tok == tk.tok {
			out[n-1].f |= tk.f
			continue
		}
		if mcp {
			tk.f |= ccMCP
		}
		out = append(out, tk)
	}
	return out, doc
}

// Index returns the index of c's tools.
func (cc332Strategy) Index(c *Corpus) Index {
	v := &vocab.Vocabulary{}
	empty := &cc332Index{post: cow.NewShardedMap[[]ccPost](0), vids: cow.NewShardedMap[int32](0),
		vocab: v, vown: &ccVocabOwner{latest: v}, pool: &pool[ccScratch]{}}
	return empty.Update(c)
}

// Update returns the index of c: p with the tools that changed between
// its Corpus and c patched in, or, when most of p's vocabulary is gone,
// built afresh.
func (p *cc332Index) Update(c *Corpus) Index {
	if len(p.vocab.Parts) > 1024 && len(p.vocab.Parts) > 2*p.named {
		return cc332Strategy{}.Index(c)
	}
	x := &cc332Index{c: c, named: p.named, vown: p.vown, pool: p.pool}
	type delta struct {
		gone []int32
		join []ccPost
	}
	deltas := map[string]*delta{}
	at := func(tok string) *delta {
		d := deltas[tok]
		if d == nil {
			d = &delta{}
			deltas[tok] = d
		}
		return d
	}
	docs := p.docs.Edit()
	c.Changes(p.c, func(slot, was, is int) {
		s := int32(slot)
		if was >= 0 {
			toks, _ := cc332Doc(p.c.tools.At(was).e)
			for _, tk := range toks {
				d := at(tk.tok)
				d.gone = append(d.gone, s)
			}
		}
		var doc *ccDoc
		if is >= 0 {
			var toks []ccToken
			toks, doc = cc332Doc(c.tools.At(is).e)
			for _, tk := range toks {
				d := at(tk.tok)
				d.join = append(d.join, ccPost{slot: s, f: tk.f})
			}
		}
		docs.Set(s, doc)
	})
	x.docs = docs.Done()
	post, vids := p.post.Edit(), p.vids.Edit()
	var fresh []string // parts and coarse parts new to the vocabulary
	for _, tok := range sortedKeys(deltas) {
		d := deltas[tok]
		old, _ := post.Get(tok)
		cow.PatchList(post, tok, d.gone, d.join, func(q ccPost) int32 { return q.slot })
		now, _ := post.Get(tok)
		had, has := named(old), named(now)
		switch {
		case had && !has:
			x.named--
		case !had && has:
			x.named++
			if _, listed := vids.Get(tok); !listed {
				vids.Set(strings.Clone(tok), int32(len(p.vocab.Parts)+len(fresh)))
				fresh = append(fresh, tok)
			}
		}
	}
	x.post, x.vids = post.Done(), vids.Done()
	x.vocab = p.vocab
	if len(fresh) > 0 {
		x.vocab = p.vown.extend(p.vocab, fresh)
	}
	return x
}

// named reports whether a postings list has a tool with the token as a
// name part or a coarse part.
func named(l []ccPost) bool {
	return slices.ContainsFunc(l, func(q ccPost) bool { return q.f&(ccPart|ccCoarse) != 0 })
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// ccAcc is one tool's state during a query.
type ccAcc struct {
	score   int32
	rules   Rule
	touched bool
	part    uint32 // the term whose name-part rule last fired for it
	coarse  uint32 // the term whose coarse-part rule last fired for it
	req     uint32 // the last required term it had points for
}

// ccScratch is the per-query state, reused through cc332Index.pool.
type ccScratch struct {
	acc     []ccAcc // by slot
	touched []int32
	gen     uint32 // the last term's number
}

// ccTerm is how one term scores: its number, whether it is required, and
// for a query with required terms whether the tools must have had the
// previous required term (chain) or every required term (alive, the
// last one numbered last).
type ccTerm struct {
	g, prev, last uint32
	required      bool
	chain         bool
	alive         bool
}

// skip reports whether a tool no longer matters for the term: it missed a
// required term.
func (t *ccTerm) skip(a *ccAcc) bool {
	return t.chain && a.req != t.prev && a.req != t.g || t.alive && a.req != t.last
}

// Rank appends the best q.K tools in scope whose score is above 0 and
// that have every required term.
func (x *cc332Index) Rank(ctx context.Context, q Query, hits []Hit) ([]Hit, []string, error) {
	t := parseTerms(words.Lower(words.TrimSpace(q.Text)))
	if len(t.all) == 0 || x.c.Len() == 0 {
		return hits, nil, nil
	}
	sc := x.pool.get()
	if slots := x.c.Slots(); len(sc.acc) < slots {
		sc.acc = make([]ccAcc, slots+slots/8)
	}
	sc.gen = 0 // (every slot a query touches is cleared when it ends)
	work := querywork.Of(ctx)
	nreq := len(t.required)
	var prev uint32
	for j, term := range t.all {
		sc.gen++
		ts := ccTerm{g: sc.gen, prev: prev, last: prev, required: j < nreq, chain: j > 0 && j < nreq, alive: nreq > 0 && j >= nreq}
		x.scoreTerm(sc, term, &ts, work)
		if j < nreq {
			prev = sc.gen
		}
	}
	best := q.TopHits(hits)
	for _, s := range sc.touched {
		a := &sc.acc[s]
		if a.score > 0 && (nreq == 0 || a.req == prev) {
			best.Offer(x.c.Position(int(s)), float64(a.score), a.rules)
		}
		*a = ccAcc{}
	}
	sc.touched = sc.touched[:0]
	x.pool.put(sc)
	return best.Hits(), nil, nil
}

// credit adds w points for rule r to slot s.
func (sc *ccScratch) credit(s int32, w int32, r Rule, t *ccTerm) {
	a := &sc.acc[s]
	if !a.touched {
		a.touched = true
		sc.touched = append(sc.touched, s)
	}
	a.score += w
	a.rules |= r
	if t.required {
		a.req = t.g
	}
}

// scoreTerm applies the rules for one term.
func (x *cc332Index) scoreTerm(sc *ccScratch, term string, t *ccTerm, work *querywork.Budget) {
	weight := func(f uint8, mcp, other int32) int32 {
		if f&ccMCP != 0 {
			return mcp
		}
		return other
	}
	exact := x.post.Get(term)
	for _, p := range exact {
		a := &sc.acc[p.slot]
		if t.skip(a) {
			continue
		}
		if p.f&ccPart != 0 {
			sc.credit(p.slot, weight(p.f, weightMCPPartExact, weightPartExact), RulePartExact, t)
			a.part = t.g
		}
		if p.f&ccCoarse != 0 {
			sc.credit(p.slot, weight(p.f, weightMCPCoarseExact, weightCoarseExact), RuleFullName, t)
			a.coarse = t.g
		}
	}
	// A part or coarse part that contains the term: the vocabulary's
	// candidates, compared within the query's work budget.
	sig := vocab.Signature(term)
	for _, id := range x.vocab.Candidates(term) {
		if int(id) >= len(x.vocab.Parts) {
			break // (listed by a later version)
		}
		k := x.vocab.Keys[id]
		n := x.vocab.PartLen(id, k)
		if n <= len(term) {
			continue
		}
		if !work.Spend(n) {
			break
		}
		if !k.May(sig) {
			continue
		}
		tok := x.vocab.Parts[id]
		if !strings.Contains(tok, term) {
			continue
		}
		for _, p := range x.post.Get(tok) {
			a := &sc.acc[p.slot]
			if t.skip(a) {
				continue
			}
			if p.f&ccPart != 0 && a.part != t.g {
				sc.credit(p.slot, weight(p.f, weightMCPPartSubstring, weightPartSubstring), RulePartSubstring, t)
				a.part = t.g
			}
			if p.f&ccCoarse != 0 && a.coarse != t.g {
				sc.credit(p.slot, weight(p.f, weightMCPCoarseSubstring, weightCoarseSubstring), RuleFullName, t)
				a.coarse = t.g
			}
		}
	}
	// The hint and the description have it as a whole word: a term of one
	// run from its postings, another on the tools that have all its runs.
	if text.OneRun(term) {
		for _, p := range exact {
			if a := &sc.acc[p.slot]; !t.skip(a) {
				if p.f&ccHint != 0 {
					sc.credit(p.slot, weightHint, RuleHint, t)
				}
				if p.f&ccDesc != 0 {
					sc.credit(p.slot, weightDescription, RuleDescription, t)
				}
			}
		}
		return
	}
	x.slowWord(sc, term, t, ccHint, work)
	x.slowWord(sc, term, t, ccDesc, work)
}

// slowWord applies the hint or description rule (field f) for a term of
// several runs ("c++", "a.b"): the candidates are the tools with every run
// of the term as a run of that text, each checked in slot order as long
// as the query's work budget lasts.
func (x *cc332Index) slowWord(sc *ccScratch, term string, t *ccTerm, f uint8, work *querywork.Budget) {
	w, r := int32(weightDescription), RuleDescription
	if f == ccHint {
		w, r = weightHint, RuleHint
	}
	var cands []int32
	first := true
	text.TermRuns(term, func(run string) {
		if !first && len(cands) == 0 {
			return
		}
		var with []int32
		for _, p := range x.post.Get(run) {
			if p.f&f != 0 && (first || slices.Contains(cands, p.slot)) {
				with = append(with, p.slot)
			}
		}
		work.Spend(len(cands) + len(x.post.Get(run)))
		cands, first = with, false
	})
	slices.Sort(cands)
	for _, s := range cands {
		doc := x.docs.At(s)
		a := &sc.acc[s]
		if doc == nil || t.skip(a) {
			continue
		}
		txt := doc.desc
		if f == ccHint {
			txt = doc.hint
		}
		if !work.Spend(workPerCandidate + txt.Len()) {
			return
		}
		if txt.End(term) >= 0 {
			sc.credit(s, w, r, t)
		}
	}
}
