package toolsearch

import (
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/text"
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
	if text.HasLineTerminator(rest) {
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
// match if exactly one tool has it, then [ours] a match with '_', '-' and
// '.' taken as one character (and case ignored) if exactly one tool has it;
// loose reports that last case. in limits the candidates to a scope.
func (s *snapshot) resolve(name string, in func(*entry) bool) (e *entry, loose bool) {
	exact := func(deferredOnly bool) *entry {
		for _, e := range []*entry{s.named(name), s.aliased(name)} {
			if e != nil && (!deferredOnly || e.deferred) && in(e) {
				return e
			}
		}
		return nil
	}
	if e := exact(true); e != nil {
		return e, false
	}
	if e := exact(false); e != nil {
		return e, false
	}
	lower := words.Lower(name)
	if e := unique(s.lowered(lower), in); e != nil {
		return e, false
	}
	var found *entry
	for e := range s.pool.All() {
		if len(e.lowerName) == len(lower) && sameButSeparators(e.lowerName, lower) && in(e) {
			if found != nil {
				return nil, false // ambiguous
			}
			found = e
		}
	}
	return found, found != nil
}

// unique returns the one tool of l in scope, or nil if there are none or
// several.
func unique(l []*entry, in func(*entry) bool) *entry {
	var found *entry
	for _, e := range l {
		if !in(e) {
			continue
		}
		if found != nil {
			return nil
		}
		found = e
	}
	return found
}

// sameButSeparators reports whether a and b are equal when '_', '-' and
// '.' are taken as one character.
func sameButSeparators(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] && !(isSeparator(a[i]) && isSeparator(b[i])) {
			return false
		}
	}
	return true
}

func isSeparator(c byte) bool { return c == '_' || c == '-' || c == '.' }

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
		if e, loose := snap.resolve(name, s.in); e != nil {
			found = append(found, e)
			if loose {
				res.Notes = append(res.Notes, selectLoose(name, e.tool.Name))
			}
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
			e, loose := snap.resolve(n, s.in)
			if e == nil {
				missing = append(missing, n)
				continue
			}
			if loose {
				res.Notes = append(res.Notes, selectLoose(n, e.tool.Name))
			}
			if !slices.Contains(found, e) {
				found = append(found, e)
			}
		}
	}
	s.reportMissing(snap, missing, res)
	return found
}

// reportMissing records in res the select: names that match nothing
// (NotFound), with up to three close names each (Suggestions), as long as
// the query's work budget lasts for finding them.
func (s *Searcher) reportMissing(snap *snapshot, missing []string, res *Result) {
	if len(missing) == 0 {
		return
	}
	work := querywork.New(s.opts.MaxQueryWork)
	for i, n := range missing {
		missing[i] = text.Echo(n)
		sug, complete := snap.suggest(n, s.in, work) // none for a name longer than any tool's
		if !complete {
			res.Notes = append(res.Notes, suggestionsCut())
			break
		}
		if len(sug) > 0 {
			if res.Suggestions == nil {
				res.Suggestions = map[string][]string{}
			}
			res.Suggestions[n] = sug
		}
	}
	res.NotFound = missing
}
