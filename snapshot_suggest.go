package toolsearch

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/text"
	"github.com/toolsearch/toolsearch/internal/words"
)

// Close names for a name that matches no tool (select: suggestions and the
// call guard's "did you mean"). A tool's name is close to the name asked
// for when, both folded (lowercased, without '_', '-' and '.'), they are
// equal (distance 0), one contains the other and the name asked for has 4
// characters or more (distance 1 + a quarter of the length difference), or
// their edit distance is at most max(2, a quarter of the length asked
// for). Closest first, then pool order; three at most. For a name
// mcp__server__tool, the tools of the same server whose own name shares a
// word with tool come before them (sameServer), close or not.
//
// Comparing the name with every tool costs a hundred milliseconds per name
// at 100,000 tools, so candidates come from an index of the folded names,
// built once per snapshot on the first name not found:
//   - equal: the tools of that folded name;
//   - containing it: the tools that have its rarest pair of adjacent
//     characters;
//   - contained in it: the tools named by one of its substrings;
//   - within the edit distance k of a name of length m: an edit changes at
//     most two of its m-1 pairs of adjacent characters, so such a tool has
//     at least m-1-2k of them; the pairs each tool has are counted from the
//     pairs' lists, or, when m-1-2k is not positive, the tools are taken
//     from the lengths m-k to m+k.
//
// Each candidate is checked with the rule above, those sharing the most
// pairs first; once three are found, a candidate must beat the third, so
// the edit distances are computed within a narrowing band and the tools
// sharing too few pairs are skipped. The work (list entries read, cells of
// edit distances) is drawn from the query's budget
// (SearchOptions.MaxQueryWork); when it runs out the result says so.

// Folded names are made of [a-z0-9]; a pair of them is one of 36×36 grams.
const foldAlphabet = 36

func foldCode(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a')
	case c >= '0' && c <= '9':
		return 26 + int(c-'0')
	}
	return -1
}

// foldGram returns the gram of the pair s[i], s[i+1], or -1 when one of
// them is outside the alphabet (no tool's folded name has it).
func foldGram(s string, i int) int {
	a, b := foldCode(s[i]), foldCode(s[i+1])
	if a < 0 || b < 0 {
		return -1
	}
	return a*foldAlphabet + b
}

// suggestIndex indexes the folded names of a snapshot's pool.
type suggestIndex struct {
	pool    []*entry           // the snapshot's pool
	folded  []string           // per pool position
	byFold  map[string][]int32 // folded name → pool positions
	byLen   [maxNameLength + 1][]int32
	grams   [foldAlphabet * foldAlphabet][]int32 // gram → positions of the names that have it
	scratch sync.Pool                            // *suggestScratch
}

func buildSuggestIndex(pool []*entry) *suggestIndex {
	x := &suggestIndex{pool: pool, folded: make([]string, len(pool)), byFold: make(map[string][]int32, len(pool))}
	for i, e := range pool {
		n := text.FoldName(e.tool.Name)
		x.folded[i] = n
		p := int32(i)
		x.byFold[n] = append(x.byFold[n], p)
		x.byLen[min(len(n), maxNameLength)] = append(x.byLen[min(len(n), maxNameLength)], p)
		for j := 0; j+1 < len(n); j++ {
			if g := foldGram(n, j); g >= 0 {
				if l := x.grams[g]; len(l) == 0 || l[len(l)-1] != p {
					x.grams[g] = append(l, p)
				}
			}
		}
	}
	return x
}

// suggestScratch is the per-call state of suggest: a mark and a count per
// pool position, valid for the current generation.
type suggestScratch struct {
	gen     uint32
	mark    []uint32 // position checked in this generation
	stamp   []uint32 // count valid in this generation
	count   []uint16
	hits    []int32                    // the names counted enough, reused
	byCount [maxNameLength + 1][]int32 // hits by count, reused
}

