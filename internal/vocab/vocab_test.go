package vocab

import (
	"hash/maphash"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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

// TestCandidatesFindEveryContainingPart: on vocabularies grown by many
// Extend calls (each earlier version kept, as an older index keeps its
// own), with parts up to 1,000 characters, every part that contains a term
// is among the term's Candidates, and its Key keeps it (May) with its
// length (PartLen); the candidates of each version are the same as those
// of one vocabulary built with the same parts at once, and each version
// lists only its own parts.
func TestCandidatesFindEveryContainingPart(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const chars = "abcd.-z9"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = chars[rng.IntN(len(chars))]
		}
		return string(b)
	}
	partLen := func() int {
		switch rng.IntN(20) {
		case 0:
			return 200 + rng.IntN(800) // past a Key's length
		case 1:
			return 255
		}
		return 1 + rng.IntN(12)
	}
	v := &Vocabulary{}
	var versions []*Vocabulary
	for range 60 {
		parts := make([]string, rng.IntN(6))
		for i := range parts {
			parts[i] = word(partLen())
		}
		v = v.Extend(parts)
		versions = append(versions, v)
	}
	for vi, v := range versions {
		whole := &Vocabulary{}
		for _, p := range v.Parts {
			whole.Add(p)
		}
		require.Len(t, v.Keys, len(v.Parts), "version %d: a key per part", vi)
		for id, p := range v.Parts {
			require.Equal(t, len(p), v.PartLen(int32(id), v.Keys[id]), "version %d: the length of part %d", vi, id)
		}
		for range 200 {
			var term string
			if p := v.Parts[rng.IntN(len(v.Parts))]; rng.IntN(3) > 0 {
				i := rng.IntN(len(p))
				term = p[i : i+1+rng.IntN(min(len(p)-i, 6))]
			} else {
				term = word(1 + rng.IntN(5))
			}
			cands := v.Candidates(term)
			require.Equal(t, whole.Candidates(term), cands, "version %d: the candidates of %q", vi, term)
			sig := Signature(term)
			listed := map[int32]bool{}
			for _, id := range cands {
				require.Less(t, int(id), len(v.Parts), "version %d: %q lists a later part", vi, term)
				listed[id] = true
			}
			for id, p := range v.Parts {
				if strings.Contains(p, term) {
					require.True(t, listed[int32(id)], "version %d: part %d (%q) contains %q", vi, id, p, term)
					require.True(t, v.Keys[id].May(sig), "version %d: the key of part %d (%q) keeps %q", vi, id, p, term)
				}
			}
		}
	}
}

// TestKeysRuleOutParts: a Key rules out a part that lacks a pair of the
// term, unless the two pairs share a bit, and one bit per pair is set.
func TestKeysRuleOutParts(t *testing.T) {
	v := &Vocabulary{}
	v.Add("createissue")
	v.Add(strings.Repeat("ab", 500)) // a hostile part: one key, its pairs ab and ba
	k := v.Keys[0]
	assert.True(t, k.May(Signature("issue")))
	assert.True(t, k.May(Signature("eat")))
	assert.False(t, k.May(Signature("list")), "no l-i, i-s, s-t: kept only if all three share bits with its pairs")
	assert.Equal(t, 1000, v.PartLen(1, v.Keys[1]))
	assert.Equal(t, Signature("aba"), v.Keys[1]&^keyLongPart, "a key holds the bits of its pairs and nothing else")
	bits := map[Key]bool{}
	for a := range partAlphabet {
		for b := range partAlphabet {
			g := pairBit(a*partAlphabet + b)
			require.Equal(t, 1, popcount(g), "one bit per pair")
			require.Zero(t, g&keyLongPart, "above the length")
			bits[g] = true
		}
	}
	assert.Len(t, bits, 56, "the pairs spread over every bit")
}

func popcount(k Key) int {
	n := 0
	for ; k != 0; k &= k - 1 {
		n++
	}
	return n
}
