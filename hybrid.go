package toolsearch

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hybrid strategy weights. A query word adds idf × sat(w), where w is the
// word's weighted frequency in the tool:
//
//	w = HybridName·[a name word has the word's stem]
//	  + HybridNamePart·[else a name part contains the word]
//	  + HybridHint·tf(hint) + tf(description)/lenNorm + HybridArgument·tf(arguments)/lenNorm
//
// sat(w) = w·(k1+1)/(w+k1) with k1 = HybridK1, lenNorm = 1 − b + b·len/avglen
// with b = HybridB (per field), and idf = ln(1 + (N − n + 0.5)/(n + 0.5))
// over the n tools the word matches. The sum over the query's words is
// multiplied by (matched words / query words)^HybridCoverage.
const (
	HybridName     = 3.0 // a name word has the query word's stem
	HybridNamePart = 1.5 // a name part contains the query word (3+ letters)
	HybridHint     = 1.5 // per occurrence in the search hint
	HybridArgument = 0.3 // per occurrence in argument names and descriptions
	HybridK1       = 1.2
	HybridB        = 0.75
	HybridCoverage = 1.0
	// HybridNameCover multiplies a tool's score by 1 + HybridNameCover × the
	// fraction of its name words the query has: of read_file and
	// read_multiple_files, "read file" prefers the first.
	HybridNameCover = 0.5
)

// hybridParams are the hybrid weights as one value (the constants above).
type hybridParams struct {
	name, namePart, hint, arg, k1, b, coverage, nameCover float64
}

var hybridDefaults = hybridParams{HybridName, HybridNamePart, HybridHint, HybridArgument, HybridK1, HybridB, HybridCoverage, HybridNameCover}

type hybridStrategy struct{ p hybridParams }

// HybridStrategy returns the hybrid strategy, made for queries written by
// models, keywords or whole sentences alike. It ranks by the Hybrid
// weights:
//
//   - a tool's name is split into words (at "_", "-", ".", "__" and
//     camelCase boundaries); a query word found there weighs most, a word
//     contained in a name part next (the spec's name-part precedence);
//   - the search hint, description and argument names and descriptions
//     (a weak field) are bags of words, saturated and length-normalised as
//     in BM25;
//   - rare words count more than common ones (IDF over the tools the
//     Searcher sees);
//   - English function words ("the", "for", "can", "please" …) are
//     ignored unless the query has nothing else;
//   - words are compared after a light normalisation of plurals and verb
//     forms (issues → issue, created/creating/creates → create);
//   - tools matching more of the query's words rank higher.
//
// Repeated query words count once. "+word" makes word required (its
// normalised form in some field, or contained in a name part). Ties keep
// pool order; tools matching no query word are left out.
func HybridStrategy() Strategy { return hybridStrategy{hybridDefaults} }

func (hybridStrategy) Name() string { return "hybrid" }

// stem returns the light normal form of a lowercased word: plural and verb
// endings removed and a final e dropped, so that create, creates, created
// and creating all become creat. Words of three bytes or fewer, and words
// with non-ASCII letters, are kept as they are.
func stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return w
		}
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	}
	for _, suf := range []string{"ing", "ed"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			w = w[:len(w)-len(suf)]
			if n := len(w); w[n-1] == w[n-2] && !strings.ContainsRune("aeiouslz", rune(w[n-1])) {
				w = w[:n-1] // running → run
			}
			break
		}
	}
	if strings.HasSuffix(w, "e") && len(w) > 3 {
		w = w[:len(w)-1]
	}
	return w
}