// suggest returns up to three names for name, which names no tool: the
// tools of its server sharing its words (sameServer), then the close
// names (closeNames), of the tools of snap's pool that in accepts,
// spending from work; it reports false when work ran out before every
// close candidate was checked.
func (s *snapshot) suggest(name string, in func(*entry) bool, work *querywork.Budget) ([]string, bool) {
	out, complete := s.closeNames(name, in, work)
	if kin := s.sameServer(name, in, out, work); len(kin) > 0 {
		for _, n := range out {
			if len(kin) < maxSuggestions && !slices.Contains(kin, n) {
				kin = append(kin, n)
			}
		}
		out = kin
	}
	return out, complete
}

// closeNames returns up to three names of tools of snap's pool that in
// accepts and that are close to name (closest first, then pool order),
// spending from work; it reports false when work ran out before every
// candidate was checked.
func (s *snapshot) closeNames(name string, in func(*entry) bool, work *querywork.Budget) ([]string, bool) {
	q := text.FoldName(name)
	if q == "" || len(q) > maxNameLength {
		return nil, true
	}
	x := s.suggestions.get(s, func(s *snapshot, _ *suggestIndex) *suggestIndex {
		return buildSuggestIndex(slices.Collect(s.pool.All()))
	})
	sc, _ := x.scratch.Get().(*suggestScratch)
	if sc == nil || len(sc.mark) < len(x.folded) {
		sc = &suggestScratch{mark: make([]uint32, len(x.folded)), stamp: make([]uint32, len(x.folded)), count: make([]uint16, len(x.folded))}
	}
	defer x.scratch.Put(sc)
	if sc.gen++; sc.gen == 0 {
		clear(sc.mark)
		clear(sc.stamp)
		sc.gen = 1
	}
	f := finder{x: x, sc: sc, pool: x.pool, in: in, q: q, limit: max(2, len(q)/4), work: work}
	complete := f.find()
	out := make([]string, 0, len(f.best))
	for _, c := range f.best {
		out = append(out, x.pool[c.pos].tool.Name)
	}
	return out, complete
}

// maxKin is the most tools of the asked name's server that sameServer
// compares.
const maxKin = 512

// sameServer returns, for a name mcp__server__tool, up to three deferred
// tools of the same server whose own name shares a word (compared by
// Stem) with tool: those sharing the most first, then those close is
// (the close names, closest first) has, then pool order. A model that
// misremembers a tool's name usually means one of its server's, and the
// shared words say which (mcp__everything__add_numbers: add), where the
// closest spelling may be another server's tool or an unrelated one.
func (s *snapshot) sameServer(name string, in func(*entry) bool, close []string, work *querywork.Budget) []string {
	lower := words.Lower(name)
	rest, ok := strings.CutPrefix(lower, "mcp__")
	if !ok {
		return nil
	}
	srv, part, ok := strings.Cut(rest, "__")
	if !ok || srv == "" || part == "" {
		return nil
	}
	asked := stems(words.NameWords(nil, part))
	prefix := "mcp__" + srv + "__"
	tools := s.prefix.find(prefix, maxKin, in)
	if !work.Spend(len(tools)) {
		return nil
	}
	type kin struct {
		name          string
		shared, close int
	}
	var ks []kin
	for _, e := range tools {
		if e.lowerName == lower {
			continue
		}
		shared := 0
		for _, st := range stems(words.NameWords(nil, e.tool.Name[len(prefix):])) {
			if slices.Contains(asked, st) {
				shared++
			}
		}
		if shared > 0 {
			c := slices.Index(close, e.tool.Name)
			if c < 0 {
				c = len(close)
			}
			ks = append(ks, kin{e.tool.Name, shared, c})
		}
	}
	slices.SortStableFunc(ks, func(a, b kin) int { return cmp.Or(b.shared-a.shared, a.close-b.close) })
	var out []string
	for _, k := range ks[:min(len(ks), maxSuggestions)] {
		out = append(out, k.name)
	}
	return out
}

// stems returns the distinct stems of ws.
func stems(ws []string) []string {
	var out []string
	for _, w := range ws {
		if st := words.Stem(w); !slices.Contains(out, st) {
			out = append(out, st)
		}
	}
	return out
}

type finder struct {
	x     *suggestIndex
	sc    *suggestScratch
	pool  []*entry
	in    func(*entry) bool
	q     string
	limit int
	work  *querywork.Budget
	best  []closeName // at most maxSuggestions, closest first, then pool order
}

type closeName struct {
	pos  int32
	dist int
}

