package semantic

import (
	"context"
	"sync/atomic"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/words"
)

// index is the semantic strategy's index of one registry version: the
// hybrid index, and the rows of the registry's vector table that hold its
// tools' vectors.
type index struct {
	s    *Strategy
	lex  toolsearch.Index
	n    int                // tools
	keys []Key              // per tool, in corpus order
	docs map[string]toolKey // by tool name, for the next index
	tab  *table             // the registry's vectors, shared with the next index
	vecs *Vectors           // tab.vecs when this index was built

	// rows maps a row of vecs to the tool it holds, -1 for a row of no
	// tool of this index. It grows while this index is its table's
	// newest (tab.cur): rows are published here before they are appended
	// to vecs, so a search never finds a row it cannot map.
	rows  atomic.Pointer[[]int32]
	ready atomic.Int32  // tools with a row
	want  map[Key]int32 // tools without a vector yet → position; guarded by tab.mu
	// same maps the first tool of a key that tools share (their texts
	// are the same: names of the same words, the same description) to
	// the others, in corpus order: rows holds only the first, and a
	// search gives each the cosine of their one vector. Made by
	// table.attach, with want.
	same map[int32][]int32
}

// toolKey is what decides a tool's key: kept so that an unchanged tool's
// text is not hashed again.
type toolKey struct {
	desc, hint string
	key        Key
}

// Index builds the hybrid index of c, finds the vectors of c's tools (in
// the Store) and queues the others for embedding. It does not wait for
// any embedding.
func (s *Strategy) Index(c *toolsearch.Corpus) toolsearch.Index {
	return s.build(c, s.lex.Index(c), nil, nil)
}

// Update patches the hybrid index with the tools that changed, keeps the
// vectors of x's table, and queues the tools without one for embedding,
// as Index does.
func (x *index) Update(c *toolsearch.Corpus) toolsearch.Index {
	return x.s.build(c, x.lex.Update(c), x.docs, x.tab)
}

// build returns the index of c over lex, the hybrid index of c, reusing
// the keys of oldDocs and the vectors of tab (nil: none).
func (s *Strategy) build(c *toolsearch.Corpus, lex toolsearch.Index, oldDocs map[string]toolKey, tab *table) toolsearch.Index {
	n := c.Len()
	x := &index{
		s: s, lex: lex, n: n,
		keys: make([]Key, n), docs: make(map[string]toolKey, n),
	}
	texts := make(map[Key]string) // of the tools whose key is new
	for i := range n {
		t := c.Tool(i)
		d, ok := oldDocs[t.Name]
		if !ok || d.desc != t.Description || d.hint != t.SearchHint {
			text := ToolText(t)
			d = toolKey{t.Description, t.SearchHint, KeyOf(s.model, text)}
			texts[d.key] = text
		}
		x.docs[t.Name] = d
		x.keys[i] = d.key
	}
	if tab == nil {
		tab = newTable(s.dims)
	}
	x.tab = tab
	missing := tab.attach(x, s.opts.Store, s.report)
	if len(missing) > 0 {
		jobs := make([]job, 0, len(missing))
		for _, i := range missing {
			k := x.keys[i]
			text, ok := texts[k]
			if !ok { // an old key whose vector is not ready yet
				text = ToolText(c.Tool(int(i)))
			}
			jobs = append(jobs, job{key: k, text: text})
		}
		s.work.enqueue(tab, jobs)
	}
	return x
}

// report passes err to Options.OnError.
func (s *Strategy) report(err error) {
	if s.opts.OnError != nil && err != nil {
		s.opts.OnError(err)
	}
}

