package toolsearch

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/toolsearch/toolsearch/internal/words"
)

// The hybrid weights. A query word adds idf × sat(w), where w is the word's
// weighted frequency in the tool:
//
//	w = hybridName·[a name word has the word's stem]
//	  + hybridNamePart·[else a name part contains the word]
//	  + hybridHint·tf(hint) + tf(description)/lenNorm + hybridArgument·tf(arguments)/lenNorm
//
// sat(w) = w·(k1+1)/(w+k1) with k1 = hybridK1, lenNorm = 1 − b + b·len/avglen
// with b = hybridB (per field), and idf = ln(1 + (N − n + 0.5)/(n + 0.5))
// over the n tools the word matches. The sum over the query's words is
// multiplied by (matched words / query words)^hybridCoverage, then by 1 +
// hybridNameCover × the fraction of the tool's name words the query has.
const (
	hybridName      = 3.0  // a name word has the query word's stem
	hybridNamePart  = 1.5  // a name part contains the query word (3+ letters)
	hybridHint      = 1.5  // per occurrence in the search hint
	hybridArgument  = 0.3  // per occurrence in argument names and descriptions
	hybridK1        = 1.2  // saturation
	hybridB         = 0.75 // length normalisation
	hybridCoverage  = 1.0  // preference for tools matching more query words
	hybridNameCover = 0.5  // of read_file and read_multiple_files, "read file" prefers the first
)

// hybridParams are the hybrid weights as one value (the constants above).
type hybridParams struct {
	name, namePart, hint, arg, k1, b, coverage, nameCover float64
}

var hybridDefaults = hybridParams{hybridName, hybridNamePart, hybridHint, hybridArgument, hybridK1, hybridB, hybridCoverage, hybridNameCover}

type hybridStrategy struct{ p hybridParams }

// HybridStrategy returns the hybrid strategy, made for queries written by
// models, keywords or whole sentences alike:
//
//   - a tool's name is split into words (at "_", "-", ".", "__" and
//     camelCase boundaries); a query word found there weighs most, a word
//     contained in a name part next (the default strategy's precedence of
//     name parts);
//   - the search hint, description and argument names and descriptions
//     (a weak field) are bags of words, saturated and length-normalised as
//     in BM25;
//   - rare words count more than common ones (IDF over the deferred
//     tools);
//   - English function words ("the", "for", "can", "please" …) are
//     ignored unless the query has nothing else;
//   - words are compared after a light normalisation of plurals and verb
//     forms (issues → issue, created/creating/creates → create);
//   - tools matching more of the query's words, and more of their own
//     name's words, rank higher.
//
// In numbers: each query word adds idf × w·(k1+1)/(w+k1), with k1 = 1.2,
// idf = ln(1 + (N − n + 0.5)/(n + 0.5)) over the N deferred tools, n of
// which match the word, and w the word's weight in the tool: 3 when a name
// word has its normal form, else 1.5 when a name part contains it (words of
// 3 or more letters); plus 1.5 per occurrence in the hint, 1 per occurrence
// in the description and 0.3 per occurrence in the arguments, these two
// divided by 1 − b + b × length/average length with b = 0.75. The sum is
// multiplied by the fraction of the query's words the tool matches, then
// by 1 + 0.5 × the fraction of the tool's name words the query has. The
// weights are fixed: chosen by design, not fitted per query, and checked
// on held-out queries of public benchmarks.
//
// Repeated query words count once. "+word" makes word required (its
// normalised form in some field, or contained in a name part). Ties keep
// pool order; tools matching no query word are left out.
func HybridStrategy() Strategy { return hybridStrategy{hybridDefaults} }

func (hybridStrategy) Name() string         { return "hybrid" }
func (hybridStrategy) Input() StrategyInput { return StrategyInput{} }

// nameWords splits a tool name into lowercased words at '_', '-', '.',
// spaces, and camelCase boundaries (getURLFor → get, url, for).
func nameWords(dst []string, name string) []string {
	name = strings.TrimPrefix(name, "mcp__")
	rs := []rune(name)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			dst = append(dst, words.Lower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			flush(i)
			continue
		}
		if start >= 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(rs))
	return dst
}

// hybridDoc is the per-tool data of the hybrid index.
type hybridDoc struct {
	name          map[string]bool // stems of the name words
	hint, desc    map[string]float64
	arg           map[string]float64
	descLen, args float64
	parts         []string // lowercased name parts, for the substring rule
}

func stemCounts(ws []string) (map[string]float64, float64) {
	m := make(map[string]float64, len(ws))
	for _, w := range ws {
		m[words.Stem(w)]++
	}
	return m, float64(len(ws))
}

func newHybridDoc(t *Tool) *hybridDoc {
	d := &hybridDoc{name: map[string]bool{}}
	for _, w := range nameWords(nil, t.Name) {
		d.name[words.Stem(w)] = true
	}
	d.parts, _ = nameParts(t.Name)
	d.hint, _ = stemCounts(words.Words(nil, t.SearchHint))
	d.desc, d.descLen = stemCounts(words.Words(nil, t.Description))
	names, descs := argumentTexts(t.InputSchema)
	var ws []string
	for _, n := range names {
		ws = nameWords(ws, n)
	}
	for _, s := range descs {
		ws = words.Words(ws, s)
	}
	d.arg, d.args = stemCounts(ws)
	return d
}

// hybridPost is one tool's entry in a stem's postings list.
type hybridPost struct {
	doc             int32
	name            bool
	hint, desc, arg float32
}