// find offers every candidate, reporting false when work ran out.
func (f *finder) find() bool {
	x, q := f.x, f.q
	if !f.offerAll(x.byFold[q]) {
		return false
	}
	if len(q) >= 4 {
		// Names that contain q have its rarest gram.
		rarest := -1
		for i := 0; i+1 < len(q); i++ {
			g := foldGram(q, i)
			if g < 0 {
				rarest = -1
				break
			}
			if rarest < 0 || len(x.grams[g]) < len(x.grams[rarest]) {
				rarest = g
			}
		}
		if rarest >= 0 && !f.offerAll(x.grams[rarest]) {
			return false
		}
		// Names contained in q are its substrings.
		for i := 0; i <= len(q); i++ {
			if !f.work.Spend((len(q) - i + 1) * (len(q) - i + 2) / 2) { // the bytes hashed
				return false
			}
			for j := i; j <= len(q); j++ {
				if l := x.byFold[q[i:j]]; len(l) > 0 && !f.offerAll(l) {
					return false
				}
			}
		}
	}
	return f.nearby()
}

// nearby offers the names within the edit distance.
func (f *finder) nearby() bool {
	x, q, k := f.x, f.q, f.limit
	need := len(q) - 1 - 2*k // pairs of q that such a name keeps
	byLength := func() bool {
		for n := max(0, len(q)-k); n <= min(len(q)+k, maxNameLength); n++ {
			if !f.offerAll(x.byLen[n]) {
				return false
			}
		}
		return true
	}
	if need <= 0 {
		return byLength()
	}
	// Count, for each name, the pairs of q it has; a pair nearly every
	// name has is taken as had by all (a bound a little looser, for far
	// fewer entries read).
	type gramUse struct{ g, uses int }
	var grams []gramUse
	for i := 0; i+1 < len(q); i++ {
		g := foldGram(q, i)
		if g < 0 {
			continue
		}
		found := false
		for j := range grams {
			if grams[j].g == g {
				grams[j].uses++
				found = true
			}
		}
		if !found {
			grams = append(grams, gramUse{g, 1})
		}
	}
	assumed := 0
	counted := grams[:0]
	for _, g := range grams {
		if len(x.grams[g.g]) >= len(x.folded)-len(x.folded)/8 {
			assumed += g.uses
		} else {
			counted = append(counted, g)
		}
	}
	if need -= assumed; need <= 0 {
		return byLength()
	}
	sc, gen := f.sc, f.sc.gen
	hits := sc.hits[:0]
	defer func() { sc.hits = hits }()
	for _, g := range counted {
		l := x.grams[g.g]
		if !f.work.Spend(workPerEntry * len(l)) {
			return false
		}
		for _, p := range l {
			if sc.stamp[p] != gen {
				sc.stamp[p], sc.count[p] = gen, 0
			}
			before := int(sc.count[p])
			sc.count[p] += uint16(g.uses)
			if before < need && int(sc.count[p]) >= need {
				hits = append(hits, p)
			}
		}
	}
	// The names sharing the most pairs first (a counting sort): the
	// closest are likely among them, and once three are found the others
	// need more shared pairs.
	byCount := &sc.byCount
	for c := range byCount {
		byCount[c] = byCount[c][:0]
	}
	for _, p := range hits {
		c := min(int(sc.count[p]), maxNameLength)
		byCount[c] = append(byCount[c], p)
	}
	for c := maxNameLength; c >= need; c-- {
		shared := min(c+assumed, maxNameLength)
		if len(f.best) == maxSuggestions && len(q)-1-shared > 2*min(f.best[maxSuggestions-1].dist, k) {
			break // every name left is farther than the three found
		}
		for _, p := range byCount[c] {
			if !f.offerShared(p, shared) {
				return false
			}
		}
	}
	return true
}

// offerAll offers the tools at the positions l.
func (f *finder) offerAll(l []int32) bool {
	for _, p := range l {
		if !f.offer(p) {
			return false
		}
	}
	return true
}

func (f *finder) offer(p int32) bool { return f.offerShared(p, len(f.q)) }