// Rank ranks by the hybrid index, then fuses the embedding ranking in
// (see Strategy). When there is no embedding ranking, the hybrid hits are
// returned as they are, with a note.
func (x *index) Rank(ctx context.Context, qu toolsearch.Query, hits []toolsearch.Hit) ([]toolsearch.Hit, []string, error) {
	query := qu.Text
	base := len(hits)
	// Every hybrid hit: the fusion may raise any of them into the best K.
	hits, notes, err := x.lex.Rank(ctx, toolsearch.Query{Text: query, K: -1}, hits)
	if err != nil || x.n == 0 {
		return hits, notes, err
	}
	ready := int(x.ready.Load())
	if ready == 0 {
		return hits, append(notes, noteNoVectors), nil
	}
	q := words.TrimSpace(query)
	vec, why := x.s.queryVector(ctx, q)
	if why != "" {
		return hits, append(notes, why), nil
	}
	rows := *x.rows.Load()
	// vec is valid: search fails for nothing else.
	nbs, _ := x.vecs.search(vec, candidates, make([]Neighbor, 0, candidates), rows)
	if len(nbs) == 0 { // rows published, their vectors not appended yet
		return hits, append(notes, noteNoVectors), nil
	}
	sem := make([]semHit, 0, len(nbs))
	for _, nb := range nbs {
		tool := rows[nb.Row]
		sem = append(sem, semHit{tool: int(tool), cos: nb.Score})
		for _, o := range x.same[tool] {
			sem = append(sem, semHit{tool: int(o), cos: nb.Score})
		}
	}
	shape := shapeOf(q)
	shape.k, shape.in = qu.K, qu.In
	hits = x.s.fuse.apply(hits, base, sem, shape)
	if ready < x.n {
		notes = append(notes, notePartial(x.n-ready, x.n))
	}
	return hits, notes, nil
}

// hasRequired reports whether query has a required term: a token "+word"
// with a letter or digit in word, as the hybrid strategy reads it.
func hasRequired(query string) bool {
	for _, tok := range words.Fields(query) {
		if len(tok) > 1 && tok[0] == '+' {
			for _, r := range tok[1:] {
				if words.IsWordRune(r) {
					return true
				}
			}
		}
	}
	return false
}

// semHit is one tool of the embedding ranking, best first.
type semHit struct {
	tool int
	cos  float32
}

// fuser combines the hybrid ranking and the embedding ranking: apply
// replaces hits[base:], the hybrid hits, with the fused hits; without
// required terms, it adds the tools of sem that the hybrid ranking did not
// match. The strategy's is a fusion; the tests measure others.
type fuser interface {
	apply(hits []toolsearch.Hit, base int, sem []semHit, q queryShape) []toolsearch.Hit
}

// queryShape is what the fusion reads of the query itself, and of what
// the Searcher keeps of its hits.
type queryShape struct {
	words    int  // whitespace-separated tokens
	required bool // a "+word" term
	// k is how many hits the Searcher keeps (toolsearch.Query.K, < 0:
	// all), in is its scope (nil: every tool).
	k  int
	in func(pos int) bool
}

func shapeOf(query string) queryShape {
	return queryShape{words: len(words.Fields(query)), required: hasRequired(query), k: -1}
}

// The fusion's settings (see Strategy, Fusion).
const (
	// fuseEvidence is the best hybrid score at which the embedding's
	// share is halved: w = max/(1 + (best/fuseEvidence)²).
	fuseEvidence = 5.0
	// fuseSpread is the spread of the embedding ranking (its best cosine
	// less its last) at which the embedding's share is whole; the cosine
	// part of a tool's part of it is how much closer to the query than
	// the last its vector is, over fuseSpread, or over the spread if that
	// is larger (the best tool then gets it all).
	fuseSpread = 0.35
	// fuseFloor is the spread of the embedding ranking at or below which
	// the embedding has no share.
	fuseFloor = 0.1
	// fuseRankPart is the part of a tool's part of the share that goes
	// by its place among the nearest (1 − place/nearest, place 1 for the
	// nearest) rather than by its cosine.
	fuseRankPart = 0.15
	// fuseAstray and fuseLost bound the spread of the embedding ranking
	// over its best cosine: up to fuseAstray the share is whole, from
	// fuseLost it is 0. A query vector whose nearest tools are barely
	// nearer to it than tools on the far side of zero (the last cosine
	// about as far below 0 as the best is above) points at no tool: a
	// query the model cannot read, such as one in a language it does not
	// know.
	fuseAstray, fuseLost = 1.2, 1.5
	// fuseMinShare is the least share the embedding gets: a smaller one
	// can only reorder near-ties of a strong word match, which it breaks
	// no better than pool order does, so it is 0.
	fuseMinShare = 0.05
	// fuseLong is the number of words past which a query's embedding
	// share shrinks in proportion: fuseLong/words.
	fuseLong = 30
	// fuseShort is the most words of a query that, when its best
	// hybrid match is on a tool's name, is taken to name the tool: the
	// embedding does not reorder it.
	fuseShort = 6
	// fuseReserve is the least share at which the last of the hits the
	// Searcher keeps goes to the embedding ranking's nearest tool not
	// already among the others.
	fuseReserve = 0.15
	// fuseReserveNear is how much less similar to the query than the
	// nearest tool the tool given that place may be: a tool further
	// down the embedding ranking is no more evidence than the words.
	fuseReserveNear = 0.05
)

