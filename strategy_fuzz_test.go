package toolsearch

import (
	"errors"
	"strings"
	"testing"
)

// FuzzStrategies checks, for any query and every strategy: no panic; an
// error only from regex and wrapping ErrInvalidQuery; at most k matches,
// sorted by score, without duplicates; the same answer twice.
func FuzzStrategies(f *testing.F) {
	for _, q := range []string{"github issue", "+slack send", "Could you send a message?", "select:WebFetch", "(a|b", "[[:upper:]]|x*", "mcp__slack", "", "é+ +", "\u00a0\u2028",
		// The bounded classes: counted repeats, large programs, punctuation
		// terms, invalid UTF-8 given directly.
		"[^x]{1000}y", "[^x]{900}y", "(a|b){999}", ".{500}.{500}", "--- . ( c++ a.b", "web \xff\xfe",
		// Terms longer than any name (the hybrid typo rule), of a letter
		// that lowercases to more bytes.
		strings.Repeat("İ", 4000), strings.Repeat("read_file", 20) + " " + strings.Repeat("x", 200)} {
		f.Add(q, 3)
	}
	reg := strategyRegistry(f)
	searchers := map[string]*Searcher{}
	for _, st := range allStrategies() {
		searchers[st.Name()] = NewSearcher(reg, &SearchOptions{Strategy: st})
	}
	f.Fuzz(func(t *testing.T, q string, k int) {
		k = 1 + (k&0xff)%defaultMaxResultsCap
		for name, s := range searchers {
			res, err := s.Search(q, k)
			if err != nil {
				if !errors.Is(err, ErrInvalidQuery) || name != "regex" && !errors.Is(err, ErrLimit) {
					t.Fatalf("%s: Search(%q, %d): unexpected error %v", name, q, k, err)
				}
				continue
			}
			requireValidOutput(t, res)
			if res.Form == FormRanked && len(res.Matches) > k {
				t.Fatalf("%s: Search(%q, %d): %d matches", name, q, k, len(res.Matches))
			}
			seen := map[string]bool{}
			for i, m := range res.Matches {
				if seen[m.Name] {
					t.Fatalf("%s: Search(%q): %s twice", name, q, m.Name)
				}
				seen[m.Name] = true
				if i > 0 && res.Form == FormRanked && m.Score > res.Matches[i-1].Score {
					t.Fatalf("%s: Search(%q): not sorted by score: %v", name, q, res.Matches)
				}
			}
			again, _ := s.Search(q, k)
			if string(again.JSON()) != string(res.JSON()) {
				t.Fatalf("%s: Search(%q) not deterministic", name, q)
			}
		}
	})
}
