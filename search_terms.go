package toolsearch

import (
	"cmp"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/text"
	"github.com/toolsearch/toolsearch/internal/words"
)

// The term budget. A strategy ranks a query with at most
// SearchOptions.MaxQueryTerms whitespace-separated terms (by default its
// StrategyInput.MaxTerms). A longer query is answered all the same, with
// its most informative terms:
//
//  1. a term written again (ignoring case and a leading "+") counts once,
//     required if any of its copies is;
//  2. if that is still too many, terms are kept in this order of
//     preference: required terms ("+word"), then ordinary words, then stop
//     words (English function words such as "the", "please", and tokens
//     with no letter or digit); within each group the rarer first, rarity
//     being how many deferred tools have the term's rarest word in their
//     name parts, search hint or description (a word no tool has counts as
//     the rarest), then the earlier in the query.
//
// The kept terms go to the strategy in query order, and a note names the
// terms left out. Claude Code 2.1.89 scores every term instead; 2.1.332
// keeps the first 32, and so does the ClaudeCode2_1_332 profile, silently
// (shape332).

// budgetTerm is one distinct term of an over-budget query.
type budgetTerm struct {
	tok   string // as written, with "+" when required
	group int    // 0 required, 1 ordinary, 2 stop word
	df    int    // tools that have its rarest word
	pos   int    // first position in the query
}

// fitTerms returns query reduced to at most limit whitespace-separated
// terms as described above, and the note that says so; query and "" when
// it has at most limit terms. df returns how many tools have a lowercased
// word.
func fitTerms(query string, limit int, df func(string) int) (string, string) {
	if !text.MoreFields(query, limit) {
		return query, ""
	}
	toks := words.Fields(query)
	var ts []budgetTerm
	at := map[string]int{}
	for _, tok := range toks {
		req := len(tok) > 1 && tok[0] == '+'
		key := tok
		if req {
			key = tok[1:]
		}
		key = words.Lower(key)
		if i, ok := at[key]; ok {
			if req && ts[i].group != 0 {
				ts[i].tok, ts[i].group = tok, 0
			}
			continue
		}
		at[key] = len(ts)
		t := budgetTerm{tok: tok, pos: len(ts)}
		t.group, t.df = termWeight(key, df)
		if req {
			t.group = 0
		}
		ts = append(ts, t)
	}
	var dropped []budgetTerm
	if len(ts) > limit {
		byValue := slices.Clone(ts)
		slices.SortFunc(byValue, func(a, b budgetTerm) int {
			return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.df, b.df), cmp.Compare(a.pos, b.pos))
		})
		dropped = byValue[limit:]
		slices.SortFunc(dropped, func(a, b budgetTerm) int { return cmp.Compare(a.pos, b.pos) })
		gone := make(map[int]bool, len(dropped))
		for _, t := range dropped {
			gone[t.pos] = true
		}
		ts = slices.DeleteFunc(ts, func(t budgetTerm) bool { return gone[t.pos] })
	}
	kept := make([]string, len(ts))
	for i, t := range ts {
		kept[i] = t.tok
	}
	left := make([]string, len(dropped))
	for i, t := range dropped {
		left[i] = t.tok
	}
	return strings.Join(kept, " "), termsCut(len(toks), limit, left)
}

// termWeight returns the group of a lowercased term (1 ordinary, 2 stop
// word) and how many tools have its rarest word that is not a stop word.
func termWeight(key string, df func(string) int) (group, n int) {
	group, n = 2, 0
	for _, w := range words.Words(nil, key) {
		if words.IsStop(w) {
			continue
		}
		if f := df(w); group == 2 || f < n {
			n = f
		}
		group = 1
	}
	return group, n
}

// docFreq returns how many deferred tools have the lowercased word w in a
// name part, the search hint or the description (counted once per field).
func (ix *index) docFreq(w string) int {
	p := ix.lookup(w)
	if p == nil {
		return 0
	}
	return p.part.Len() + p.hint.Len() + p.desc.Len()
}