// nameRules are the rules of a match on a tool's name.
const nameRules = toolsearch.RulePartExact | toolsearch.RulePartSubstring | toolsearch.RuleFullName

// fusion is the strategy's fusion of the two rankings (see Strategy,
// Fusion):
//
//	score = (1 − w)·(hybrid score / best) + w·part
//	part  = fuseRankPart·(1 − place/nearest)          (place 1 to nearest)
//	      + (1 − fuseRankPart)·(cos − c_last)/max(fuseSpread, c₁ − c_last)
//
// with w from max, the query's shape and the two rankings; max = 1 is the
// embedding ranking alone. Tools scoring 0 are left out. With a share of
// at least fuseReserve, the last of the k hits kept goes to the nearest
// tool of the embedding ranking not among the k − 1 best, if its cosine
// is within fuseReserveNear of the nearest's (reserve).
type fusion struct{ max float64 }

func (f fusion) apply(hits []toolsearch.Hit, base int, sem []semHit, q queryShape) []toolsearch.Hit {
	if len(sem) == 0 {
		return hits
	}
	if f.max >= 1 { // the embedding ranking alone
		if q.required {
			return f.within(hits, base, sem)
		}
		hits = hits[:base]
		for i, sh := range sem {
			// Best first (the search's order: cosine, then row).
			hits = append(hits, toolsearch.Hit{Tool: sh.tool, Score: 1 - float64(i)/float64(len(sem)), Rules: toolsearch.RuleSemantic})
		}
		return hits
	}
	lex := hits[base:]
	w := f.share(lex, sem, q)
	if w == 0 {
		return hits
	}
	best := 0.0
	for _, h := range lex {
		best = max(best, h.Score)
	}
	semRank := make(map[int]int, len(sem)) // tool → 1 + its index in sem
	for i, h := range sem {
		semRank[h.tool] = i + 1
	}
	last := float64(sem[len(sem)-1].cos)
	scale := max(fuseSpread, float64(sem[0].cos)-last)
	n := float64(len(sem))
	// part is the part of the share of sem[k]: by its place, and by how
	// much nearer than the last it is (the last gets nothing).
	part := func(k int) float64 {
		return fuseRankPart*(1-float64(k+1)/n) + (1-fuseRankPart)*(float64(sem[k].cos)-last)/scale
	}
	seen := make([]bool, len(sem))
	for i := range lex {
		h := &lex[i]
		s := (1 - w) * h.Score / best
		if k, ok := semRank[h.Tool]; ok {
			s += w * part(k-1)
			h.Rules |= toolsearch.RuleSemantic
			seen[k-1] = true
		}
		h.Score = s
	}
	if !q.required {
		for i, sh := range sem {
			if s := w * part(i); !seen[i] && s > 0 {
				hits = append(hits, toolsearch.Hit{Tool: sh.tool, Score: s, Rules: toolsearch.RuleSemantic})
			}
		}
	}
	if w >= fuseReserve {
		reserve(hits[base:], sem, q)
	}
	return hits
}