type hybridIndex struct {
	p       hybridParams
	docs    toolDocs[*hybridDoc]
	text    []*hybridDoc // per tool, in Corpus order
	post    map[string][]hybridPost
	parts   []partDocs // distinct name parts, sorted, with their tools
	descLen []float64
	argLen  []float64
	avgDesc float64
	avgArg  float64
}

// Index builds the postings of every word stem of c's tools.
func (st hybridStrategy) Index(c Corpus, prev Index) Index {
	var old toolDocs[*hybridDoc]
	if p, ok := prev.(*hybridIndex); ok {
		old = p.docs
	}
	n := c.Len()
	x := &hybridIndex{
		p:       st.p,
		docs:    make(toolDocs[*hybridDoc], n),
		text:    make([]*hybridDoc, n),
		post:    map[string][]hybridPost{},
		descLen: make([]float64, n),
		argLen:  make([]float64, n),
	}
	var sumDesc, sumArg float64
	parts := map[string][]int32{}
	for i := range n {
		t := c.Tool(i)
		d := old.get(&t, x.docs, newHybridDoc)
		x.text[i] = d
		x.descLen[i], x.argLen[i] = d.descLen, d.args
		sumDesc += d.descLen
		sumArg += d.args
		posts := map[string]*hybridPost{}
		get := func(s string) *hybridPost {
			p := posts[s]
			if p == nil {
				p = &hybridPost{doc: int32(i)}
				posts[s] = p
			}
			return p
		}
		for s := range d.name {
			get(s).name = true
		}
		for s, n := range d.hint {
			get(s).hint = float32(n)
		}
		for s, n := range d.desc {
			get(s).desc = float32(n)
		}
		for s, n := range d.arg {
			get(s).arg = float32(n)
		}
		for s, p := range posts {
			x.post[s] = append(x.post[s], *p)
		}
		for j, p := range d.parts {
			if !slices.Contains(d.parts[:j], p) {
				parts[p] = append(parts[p], int32(i))
			}
		}
	}
	for p, docs := range parts {
		x.parts = append(x.parts, partDocs{p, docs})
	}
	slices.SortFunc(x.parts, func(a, b partDocs) int { return strings.Compare(a.part, b.part) })
	if n > 0 {
		x.avgDesc, x.avgArg = max(sumDesc/float64(n), 1), max(sumArg/float64(n), 1)
	}
	return x
}

// partDocs is a distinct name part and the tools that have it.
type partDocs struct {
	part string
	docs []int32
}

// Rank appends every tool with a query word and every required word.
func (x *hybridIndex) Rank(ctx context.Context, query string, hits []Hit) ([]Hit, []string, error) {
	terms := words.Terms(query)
	n := len(x.text)
	if len(terms) == 0 || n == 0 {
		return hits, nil, nil
	}
	p := x.p
	scores := make([]float64, n)
	matched := make([]int32, n)
	needed := make([]int32, n)
	rules := make([]Rule, n)
	w := make([]float64, n)
	nameHits := make([]int32, n)
	subTerm := make([]int32, n) // 1 + the last term that got the name-part credit
	touched := make([]int32, 0, 64)
	required := int32(0)
	work := queryWorkOf(ctx) // pays for the name parts compared
	for ti, t := range terms {
		touched = touched[:0]
		for _, ps := range x.post[t.Stem] {
			if w[ps.doc] == 0 {
				touched = append(touched, ps.doc)
			}
			v := 0.0
			if ps.name {
				v += p.name
				nameHits[ps.doc]++
				rules[ps.doc] |= RulePartExact
			}
			if ps.hint > 0 {
				v += p.hint * float64(ps.hint)
				rules[ps.doc] |= RuleHint
			}
			if ps.desc > 0 {
				v += float64(ps.desc) / (1 - p.b + p.b*x.descLen[ps.doc]/x.avgDesc)
				rules[ps.doc] |= RuleDescription
			}
			if ps.arg > 0 {
				v += p.arg * float64(ps.arg) / (1 - p.b + p.b*x.argLen[ps.doc]/x.avgArg)
				rules[ps.doc] |= RuleArgument
			}
			w[ps.doc] += v
		}
		if len(t.Word) >= 3 && len(t.Word) < maxNameLength && !work.cut {
			for _, pd := range x.parts {
				if !work.spend(len(pd.part)) {
					break
				}
				if pd.part == t.Word || !strings.Contains(pd.part, t.Word) {
					continue
				}
				for _, d := range pd.docs {
					if subTerm[d] == int32(ti+1) || x.text[d].name[t.Stem] {
						continue // credited already, or a name-word match
					}
					subTerm[d] = int32(ti + 1)
					if w[d] == 0 {
						touched = append(touched, d)
					}
					w[d] += p.namePart
					rules[d] |= RulePartSubstring
				}
			}
		}
		if t.Required {
			required++
		}
		df := len(touched)
		if df == 0 {
			continue
		}
		weight := idf(df, n)
		for _, d := range touched {
			v := w[d]
			scores[d] += weight * v * (p.k1 + 1) / (v + p.k1)
			matched[d]++
			if t.Required {
				needed[d]++
			}
			w[d] = 0
		}
	}
	total := float64(len(terms))
	for i, s := range scores {
		if s <= 0 || needed[i] < required {
			continue
		}
		if p.coverage != 0 {
			s *= math.Pow(float64(matched[i])/total, p.coverage)
		}
		if nw := len(x.text[i].name); nw > 0 {
			s *= 1 + p.nameCover*float64(nameHits[i])/float64(nw)
		}
		hits = append(hits, Hit{Tool: i, Score: s, Rules: rules[i]})
	}
	return hits, nil, nil
}
