package toolsearch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/words"
)

func TestFitTerms(t *testing.T) {
	df := func(w string) int {
		return map[string]int{"file": 50, "read": 40, "github": 3, "issue": 9, "slack": 2}[w]
	}
	for _, tc := range []struct {
		name, query string
		limit       int
		want        string
		left        string // the terms named in the note; "-" for no note
	}{
		{"fits", "read the file", 3, "read the file", "-"},
		{"stop words go first", "please read the file from github", 3, "read file github", `"please", "the", "from"`},
		{"then the most common words", "read file github issue", 2, "github issue", `"read", "file"`},
		{"a word no tool has is the rarest", "read file zzyzx", 1, "zzyzx", `"read", "file"`},
		{"required terms are kept first", "+file read github", 1, "+file", `"read", "github"`},
		{"a token without letters is a stop word", "read + — file", 2, "read file", `"+", "—"`},
		{"a token is as rare as its rarest word", "read file/github issue", 2, "file/github issue", `"read"`},
		{"ties keep the earlier term", "alpha beta gamma", 2, "alpha beta", `"gamma"`},
		{"repeats count once", "Read read READ file", 2, "Read file", ""},
		{"a required copy makes the term required", "read file slack +READ", 1, "+READ", `"file", "slack"`},
		{"query order is kept", "slack the github file", 3, "slack github file", `"the"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, note := fitTerms(tc.query, tc.limit, df)
			assert.Equal(t, tc.want, got, "fitTerms(%q, %d)", tc.query, tc.limit)
			assert.LessOrEqual(t, len(words.Fields(got)), tc.limit)
			if tc.left == "-" {
				assert.Empty(t, note)
				return
			}
			require.Contains(t, note, fmt.Sprintf("the query has %d terms and this search reads at most %d", len(words.Fields(tc.query)), tc.limit))
			if tc.left == "" {
				assert.NotContains(t, note, "left out")
			} else {
				assert.Contains(t, note, "left out (stop words and the most common words first): "+tc.left+".")
			}
		})
	}
}

// A query over the term budget is answered as its kept terms would be,
// with every strategy that reads words, and a note says so; the budget is
// the strategy's unless SearchOptions sets one.
func TestTermBudget(t *testing.T) {
	reg := strategyRegistry(t)
	long := strings.Repeat("please could you help me ", 8) + "send a message to the slack channel"
	for _, tc := range []struct {
		st    Strategy
		limit int
	}{
		{DefaultStrategy(), 32},
		{BM25Strategy(nil), 128},
		{HybridStrategy(), 128},
	} {
		t.Run(tc.st.Name(), func(t *testing.T) {
			s := NewSearcher(reg, &SearchOptions{Strategy: tc.st})
			assert.Equal(t, tc.limit, s.opts.MaxQueryTerms, "the strategy's budget")
			small := NewSearcher(reg, &SearchOptions{Strategy: tc.st, MaxQueryTerms: 4})
			assert.Equal(t, 4, small.opts.MaxQueryTerms, "an option overrides the strategy's budget")
			res, err := small.Search(long, 5)
			require.NoError(t, err, "a long query is answered")
			kept, note := fitTerms(long, 4, reg.load().ix.docFreq)
			assert.Equal(t, "send message slack channel", kept)
			want, err := small.Search(kept, 5)
			require.NoError(t, err)
			assert.Equal(t, matchNames(want), matchNames(res), "ranked with the kept terms")
			assert.NotEmpty(t, res.Matches)
			assert.Equal(t, []string{note}, res.Notes)

			huge := strings.TrimSpace(strings.Repeat("slack ", 1300))
			res, err = s.Search(huge, 5)
			require.NoError(t, err)
			assert.Equal(t, []string{"the query has 1300 terms and this search reads at most " + fmt.Sprint(tc.limit) + ": repeated terms were counted once."}, res.Notes)
		})
	}
}

// FuzzFitTerms checks the budget's properties on any query: a query within
// the budget is kept as it is; a longer one keeps at most limit terms, each
// a term of the query, none twice (ignoring case and "+"), with a note; the
// same query gives the same answer.
func FuzzFitTerms(f *testing.F) {
	f.Add("please read the file from github and the file", 3)
	f.Add("+a +b +c d e", 2)
	f.Add("x X +x y", 1)
	f.Fuzz(func(t *testing.T, q string, limit int) {
		limit = 1 + abs(limit)%40
		df := func(w string) int { return len(w) }
		kept, note := fitTerms(q, limit, df)
		toks := words.Fields(q)
		got := words.Fields(kept)
		if len(toks) <= limit {
			require.Equal(t, q, kept, "a query within the budget is kept as it is")
			require.Empty(t, note)
			return
		}
		require.LessOrEqual(t, len(got), limit)
		require.NotEmpty(t, note)
		keys := map[string]bool{}
		for _, k := range got {
			require.Contains(t, toks, k, "kept %q is a term of the query", k)
			key := words.Lower(strings.TrimPrefix(k, "+"))
			if len(k) == 1 {
				key = k
			}
			require.False(t, keys[key], "%q kept twice", key)
			keys[key] = true
		}
		again, againNote := fitTerms(q, limit, df)
		require.Equal(t, kept, again)
		require.Equal(t, note, againNote)
	})
}
