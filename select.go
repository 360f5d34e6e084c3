package toolsearch

import (
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/words"
)

// selectArg returns the text after "select:" when query is a select query:
// the raw query starts with "select:" in any ASCII case, and the rest is
// non-empty and holds no line terminator (JavaScript's /^select:(.+)$/i).
func selectArg(query string) (string, bool) {
	const prefix = "select:"
	if len(query) <= len(prefix) || !strings.EqualFold(query[:len(prefix)], prefix) {
		return "", false
	}
	rest := query[len(prefix):]
	if hasLineTerminator(rest) {
		return "", false
	}
	return rest, true
}

// selectNames splits the argument of select: on commas, trims each piece
// and drops empty ones.
func selectNames(arg string) []string {
	var names []string
	for p := range strings.SplitSeq(arg, ",") {
		if p = words.TrimSpace(p); p != "" {
			names = append(names, p)
		}
	}
	return names
}

// resolve finds the tool that select:name means: the exact name (or alias)
// among deferred tools, then among all tools, then [ours] a case-insensitive
// match if exactly one tool has it. in limits the candidates to a scope.
func (s *snapshot) resolve(name string, in func(*entry) bool) *entry {
	exact := func(deferredOnly bool) *entry {
		for _, e := range []*entry{s.named(name), s.aliased(name)} {
			if e != nil && (!deferredOnly || e.deferred) && in(e) {
				return e
			}
		}
		return nil
	}
	if e := exact(true); e != nil {
		return e
	}
	if e := exact(false); e != nil {
		return e
	}
	var found *entry
	for _, e := range s.lowered(words.Lower(name)) {
		if !in(e) {
			continue
		}
		if found != nil {
			return nil // ambiguous
		}
		found = e
	}
	return found
}

// selectTools answers a select: query whose argument is arg: the tools it
// names, in request order without duplicates, appended to buf. It records
// in res the names that match nothing (NotFound), with up to three close
// names each (Suggestions), and the names left out by MaxSelectNames
// (Notes).
func (s *Searcher) selectTools(snap *snapshot, arg string, res *Result, buf []*entry) []*entry {
	found := buf
	var missing []string
	if name := words.TrimSpace(arg); !strings.Contains(arg, ",") && name != "" {
		// One name (never cut by MaxSelectNames): no lists to build.
		if e := snap.resolve(name, s.in); e != nil {
			found = append(found, e)
		} else {
			missing = []string{name}
		}
	} else {
		names := selectNames(arg)
		if limit := s.opts.MaxSelectNames; len(names) > limit {
			res.Notes = append(res.Notes, selectCut(names, limit))
			names = names[:limit]
		}
		for _, n := range names {
			e := snap.resolve(n, s.in)
			if e == nil {
				missing = append(missing, n)
			} else if !slices.Contains(found, e) {
				found = append(found, e)
			}
		}
	}
	for i, n := range missing {
		missing[i] = echo(n)
		if len(n) > maxNameLength {
			continue // no tool has such a name, nor one close to it
		}
		if sug := snap.suggest(n, s.in); len(sug) > 0 {
			if res.Suggestions == nil {
				res.Suggestions = map[string][]string{}
			}
			res.Suggestions[n] = sug
		}
	}
	res.NotFound = missing
	return found
}

// maxSuggestions is how many names are suggested for a name not found.
const maxSuggestions = 3

// suggest returns up to three names of tools in scope that are close to
// name: equal ignoring case, '_', '-' and '.', containing it or contained in
// it, or within a small edit distance. Closest first, then pool order.
func (s *snapshot) suggest(name string, in func(*entry) bool) []string {
	q := foldName(name)
	if q == "" {
		return nil
	}
	limit := max(2, len(q)/3)
	type cand struct {
		name string
		dist int
		pos  int
	}
	var cs []cand
	for i, e := range s.pool {
		if !in(e) {
			continue
		}
		n := foldName(e.tool.Name)
		d := -1
		switch {
		case n == q:
			d = 0
		case len(q) >= 4 && (strings.Contains(n, q) || strings.Contains(q, n)):
			d = 1 + abs(len(n)-len(q))/4
		case abs(len(n)-len(q)) <= limit:
			if ed := editDistance(n, q, limit); ed <= limit {
				d = ed
			}
		}
		if d >= 0 {
			cs = append(cs, cand{e.tool.Name, d, i})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return a.pos - b.pos
	})
	out := make([]string, 0, min(len(cs), maxSuggestions))
	for _, c := range cs[:min(len(cs), maxSuggestions)] {
		out = append(out, c.name)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance returns the Levenshtein distance between a and b (bytes), or
// limit+1 as soon as it is known to exceed limit.
func editDistance(a, b string, limit int) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
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
