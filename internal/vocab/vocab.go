// Package vocab holds the keyword index's tables of name parts: the
// vocabulary of distinct parts, listed by the characters and pairs of
// characters they contain (for the rule "a name part contains the term"),
// and a Bloom filter of adjacent parts joined (for the rule "the term
// joins adjacent name parts").
package vocab

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// seed seeds the filter's hashes in this process.
var seed = maphash.MakeSeed()

// Vocabulary lists the distinct name parts, and for every part character
// and every pair of adjacent part characters the parts that contain it. It
// only grows: a part whose tools are all gone stays listed (the index counts them dead) until
// the next rebuild. Growing appends to the lists in place: the indexes that
// share them read only up to their own lengths, and only the newest index
// is ever extended.
type Vocabulary struct {
	// Parts are the parts by id; read them, never change them.
	Parts []string
	// Keys are the parts' keys by id; read them, never change them.
	Keys  []Key
	grams [gramCount][]int32
}

// Key is what a scan for the parts that contain a term reads of a part
// before it compares the two: the part's length (its low byte, up to
// keyLongPart) and a signature of the pairs of characters it holds (a bit
// per pair, pairs sharing bits), which rules out most of the candidates
// Candidates lists, in one test (May). It costs 8 bytes a part, whatever
// the part's length.
type Key uint64

// keyLongPart is the length a Key gives a part of this length or more.
const keyLongPart = 0xff

// pairBit returns the signature bit of pair g: one of the 56 bits above
// a Key's length.
func pairBit(g int) Key { return 1 << (8 + uint64(uint32(g)*0x9e3779b1)*56>>32) }

// Signature returns the signature of term, a string of part characters:
// the bits of its pairs.
func Signature(term string) Key {
	var s Key
	for i := 1; i < len(term); i++ {
		s |= pairBit(pairGram(term[i-1], term[i]))
	}
	return s
}

// May reports whether the part of key k may contain a term of signature
// s: false means that it does not.
func (k Key) May(s Key) bool { return k&s == s }

// PartLen returns the length of part id, whose key is k.
func (v *Vocabulary) PartLen(id int32, k Key) int {
	if n := int(k & keyLongPart); n < keyLongPart {
		return n
	}
	return len(v.Parts[id])
}

// Part characters are [a-z0-9.-]: 38 of them.
const (
	partAlphabet = 38
	gramCount    = partAlphabet*partAlphabet + partAlphabet // pairs, then single characters
)

func partCode(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a')
	case c >= '0' && c <= '9':
		return 26 + int(c-'0')
	case c == '.':
		return 36
	}
	return 37 // '-'
}

func pairGram(a, b byte) int { return partCode(a)*partAlphabet + partCode(b) }

func singleGram(c byte) int { return partAlphabet*partAlphabet + partCode(c) }

// Add lists part; v must not be shared with a published index.
func (v *Vocabulary) Add(part string) {
	id := int32(len(v.Parts))
	v.Parts = append(v.Parts, part)
	k := Key(min(len(part), keyLongPart))
	put := func(g int) {
		if l := v.grams[g]; len(l) == 0 || l[len(l)-1] != id {
			v.grams[g] = append(l, id)
		}
	}
	for i := 0; i < len(part); i++ {
		put(singleGram(part[i]))
		if i > 0 {
			g := pairGram(part[i-1], part[i])
			put(g)
			k |= pairBit(g)
		}
	}
	v.Keys = append(v.Keys, k)
}

// Extend returns a vocabulary with parts added.
func (v *Vocabulary) Extend(parts []string) *Vocabulary {
	nv := *v // copies the list headers; appends go past their lengths
	for _, p := range parts {
		nv.Add(p)
	}
	return &nv
}

// Candidates returns the ids of the parts that may contain term, a string
// of part characters: those listed under its rarest pair (or, for one
// character, under it).
func (v *Vocabulary) Candidates(term string) []int32 {
	if len(term) == 1 {
		return v.grams[singleGram(term[0])]
	}
	best := v.grams[pairGram(term[0], term[1])]
	for i := 2; i < len(term) && len(best) > 0; i++ {
		if l := v.grams[pairGram(term[i-1], term[i])]; len(l) < len(best) {
			best = l
		}
	}
	return best
}

// JoinFilter is a Bloom filter of the strings that two or more adjacent
// name parts of a tool make when joined (create_issue → createissue): the
// full-name rule can hold only for a term found there. It is shared by the
// versions of an index and only grows (a tool removed leaves its joins in
// it, which only costs a useless check), so writers set bits atomically
// while readers test them; the index is rebuilt, with a new filter, when
// it holds too many keys for its size.
type JoinFilter struct {
	words []atomic.Uint64
}

// joinBitsPerKey is the filter's size per key when built.
const joinBitsPerKey = 16

// NewJoinFilter returns an empty filter sized for keys keys.
func NewJoinFilter(keys int) *JoinFilter {
	n := 64
	for n*64 < keys*joinBitsPerKey {
		n <<= 1
	}
	return &JoinFilter{words: make([]atomic.Uint64, n)}
}

// Full reports whether keys keys fill the filter past its designed load.
func (f *JoinFilter) Full(keys int) bool { return keys*joinBitsPerKey > 2*64*len(f.words) }

// joinBits returns the word and the bits of a hash: three bits in one word.
func (f *JoinFilter) joinBits(h uint64) (*atomic.Uint64, uint64) {
	w := &f.words[h&uint64(len(f.words)-1)]
	return w, 1<<(h>>40&63) | 1<<(h>>46&63) | 1<<(h>>52&63)
}

// Equal reports whether f and g are the same size and hold the same bits.
func (f *JoinFilter) Equal(g *JoinFilter) bool {
	if len(f.words) != len(g.words) {
		return false
	}
	for i := range f.words {
		if f.words[i].Load() != g.words[i].Load() {
			return false
		}
	}
	return true
}

// MayHave reports whether flat may be a join: false means it is none.
func (f *JoinFilter) MayHave(flat string) bool {
	w, bits := f.joinBits(maphash.String(seed, flat))
	return w.Load()&bits == bits
}

// AddJoins adds the joins of parts and returns how many it added.
func (f *JoinFilter) AddJoins(parts []string) int {
	// Whether each part has a '-' or '.': such a part is never in a join
	// (never a prefix of a term without them).
	var own [16]bool
	dotted := own[:0]
	if len(parts) > len(own) {
		dotted = make([]bool, 0, len(parts))
	}
	for _, p := range parts {
		dotted = append(dotted, strings.IndexByte(p, '-') >= 0 || strings.IndexByte(p, '.') >= 0)
	}
	n := 0
	var h maphash.Hash
	for i := range parts {
		if dotted[i] {
			continue
		}
		h.SetSeed(seed)
		h.WriteString(parts[i])
		for j := i + 1; j < len(parts) && !dotted[j]; j++ {
			h.WriteString(parts[j])
			w, bits := f.joinBits(h.Sum64())
			w.Or(bits)
			n++
		}
	}
	return n
}
