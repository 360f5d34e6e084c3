package toolsearch

import (
	"slices"
	"strings"
	"sync"
)

// Close names for a name that matches no tool (select: suggestions and the
// call guard's "did you mean"). A tool's name is close to the name asked
// for when, both folded (lowercased, without '_', '-' and '.'), they are
// equal (distance 0), one contains the other and the name asked for has 4
// characters or more (distance 1 + a quarter of the length difference), or
// their edit distance is at most max(2, a third of the length asked for).
// Closest first, then pool order; three at most.
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
//     at least m-1-2k of them; the tools are counted from the pairs' lists
//     (the commonest pairs left out while the bound stays positive), or,
//     when m-1-2k is not positive, taken from the lengths m-k to m+k.
//
// Each candidate is checked with the rule above. The work (list entries
// read, characters compared) is drawn from the query's budget
// (SearchOptions.MaxQueryWork); when it runs out the suggestions found so
// far are given and the result says so.

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
	folded  []string           // per pool position
	byFold  map[string][]int32 // folded name → pool positions
	byLen   [maxNameLength + 1][]int32
	grams   [foldAlphabet * foldAlphabet][]int32 // gram → positions of the names that have it
	scratch sync.Pool                            // *suggestScratch
}

func buildSuggestIndex(pool []*entry) *suggestIndex {
	x := &suggestIndex{folded: make([]string, len(pool)), byFold: make(map[string][]int32, len(pool))}
	for i, e := range pool {
		n := foldName(e.tool.Name)
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
	gen   uint32
	mark  []uint32 // position checked in this generation
	stamp []uint32 // count valid in this generation
	count []uint16
}

// suggest returns up to three names of tools of snap's pool that in
// accepts and that are close to name, spending from work; it reports false
// when work ran out before every candidate was checked.
func (s *snapshot) suggest(name string, in func(*entry) bool, work *queryWork) ([]string, bool) {
	q := foldName(name)
	if q == "" || len(q) > maxNameLength {
		return nil, true
	}
	x := s.suggestions.get(s, func(*suggestIndex) *suggestIndex { return buildSuggestIndex(s.pool) })
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
	f := finder{x: x, sc: sc, pool: s.pool, in: in, q: q, limit: max(2, len(q)/3), work: work}
	complete := f.find()
	out := make([]string, 0, len(f.best))
	for _, c := range f.best {
		out = append(out, s.pool[c.pos].tool.Name)
	}
	return out, complete
}

type finder struct {
	x     *suggestIndex
	sc    *suggestScratch
	pool  []*entry
	in    func(*entry) bool
	q     string
	limit int
	work  *queryWork
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
			if !f.work.spend((len(q) - i + 1) * (len(q) - i + 2) / 2) { // the bytes hashed
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
	if need <= 0 {
		for n := max(0, len(q)-k); n <= min(len(q)+k, maxNameLength); n++ {
			if !f.offerAll(x.byLen[n]) {
				return false
			}
		}
		return true
	}
	// q's grams, commonest first; leave out the commonest ones while the
	// bound stays positive.
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
	sortGrams := func(a, b gramUse) int { return len(x.grams[b.g]) - len(x.grams[a.g]) }
	slices.SortFunc(grams, sortGrams)
	for len(grams) > 0 && need-grams[0].uses >= 1 {
		need -= grams[0].uses
		grams = grams[1:]
	}
	sc, gen := f.sc, f.sc.gen
	var hits []int32
	for _, g := range grams {
		l := x.grams[g.g]
		if !f.work.spend(len(l)) {
			return false
		}
		for _, p := range l {
			if sc.stamp[p] != gen {
				sc.stamp[p], sc.count[p] = gen, 0
			}
			if sc.count[p] < uint16(need) {
				if sc.count[p] += uint16(g.uses); int(sc.count[p]) >= need {
					hits = append(hits, p)
				}
			}
		}
	}
	slices.Sort(hits)
	return f.offerAll(hits)
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

// offer checks the tool at pool position p once, keeping it if it is close
// enough and among the best.
func (f *finder) offer(p int32) bool {
	if f.sc.mark[p] == f.sc.gen {
		return true
	}
	f.sc.mark[p] = f.sc.gen
	n, q := f.x.folded[p], f.q
	if !f.work.spend(1 + len(n) + len(q)) {
		return false
	}
	if !f.in(f.pool[p]) {
		return true
	}
	d := nameDistance(n, q, f.limit, func(cells int) bool { return f.work.spend(cells) })
	if d == -2 {
		return false
	}
	if d < 0 {
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

// nameDistance returns how close folded name n is to folded name q (see
// the rule above), or -1 when it is not close. Before an edit distance it
// asks spend for the cells it computes, and returns -2 if refused.
func nameDistance(n, q string, limit int, spend func(cells int) bool) int {
	switch {
	case n == q:
		return 0
	case len(q) >= 4 && (strings.Contains(n, q) || strings.Contains(q, n)):
		return 1 + abs(len(n)-len(q))/4
	case abs(len(n)-len(q)) <= limit:
		if !spend(len(n) * len(q)) {
			return -2
		}
		if ed := editDistance(n, q, limit); ed <= limit {
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
// most maxNameLength each), or limit+1 as soon as it is known to exceed
// limit. It allocates nothing.
func editDistance(a, b string, limit int) int {
	var rows [2][maxNameLength + 1]int
	prev, cur := &rows[0], &rows[1]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c = 1 + min(prev[j-1], prev[j], cur[j-1])
			}
			cur[j] = c
			best = min(best, c)
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
