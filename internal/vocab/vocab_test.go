package vocab

import (
	"hash/maphash"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAddJoinsEqualsEveryJoin checks AddJoins against setting the bits of
// every join of adjacent parts without '-' or '.', each hashed whole, on
// random part lists (longer than 16 parts too).
func TestAddJoinsEqualsEveryJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	alphabet := []string{"get", "a", "x-y", "v1.2", "issue", "-", ".", "list", "s3"}
	for round := range 2000 {
		parts := make([]string, rng.IntN(20))
		for i := range parts {
			parts[i] = alphabet[rng.IntN(len(alphabet))]
		}
		got, want := NewJoinFilter(64), NewJoinFilter(64)
		n := got.AddJoins(parts)
		keys := 0
		for i := range parts {
			flat := parts[i]
			for j := i + 1; j < len(parts); j++ {
				flat += parts[j]
				if strings.ContainsAny(flat, "-.") {
					break
				}
				w, bits := want.joinBits(maphash.String(seed, flat))
				w.Or(bits)
				keys++
			}
		}
		require.Equal(t, keys, n, "round %d: the joins of %q", round, parts)
		require.True(t, got.Equal(want), "round %d: the bits of the joins of %q", round, parts)
	}
	require.False(t, NewJoinFilter(64).Equal(NewJoinFilter(1000)), "filters of two sizes differ")
}
