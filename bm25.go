package toolsearch

import (
	"context"
	"math"

	"github.com/toolsearch/toolsearch/internal/words"
)

// BM25 defaults (Okapi BM25 as most search engines ship it).
const (
	defaultBM25K1 = 1.5  // term-frequency saturation
	defaultBM25B  = 0.75 // document-length normalisation
)

// BM25Options configure BM25Strategy. A nil *BM25Options means the
// defaults; a zero field means its default.
type BM25Options struct {
	// K1 is the term-frequency saturation; default 1.5.
	K1 float64
	// B is the length normalisation, between 0 and 1; default 0.75. (A
	// zero B cannot be asked for; use a tiny value such as 1e-9.)
	B float64
}

type bm25Strategy struct{ k1, b float64 }

// BM25Strategy returns Okapi BM25 ranking: each tool is one document made
// of the words of its name parts, search hint and description; a query's
// words each add idf × tf × (k1+1) / (tf + k1 × (1 − b + b × len/avglen)),
// with idf = ln(1 + (N − n + 0.5)/(n + 0.5)) over the N deferred tools, n
// of which have the word. Words are maximal runs of Unicode letters and digits,
// lowercased; nothing is stemmed and no word is ignored. A "+word" query
// token makes its words required. Tools that match no query word are left
// out; ties keep pool order. Its term budget (StrategyInput.MaxTerms) is
// 128.
func BM25Strategy(opts *BM25Options) Strategy {
	st := bm25Strategy{defaultBM25K1, defaultBM25B}
	if opts != nil {
		if opts.K1 > 0 {
			st.k1 = opts.K1
		}
		if opts.B > 0 {
			st.b = min(opts.B, 1)
		}
	}
	return st
}

func (bm25Strategy) Name() string         { return "bm25" }
func (bm25Strategy) Input() StrategyInput { return StrategyInput{MaxTerms: bm25MaxTerms} }

// bm25MaxTerms is the bm25 term budget: a term costs one postings lookup.
const bm25MaxTerms = 128

// posting is one document's entry in a term's postings list.
type posting struct {
	doc   int32
	tf    float32
	rules Rule // the fields the term is in
}

// bm25Doc is the per-tool data of the bm25 index, reused across snapshots
// while the tool is unchanged.
type bm25Doc struct {
	terms map[string]posting // doc left 0
	len   float64
}

type bm25Index struct {
	st    bm25Strategy
	n     int
	docs  toolDocs[*bm25Doc]
	post  map[string][]posting
	dl    []float64
	avgdl float64
}

func newBM25Doc(t *Tool) *bm25Doc {
	d := &bm25Doc{terms: map[string]posting{}}
	add := func(ws []string, r Rule) {
		for _, w := range ws {
			p := d.terms[w]
			p.tf++
			p.rules |= r
			d.terms[w] = p
			d.len++
		}
	}
	var buf []string
	parts, _ := nameParts(t.Name)
	for _, p := range parts {
		buf = words.Words(buf, p)
	}
	add(buf, RulePartExact)
	add(words.Words(nil, t.SearchHint), RuleHint)
	add(words.Words(nil, t.Description), RuleDescription)
	return d
}

// Index builds the postings of every word of c's tools.
func (st bm25Strategy) Index(c Corpus, prev Index) Index {
	var old toolDocs[*bm25Doc]
	if p, ok := prev.(*bm25Index); ok {
		old = p.docs
	}
	n := c.Len()
	x := &bm25Index{
		st:   st,
		n:    n,
		docs: make(toolDocs[*bm25Doc], n),
		post: map[string][]posting{},
		dl:   make([]float64, n),
	}
	total := 0.0
	for i := range n {
		t := c.Tool(i)
		d := old.get(&t, x.docs, newBM25Doc)
		x.dl[i] = d.len
		total += d.len
		for w, p := range d.terms {
			p.doc = int32(i)
			x.post[w] = append(x.post[w], p)
		}
	}
	if n > 0 {
		x.avgdl = total / float64(n)
	}
	return x
}

// idf is the BM25 inverse document frequency of a term found in n of N
// documents.
func idf(n, N int) float64 {
	return math.Log(1 + (float64(N)-float64(n)+0.5)/(float64(n)+0.5))
}

// queryWords splits a query into its words and the words that are
// required ("+word" tokens).
func queryWords(q string) (all, required []string) {
	var optional []string
	for _, tok := range words.Fields(q) {
		if len(tok) > 1 && tok[0] == '+' {
			required = words.Words(required, tok[1:])
		} else {
			optional = words.Words(optional, tok)
		}
	}
	return append(append([]string(nil), required...), optional...), required
}

// Rank appends every tool with a query word and every required word.
func (x *bm25Index) Rank(_ context.Context, query string, hits []Hit) ([]Hit, []string, error) {
	all, required := queryWords(query)
	if len(all) == 0 || x.n == 0 {
		return hits, nil, nil
	}
	scores := make([]float64, x.n)
	rules := make([]Rule, x.n)
	need := make([]int, x.n) // required words found
	seen := map[string]bool{}
	for _, w := range required {
		if seen[w] {
			continue
		}
		seen[w] = true
		for _, p := range x.post[w] {
			need[p.doc]++
		}
	}
	k1, b := x.st.k1, x.st.b
	for _, w := range all {
		ps := x.post[w]
		if len(ps) == 0 {
			continue
		}
		weight := idf(len(ps), x.n)
		for _, p := range ps {
			tf := float64(p.tf)
			norm := k1 * (1 - b + b*x.dl[p.doc]/x.avgdl)
			scores[p.doc] += weight * tf * (k1 + 1) / (tf + norm)
			rules[p.doc] |= p.rules
		}
	}
	for i, s := range scores {
		if s > 0 && need[i] == len(seen) {
			hits = append(hits, Hit{Tool: i, Score: s, Rules: rules[i]})
		}
	}
	return hits, nil, nil
}
