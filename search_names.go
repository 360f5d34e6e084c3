package toolsearch

import (
	"cmp"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/words"
)

// The names form. Agents that know what they want name the tools
// (search_graph trace_path get_code_snippet query_graph), and a keyword
// ranking can leave a named tool out behind tools whose descriptions share
// the names' words. A token names a tool when, both folded (lowercased,
// without '_', '-' and '.'), it equals the tool's name or its name on its
// MCP server: create_issue, createIssue, create-issue and CREATE_ISSUE all
// name create_issue and mcp__github__create_issue. A token shaped as a
// name of several words (with '_', '-' or '.' inside it, or in camelCase)
// that names deferred tools in scope puts them first, before the
// strategy's ranking of the query; in a query whose every token names a
// tool (a loaded one needs no finding), every token does. The named tools
// come in the order the query names them (the tools one token names, such
// as read_file of two servers, as the ranking orders them, then in pool
// order), then the rest of the
// ranking, up to max_results; a note says so. A query with a "+" term, or
// of more tokens than SearchOptions.MaxSelectNames, is not in the form. With
// the default strategy, whose rankings are Claude Code's, the named tools
// are put first only when its ranking leaves one of them out of the
// max_results (as far as they fit), so that its ranking is kept whenever
// it returns them; with the other strategies, whenever they are not
// already first, in order.

// namesFirst applies the names form to hits, the strategy's best k hits
// for the trimmed query q, and returns the hits and the note, "" when the
// query is not in the names form or the hits already answer it.
func (s *Searcher) namesFirst(snap *snapshot, q string, k int, hits []Hit) ([]Hit, string) {
	if s.input.pattern || k <= 0 {
		return hits, ""
	}
	n, shaped := 0, false // tokens; one shaped as a name
	for tok := range strings.FieldsFuncSeq(q, words.IsSpace) {
		if n++; n > s.opts.MaxSelectNames || tok[0] == '+' {
			return hits, ""
		}
		shaped = shaped || nameShaped(tok)
	}
	if !shaped {
		return hits, ""
	}
	rank := make(map[int32]int, len(hits)) // position in deferred → index in hits
	for i, h := range hits {
		rank[int32(h.Tool)] = i
	}
	at := func(p int32) int {
		if i, ok := rank[p]; ok {
			return i
		}
		return -1
	}
	// Only the first k named tools count: each list keeps at most k, and
	// a token contributes the tools the ranking returns (in its order),
	// then at most k others (in pool order), whatever the number it names.
	var all, byShaped []int32 // named by every token; by the shaped ones
	every := true             // every token names a tool
	var group, others []int32
	for tok := range strings.FieldsFuncSeq(q, words.IsSpace) {
		found := false
		group, others = group[:0], others[:0]
		for _, e := range snap.folded(tok) {
			if !s.in(e) {
				continue
			}
			found = true // a loaded tool is named too, and needs no finding
			if !e.deferred {
				continue
			}
			if p, ok := snap.deferred.Search(func(d slotted) int { return poolCompare(d.e, e) }); ok {
				if at(int32(p)) >= 0 {
					group = append(group, int32(p))
				} else if len(others) < k {
					others = append(others, int32(p))
				}
			}
		}
		slices.SortFunc(group, func(a, b int32) int { return cmp.Compare(at(a), at(b)) })
		shapedTok := nameShaped(tok)
		for _, p := range append(group, others...) {
			if len(all) < k && !slices.Contains(all, p) {
				all = append(all, p)
			}
			if shapedTok && len(byShaped) < k && !slices.Contains(byShaped, p) {
				byShaped = append(byShaped, p)
			}
		}
		every = every && found
	}
	named := byShaped
	if every && n >= 2 {
		named = all
	}
	if len(named) == 0 {
		return hits, ""
	}
	want := named[:min(len(named), k)]
	if s.input.claude {
		if !slices.ContainsFunc(want, func(p int32) bool { return at(p) < 0 }) {
			return hits, "" // the default ranking returns every named tool
		}
	} else if len(hits) >= len(want) && !slices.ContainsFunc(want, func(p int32) bool { return at(p) != slices.Index(want, p) }) {
		return hits, "" // already first, in order
	}
	out := make([]Hit, 0, min(k, len(want)+len(hits)))
	for _, p := range want {
		h := Hit{Tool: int(p)}
		if i := at(p); i >= 0 {
			h = hits[i]
		}
		h.Rules |= RuleFullName
		out = append(out, h)
	}
	for _, h := range hits {
		if len(out) == k {
			break
		}
		if !slices.Contains(want, int32(h.Tool)) {
			out = append(out, h)
		}
	}
	return out, namesListedFirst()
}

// nameShaped reports whether tok is written as a name of several words:
// with '_', '-' or '.' inside it (not only at its ends), or a lowercase
// letter followed by an uppercase one (createIssue).
func nameShaped(tok string) bool {
	if strings.ContainsAny(strings.Trim(tok, "_-."), "_-.") {
		return true
	}
	for i := 1; i < len(tok); i++ {
		if tok[i-1] >= 'a' && tok[i-1] <= 'z' && tok[i] >= 'A' && tok[i] <= 'Z' {
			return true
		}
	}
	return false
}