// stopWords are English function words and request phrasing that carry no
// meaning for finding a tool.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`a an the and or but if then else of to in on at by for from with without into onto
	about as is are was were be been being am do does did done have has had having it its this that these those there here
	i me my mine we us our you your yours he him his she her they them their what which who whom whose when where why how
	can could would should will shall may might must not no nor so too very just also only than such some any all each
	please thanks thank hey hi hello want wants need needs like would let lets know tell give show help me up out over
	via per using use`) {
		m[w] = true
	}
	return m
}()

// nameWords splits a tool name into lowercased words at '_', '-', '.',
// spaces, and camelCase boundaries (getURLFor → get, url, for).
func nameWords(dst []string, name string) []string {
	name = strings.TrimPrefix(name, "mcp__")
	rs := []rune(name)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			dst = append(dst, lower(string(rs[start:end])))
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

func stemCounts(words []string) (map[string]float64, float64) {
	m := make(map[string]float64, len(words))
	for _, w := range words {
		m[stem(w)]++
	}
	return m, float64(len(words))
}

func newHybridDoc(e *entry) *hybridDoc {
	d := &hybridDoc{name: map[string]bool{}}
	for _, w := range nameWords(nil, e.tool.Name) {
		d.name[stem(w)] = true
	}
	for _, p := range e.parts {
		d.parts = append(d.parts, lower(p))
	}
	d.hint, _ = stemCounts(wordsOf(nil, e.tool.SearchHint))
	d.desc, d.descLen = stemCounts(wordsOf(nil, e.tool.Description))
	names, descs := argumentTexts(e.tool.InputSchema)
	var words []string
	for _, n := range names {
		words = nameWords(words, n)
	}
	for _, s := range descs {
		words = wordsOf(words, s)
	}
	d.arg, d.args = stemCounts(words)
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
	docs    []*entry
	text    []*hybridDoc // per tool, in docs order
	data    map[*entry]*hybridDoc
	post    map[string][]hybridPost
	parts   []partDocs // distinct name parts, sorted, with their tools
	descLen []float64
	argLen  []float64
	avgDesc float64
	avgArg  float64
}

func (st hybridStrategy) index(tools []*entry, prev strategyIndex) strategyIndex {
	var old map[*entry]*hybridDoc
	if p, ok := prev.(*hybridIndex); ok {
		old = p.data
	}
	x := &hybridIndex{
		p:       st.p,
		docs:    tools,
		text:    make([]*hybridDoc, len(tools)),
		data:    make(map[*entry]*hybridDoc, len(tools)),
		post:    map[string][]hybridPost{},
		descLen: make([]float64, len(tools)),
		argLen:  make([]float64, len(tools)),
	}
	var sumDesc, sumArg float64
	parts := map[string][]int32{}
	for i, e := range tools {
		d := old[e]
		if d == nil {
			d = newHybridDoc(e)
		}
		x.data[e], x.text[i] = d, d
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
			if !containsPart(d.parts[:j], p) {
				parts[p] = append(parts[p], int32(i))
			}
		}
	}
	for p, docs := range parts {
		x.parts = append(x.parts, partDocs{p, docs})
	}
	slices.SortFunc(x.parts, func(a, b partDocs) int { return strings.Compare(a.part, b.part) })
	if n := float64(len(tools)); n > 0 {
		x.avgDesc, x.avgArg = max(sumDesc/n, 1), max(sumArg/n, 1)
	}
	return x
}

// partDocs is a distinct name part and the tools that have it.
type partDocs struct {
	part string
	docs []int32
}

// hybridTerm is one word of a hybrid query.
type hybridTerm struct {
	word, stem string
	required   bool
}

// hybridTerms parses a query: its words (required ones marked), stop words
// dropped unless nothing else is left, duplicates dropped.
func hybridTerms(query string) []hybridTerm {
	var all []hybridTerm
	for _, tok := range splitSpace(lower(query)) {
		req := len(tok) > 1 && tok[0] == '+'
		if req {
			tok = tok[1:]
		}
		for _, w := range wordsOf(nil, tok) {
			all = append(all, hybridTerm{w, stem(w), req})
		}
	}
	var out []hybridTerm
	seen := map[string]int{}
	for _, t := range all {
		if stopWords[t.word] && !t.required {
			continue
		}
		if i, ok := seen[t.stem]; ok {
			out[i].required = out[i].required || t.required
			continue
		}
		seen[t.stem] = len(out)
		out = append(out, t)
	}
	if len(out) == 0 {
		for _, t := range all {
			if _, ok := seen[t.stem]; !ok {
				seen[t.stem] = len(out)
				out = append(out, t)
			}
		}
	}
	return out
}

func (x *hybridIndex) rank(query string, k int) ([]scored, error) {
	terms := hybridTerms(query)
	n := len(x.docs)
	if len(terms) == 0 || n == 0 {
		return nil, nil
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
	for ti, t := range terms {
		touched = touched[:0]
		for _, ps := range x.post[t.stem] {
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
		if len(t.word) >= 3 {
			for _, pd := range x.parts {
				if pd.part == t.word || !strings.Contains(pd.part, t.word) {
					continue
				}
				for _, d := range pd.docs {
					if subTerm[d] == int32(ti+1) || x.text[d].name[t.stem] {
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
		if t.required {
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
			if t.required {
				needed[d]++
			}
			w[d] = 0
		}
	}
	var hits []floatHit
	total := float64(len(terms))
	for i, s := range scores {
		if s <= 0 || needed[i] < required {
			continue
		}
		if p.coverage != 0 {
			s *= math.Pow(float64(matched[i])/total, p.coverage)
		}
		if words := len(x.text[i].name); words > 0 {
			s *= 1 + p.nameCover*float64(nameHits[i])/float64(words)
		}
		hits = append(hits, floatHit{int32(i), s, rules[i]})
	}
	return topHits(hits, k, x.docs), nil
}