// reserve gives the last of the q.k best of hits (those in q.in's scope)
// to the nearest tool of the embedding ranking sem that is a hit in scope
// but not among the q.k − 1 best, when there is one whose cosine is within
// fuseReserveNear of the nearest tool's: its score is raised to
// halfway between the (k−1)th best score and the kth (to the (k−1)th
// when no float lies between them), so that it becomes one of the k. The
// two rankings' evidence is kept apart this way: a tool the embedding
// finds nearest but the words do not match keeps one of the places a
// model sees. Nothing changes when the (k−1)th and kth best
// scores are equal (there is no score between them), when k < 2 or every
// hit is kept (k < 0).
func reserve(hits []toolsearch.Hit, sem []semHit, q queryShape) {
	k := q.k
	if k < 2 {
		return
	}
	inScope := func(h toolsearch.Hit) bool { return h.Score > 0 && (q.in == nil || q.in(h.Tool)) }
	// The k best, as the Searcher keeps them (score, then pool order).
	best := toolsearch.Query{K: k, In: q.in}.TopHits(nil)
	n := 0
	for _, h := range hits {
		if inScope(h) {
			n++
			best.Offer(h.Tool, h.Score, 0)
		}
	}
	if n <= k {
		return // every hit is kept already
	}
	top := best.Hits()
	above, below := top[k-2].Score, top[k-1].Score
	if !(above > below) {
		return
	}
	kept := make(map[int]bool, k-1)
	for _, h := range top[:k-1] {
		kept[h.Tool] = true
	}
	place := make(map[int]int, len(sem)) // tool → its place in sem, for those not kept and near enough
	for i, sh := range sem {
		if sh.cos < sem[0].cos-fuseReserveNear {
			break // sem is nearest first
		}
		if !kept[sh.tool] {
			place[sh.tool] = i
		}
	}
	nearest, at := len(sem), -1
	for i, h := range hits {
		if p, ok := place[h.Tool]; ok && p < nearest && inScope(h) {
			nearest, at = p, i
		}
	}
	if at >= 0 && hits[at].Tool != top[k-1].Tool {
		mid := above/2 + below/2
		if !(mid > below) {
			mid = above // no float between the two: tied with the (k−1)th, still before the kth
		}
		hits[at].Score = mid
	}
}

// share returns the embedding's share w of the query's scores, from the
// hybrid hits lex and the embedding ranking sem (see Strategy, Fusion).
func (f fusion) share(lex []toolsearch.Hit, sem []semHit, q queryShape) float64 {
	best, top := 0.0, -1 // the best hybrid hit; of equal scores, the first in pool order
	var rules toolsearch.Rule
	for _, h := range lex {
		if h.Score > best || (h.Score == best && h.Tool < top) {
			best, top, rules = h.Score, h.Tool, h.Rules
		}
	}
	if top >= 0 && q.words <= fuseShort && rules&nameRules != 0 {
		return 0 // the query names a tool
	}
	w := f.max / (1 + (best/fuseEvidence)*(best/fuseEvidence))
	if q.words > fuseLong {
		w *= float64(fuseLong) / float64(q.words)
	}
	c1 := float64(sem[0].cos)
	spread := float64(sem[0].cos - sem[len(sem)-1].cos)
	w *= min(1, max(0, (spread-fuseFloor)/(fuseSpread-fuseFloor)))
	if c1 <= 0 {
		return 0 // no tool is on the query's side
	}
	w *= min(1, max(0, (fuseLost-spread/c1)/(fuseLost-fuseAstray)))
	if w < fuseMinShare {
		return 0
	}
	return w
}

// within ranks the hybrid hits (those with every required word) by the
// embedding alone: by their place among the nearest tools, then, after
// those, by hybrid score.
func (fusion) within(hits []toolsearch.Hit, base int, sem []semHit) []toolsearch.Hit {
	lex := hits[base:]
	semRank := make(map[int]int, len(sem))
	for i, h := range sem {
		semRank[h.tool] = i + 1
	}
	best := 0.0
	for _, h := range lex {
		best = max(best, h.Score)
	}
	for i := range lex {
		h := &lex[i]
		if r, ok := semRank[h.Tool]; ok {
			h.Score = 2 - float64(r)/float64(len(sem)+1)
			h.Rules |= toolsearch.RuleSemantic
		} else {
			h.Score /= best // below every tool of the embedding ranking
		}
	}
	return hits
}