// offerShared checks the tool at pool position p once, keeping it if it is
// close enough and among the best. shared is at least the number of pairs
// of adjacent characters of the name asked for that the tool's name has.
func (f *finder) offerShared(p int32, shared int) bool {
	if f.sc.mark[p] == f.sc.gen {
		return true
	}
	f.sc.mark[p] = f.sc.gen
	n, q := f.x.folded[p], f.q
	// Once three are found, a tool must be closer than the third (or as
	// close and earlier in pool order) to count: no more is computed.
	prune := maxNameLength // any distance counts
	if len(f.best) == maxSuggestions {
		third := f.best[maxSuggestions-1]
		prune = third.dist
		if p > third.pos {
			prune--
		}
		if prune < 0 {
			return true
		}
	}
	if shared < len(q)-1-2*min(prune, f.limit) {
		// Only an edit distance could make it close (the names that
		// contain or are contained in q were offered first), and one
		// within prune keeps more pairs.
		return f.work.Spend(1)
	}
	if !f.work.Spend(1 + len(n) + len(q)) {
		return false
	}
	if !f.in(f.pool[p]) {
		return true
	}
	d := nameDistance(n, q, f.limit, prune, f.work)
	if d == -2 {
		return false
	}
	if d < 0 || d > prune {
		return true
	}
	c := closeName{p, d}
	i := 0
	for i < len(f.best) && (f.best[i].dist < d || f.best[i].dist == d && f.best[i].pos < p) {
		i++
	}
	if i < maxSuggestions {
		if len(f.best) < maxSuggestions {
			f.best = append(f.best, closeName{})
		}
		copy(f.best[i+1:], f.best[i:])
		f.best[i] = c
	}
	return true
}

// The work of one cell of an edit distance, and of one entry of a pair's
// list counted.
const (
	workPerCell  = 4
	workPerEntry = 2
)

// nameDistance returns how close folded name n is to folded name q (see
// the rule above), or -1 when it is not close, or when it is an edit
// distance above prune (≤ limit), which is then not computed to the end.
// An edit distance is paid for from work; -2 when it ran out.
func nameDistance(n, q string, limit, prune int, work *querywork.Budget) int {
	switch {
	case n == q:
		return 0
	case len(q) >= 4 && (strings.Contains(n, q) || strings.Contains(q, n)):
		return 1 + abs(len(n)-len(q))/4
	case abs(len(n)-len(q)) <= min(limit, prune):
		bound := min(limit, prune)
		if !work.Spend(workPerCell * len(n) * len(q)) { // at most; the band is refunded
			return -2
		}
		ed, rows := editDistance(n, q, bound)
		work.Refund(workPerCell * max(0, len(n)*len(q)-rows*(2*bound+1)))
		if ed <= bound {
			return ed
		}
	}
	return -1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance returns the Levenshtein distance between a and b (bytes, at
// most maxNameLength each), or limit+1 when it exceeds limit, and the rows
// of a it went through. Only the cells within limit of the diagonal are
// computed (a path through any other cell costs more than limit), and it
// stops at the first row whose cells all exceed limit. It allocates
// nothing.
func editDistance(a, b string, limit int) (dist, rows int) {
	if abs(len(a)-len(b)) > limit {
		return limit + 1, 0
	}
	const far = maxNameLength + 2 // more than any distance
	var buf [2][maxNameLength + 1]int
	prev, cur := &buf[0], &buf[1]
	for j := 0; j <= len(b); j++ {
		prev[j] = min(j, far)
		if j > limit {
			prev[j] = far
		}
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-limit), min(len(b), i+limit)
		cur[0] = far
		if i <= limit {
			cur[0] = i
		}
		if lo > 1 {
			cur[lo-1] = far
		}
		best := cur[0]
		for j := lo; j <= hi; j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c = 1 + min(prev[j-1], prev[j], cur[j-1])
			}
			cur[j] = c
			best = min(best, c)
		}
		if hi < len(b) {
			cur[hi+1] = far
		}
		if best > limit {
			return limit + 1, i
		}
		prev, cur = cur, prev
	}
	if d := prev[len(b)]; d <= limit {
		return d, len(a)
	}
	return limit + 1, len(a)
}

// maxSuggestions is how many names are suggested for a name not found.
const maxSuggestions = 3
