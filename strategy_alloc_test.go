package toolsearch

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// hostileTerms are queries whose terms a model controls, at the query
// limit: one long term of a letter that lowercases to more bytes (the
// hybrid typo rule used to build every one-letter deletion of it), one long
// term of plain letters, and 128 long distinct terms.
func hostileTerms() map[string]string {
	var many []string
	for i := range 128 {
		many = append(many, fmt.Sprintf("%060d", i))
	}
	return map[string]string{
		"one 8 KB term of İ":       strings.Repeat("İ", 4000),
		"one 8 KB term of letters": strings.Repeat("ab", 4000),
		"128 terms of 60 bytes":    strings.Join(many, " "),
	}
}

// allocatedBy returns the bytes allocated while f runs.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileTermsAllocateLinearly: in every strategy, what a query
// allocates is at most linear in its bytes, whatever its terms, and does not
// grow with the catalog (a 2-tool and a 2,000-tool catalog are held to the
// same bound). One 8 KB term of İ made the hybrid strategy allocate 148 MB
// with 2 tools.
func TestHostileTermsAllocateLinearly(t *testing.T) {
	for _, n := range []int{2, 2000} {
		tools := make([]Tool, n)
		for i := range tools {
			tools[i] = Tool{Name: fmt.Sprintf("mcp__srv__read_file_%d", i), Description: "read a file", Server: "srv"}
		}
		reg, err := NewRegistry(nil, tools...)
		require.NoError(t, err)
		for _, st := range allStrategies() {
			s := NewSearcher(reg, &SearchOptions{Strategy: st})
			_, err := s.Search("read file", 5) // builds the index
			require.NoError(t, err)
			for name, q := range hostileTerms() {
				var err error
				got := allocatedBy(func() { _, err = s.Search(q, 5) })
				if st.Name() == "regex" {
					require.ErrorIs(t, err, ErrInvalidQuery, "regex refuses a pattern over 200 characters")
				} else {
					require.NoError(t, err, "%s: %s", st.Name(), name)
				}
				// 64 bytes per query byte, plus 1 MiB for the scratch a
				// search sizes by the catalog (pooled, made once).
				limit := uint64(64*len(q) + 1<<20)
				require.LessOrEqual(t, got, limit, "%s, %d tools: %s (%d bytes) allocated %d bytes", st.Name(), n, name, len(q), got)
			}
		}
	}
}
