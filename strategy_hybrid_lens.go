package toolsearch

// The weight of a posting in the hybrid strategy: the length
// normalisations of an index version and the tables that give most
// postings their weight without a division.

// hybridLensCached is how many lengths (0 to hybridLensCached-1 words)
// hybridLens holds the normalisations of; longer texts compute theirs.
const hybridLensCached = 1024

// The counts and lengths hybridLens holds the weights of: a posting whose
// hint, first-sentence, description and argument counts are below
// hybridFastCounts and whose lengths are below hybridFastLens (most of
// them) takes its weight from the tables, without a division.
const (
	hybridFastCounts = 4
	hybridFastLens   = 256
)

// hybridLens holds the length normalisations of one index version, by
// length in words: 1 − b + b × length/average, for the description and the
// arguments. They depend on the average lengths, which change with every
// tool, and on nothing else of a tool, so a table by length (16 KB, made
// with each version) replaces a per-tool array read at random by every
// posting. descW and argW hold the normalised terms of the weight for
// small counts, count/norm and hybridArgument × count/norm, computed by
// the same expressions as for any other count (16 KB); hintLead the sum
// of the hint and first-sentence terms, by count, and nameW what a name
// word adds (0 without one), so that a posting's weight is four table
// reads and no branch (hybridLens.weight). The tables are flat, indexed
// by count × lengths (or counts) + length (fastIndex), so that a read is
// one address computation.
type hybridLens struct {
	desc, arg       [hybridLensCached]float64
	descW, argW     [hybridFastCounts * hybridFastLens]float64
	hintLead        [hybridFastCounts * hybridFastCounts]float64
	nameW           [postName + 1]float64
	b, avgDesc, avg float64
}

// makeLens returns the length normalisations of x's version.
func (x *hybridIndex) makeLens() *hybridLens {
	l := &hybridLens{b: x.p.b, avgDesc: 1, avg: 1}
	if x.n > 0 {
		l.avgDesc, l.avg = max(x.sumDesc/float64(x.n), 1), max(x.sumArg/float64(x.n), 1)
	}
	for i := range hybridLensCached {
		l.desc[i], l.arg[i] = l.descNorm(float64(i)), l.argNorm(float64(i))
	}
	for c := range hybridFastCounts {
		for i := range hybridFastLens {
			j := c*hybridFastLens + i
			l.descW[j], l.argW[j] = x.p.descTerm(float64(c), l.desc[i]), x.p.argTerm(float64(c), l.arg[i])
		}
	}
	for h := range hybridFastCounts {
		for ld := range hybridFastCounts {
			l.hintLead[h*hybridFastCounts+ld] = x.p.hint*float64(h) + x.p.lead*float64(ld)
		}
	}
	l.nameW[postName] = x.p.name
	return l
}

func (l *hybridLens) descNorm(n float64) float64 { return 1 - l.b + l.b*n/l.avgDesc }
func (l *hybridLens) argNorm(n float64) float64  { return 1 - l.b + l.b*n/l.avg }

// norms returns the normalisations of the tool of posting ps.
func (x *hybridIndex) norms(l *hybridLens, ps *hybridPost) (desc, arg float64) {
	if ps.flags&postLong != 0 {
		in := x.info.At(ps.slot)
		return l.descNorm(float64(in.descLen)), l.argNorm(float64(in.args))
	}
	if ps.dlen < hybridLensCached {
		desc = l.desc[ps.dlen]
	} else {
		desc = l.descNorm(float64(ps.dlen))
	}
	if ps.alen < hybridLensCached {
		arg = l.arg[ps.alen]
	} else {
		arg = l.argNorm(float64(ps.alen))
	}
	return desc, arg
}

// fastWeight reports whether the weight of posting ps is in the tables of
// hybridLens (hybridLens.weight, inlined), else postWeight computes it: its
// counts and lengths are small (newHybridPost tells, once).
func fastWeight(ps *hybridPost) bool { return ps.flags&postFast != 0 }

// weight is the weight of posting ps, whose fastWeight holds: sum's
// terms, in its order, from the tables. Without a name word sum adds
// nothing where this adds 0, which differs only for a weight of −0
// (which then reads +0): the score it adds is a zero either way, and
// neither makes a tool a hit.
func (l *hybridLens) weight(ps *hybridPost) float32 { return float32(l.sum(ps)) }

// sum is weight before its rounding to a float32.
func (l *hybridLens) sum(ps *hybridPost) float64 {
	return (l.hintLead[uint(ps.hint)%hybridFastCounts*hybridFastCounts|uint(ps.lead)%hybridFastCounts] +
		l.descW[uint(ps.desc)%hybridFastCounts*hybridFastLens|uint(ps.dlen)%hybridFastLens] +
		l.argW[uint(ps.arg)%hybridFastCounts*hybridFastLens|uint(ps.alen)%hybridFastLens] +
		l.nameW[ps.flags&postName])
}

// postWeight is the weight of a stem's occurrences in the tool of posting
// ps.
func (x *hybridIndex) postWeight(q *hybridQuery, ps *hybridPost, stem string) float32 {
	if fastWeight(ps) {
		return q.lens.weight(ps)
	}
	nd, na := x.norms(q.lens, ps)
	if ps.flags&postBig == 0 {
		return x.p.weight(float64(ps.hint), float64(ps.lead), float64(ps.desc), float64(ps.arg), nd, na, ps.flags&postName != 0)
	}
	for _, b := range x.big.Get(stem) {
		if b.slot == ps.slot {
			return x.p.weight(float64(b.hint), float64(b.lead), float64(b.desc), float64(b.arg), nd, na, ps.flags&postName != 0)
		}
	}
	// Not reached (a postBig posting has its counts in x.big): the
	// posting's own counts, saturated.
	return x.p.weight(float64(ps.hint), float64(ps.lead), float64(ps.desc), float64(ps.arg), nd, na, ps.flags&postName != 0)
}

// weight is the weight of a stem's occurrences in one tool, given its
// length normalisations: what the hybrid weights say, rounded to a float32
// as it always was.
func (p *hybridParams) weight(hint, lead, desc, arg, descNorm, argNorm float64, name bool) float32 {
	return p.sum(hint, lead, p.descTerm(desc, descNorm), p.argTerm(arg, argNorm), name)
}

// descTerm and argTerm are the length-normalised terms of the weight.
func (p *hybridParams) descTerm(desc, descNorm float64) float64 { return desc / descNorm }
func (p *hybridParams) argTerm(arg, argNorm float64) float64    { return p.arg * arg / argNorm }

// sum is the weight given its length-normalised terms, rounded to a
// float32.
func (p *hybridParams) sum(hint, lead, descTerm, argTerm float64, name bool) float32 {
	w := p.hint*hint + p.lead*lead + descTerm + argTerm
	if name {
		w += p.name
	}
	return float32(w)
}
