package toolsearch

// vocabulary lists the distinct name parts, and for every part character
// and every pair of adjacent part characters the parts that contain it. It
// only grows: a part whose tools are all gone stays listed (index.dead) until
// the next rebuild. Growing appends to the lists in place: the indexes that
// share them read only up to their own lengths, and only the newest index
// is ever extended.
type vocabulary struct {
	parts []string
	grams [gramCount][]int32
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

// add lists part; v must not be shared with a published index.
func (v *vocabulary) add(part string) {
	id := int32(len(v.parts))
	v.parts = append(v.parts, part)
	put := func(g int) {
		if l := v.grams[g]; len(l) == 0 || l[len(l)-1] != id {
			v.grams[g] = append(l, id)
		}
	}
	for i := 0; i < len(part); i++ {
		put(singleGram(part[i]))
		if i > 0 {
			put(pairGram(part[i-1], part[i]))
		}
	}
}

// extend returns a vocabulary with parts added.
func (v *vocabulary) extend(parts []string) *vocabulary {
	nv := *v // copies the list headers; appends go past their lengths
	for _, p := range parts {
		nv.add(p)
	}
	return &nv
}

// candidates returns the ids of the parts that may contain term, a string
// of part characters: those listed under its rarest pair (or, for one
// character, under it).
func (v *vocabulary) candidates(term string) []int32 {
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
