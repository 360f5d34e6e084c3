// Package queryshapes generates the per-shape query sets of
// testdata/quality: for each shape of query a model writes (keywords,
// +required keywords, select:, an exact name, snake_case, camelCase and
// kebab-case fragments of a name, a name with one typo, a sentence of 5–15
// words, a request of 40–80 words, several tools named at once), queries
// made from the tools of a catalog, each with the tools it was made from
// as its answer.
//
// Everything comes from the catalog and a seeded random source, so the sets
// are reproducible: `go test ./internal/queryshapes -update` writes them
// again from the demo catalog, and the test fails when the checked-in
// files differ from what the generator makes. Nothing is picked by hand,
// and no strategy is run while generating.
package queryshapes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/words"
)

// Query is one generated query and the tools that answer it: the tool it
// was made from, and any tool with the same description (without one, the
// same own name words).
type Query struct {
	ID       string   `json:"id"`
	Query    string   `json:"query"`
	Relevant []string `json:"relevant"`
}

// Set is the queries of one shape.
type Set struct {
	Shape   string
	About   string // what the shape is, for the file's "source"
	Queries []Query
}

// shape makes one query from a tool, or reports that the tool does not
// lend itself to the shape; a shape whose queries name several tools makes
// them with many instead, which also returns the tools named.
type shape struct {
	name, about string
	make        func(g *gen, t *tool) (string, bool)
	many        func(g *gen, t *tool) (string, []string, bool)
}

// Shapes are the shapes, in the order of the sets Generate returns.
var shapes = []shape{
	{"keywords", "2-3 words from the tool's name and description, rarer words likelier", (*gen).keywords, nil},
	{"required", "keywords with the first one required: +the server's most distinctive word (MCP tools) or +a name word", (*gen).required, nil},
	{"select", "select: with the name as is, in another case, or with '_', '-' and '.' swapped", (*gen).selectName, nil},
	{"exact", "the tool's name, as is or lowercased", (*gen).exact, nil},
	{"snake", "name words (the tool's own, maybe with its server) joined with _", (*gen).snake, nil},
	{"camel", "name words in camelCase, the server's name sometimes after the verb (sendSlackMessage)", (*gen).camel, nil},
	{"kebab", "name words joined with -", (*gen).kebab, nil},
	{"typo", "a snake_case name fragment with one letter deleted, doubled, replaced or swapped", (*gen).typo, nil},
	{"sentence", "a request of 5-15 words: the first 5-10 words of the description in a request template", (*gen).sentence, nil},
	{"long", "a request of 40-80 words: generic context sentences around a phrase of the description", (*gen).long, nil},
	{"names", "2-4 tools named in one query, half the time tools of one server, each by its whole name (maybe lowercased) or, when no other tool has it, its MCP tool part in snake_case, camelCase or kebab-case; relevant: every tool named", nil, (*gen).names},
}

// tool is a catalog tool as the generator sees it.
type tool struct {
	name    string
	mcpPart string   // the part after mcp__server__; "" for a tool that is not an MCP tool
	server  []string // the words of the server's name; nil for a tool that is not an MCP tool
	own     []string // the words of the tool's own name (without mcp__server__)
	content []string // the description's words of 3+ letters that are not stop words, in order
	phrase  []string // the description's first sentence, as words
}

// Generate makes perShape queries of each shape from tools, with the
// random source seeded with seed. A tool is the answer of at most one
// query per shape.
func Generate(tools []toolsearch.Tool, seed uint64, perShape int) []Set {
	var ts []*tool
	for i := range tools {
		ts = append(ts, newTool(&tools[i]))
	}
	// Tools with the same description (or, without one, the same own name
	// words) cannot be told apart by their text: each answers the other's
	// queries.
	same := map[string][]string{}
	key := func(t *tool, desc string) string {
		if d := strings.TrimSpace(desc); d != "" {
			return d
		}
		return "\x00" + strings.Join(t.own, " ")
	}
	for i, t := range ts {
		k := key(t, tools[i].Description)
		same[k] = append(same[k], t.name)
	}
	df := map[string]int{} // word → tools whose name or description has it
	for _, t := range ts {
		for _, w := range slices.Compact(slices.Sorted(slices.Values(slices.Concat(t.own, t.content)))) {
			df[w]++
		}
	}
	servers := map[string]int{} // server name word → servers that have it
	seen := map[string]bool{}
	for _, t := range ts {
		if k := strings.Join(t.server, " "); !seen[k] {
			seen[k] = true
			for _, w := range t.server {
				servers[w]++
			}
		}
	}
	parts := map[string]int{} // MCP tool part → tools that have it
	byServer := map[string][]*tool{}
	for _, t := range ts {
		if p := t.mcpPart; p != "" {
			parts[p]++
		}
		if len(t.server) > 0 {
			k := strings.Join(t.server, " ")
			byServer[k] = append(byServer[k], t)
		}
	}
	var sets []Set
	for si, sh := range shapes {
		g := &gen{rand.New(rand.NewPCG(seed, uint64(si))), servers, df, len(ts), ts, parts, byServer}
		order := g.rng.Perm(len(ts))
		set := Set{Shape: sh.name, About: sh.about}
		for _, i := range order {
			if len(set.Queries) == perShape {
				break
			}
			var q string
			var relevant []string
			ok := false
			if sh.many != nil {
				q, relevant, ok = sh.many(g, ts[i])
			} else if q, ok = sh.make(g, ts[i]); ok {
				relevant = slices.Clone(same[key(ts[i], tools[i].Description)])
			}
			if !ok {
				continue
			}
			set.Queries = append(set.Queries, Query{
				ID:       fmt.Sprintf("%s-%03d", sh.name, len(set.Queries)),
				Query:    q,
				Relevant: relevant,
			})
		}
		sets = append(sets, set)
	}
	return sets
}

func newTool(t *toolsearch.Tool) *tool {
	x := &tool{name: t.Name}
	if rest, ok := strings.CutPrefix(t.Name, "mcp__"); ok {
		srv, own, found := strings.Cut(rest, "__")
		if found {
			x.mcpPart = own
			x.server = words.NameWords(nil, srv)
			x.own = words.NameWords(nil, own)
		} else {
			x.own = words.NameWords(nil, rest)
		}
	} else {
		x.own = words.NameWords(nil, t.Name)
	}
	first, _, _ := strings.Cut(t.Description, ". ")
	for _, w := range words.Words(nil, first) {
		if !ascii(w) {
			x.phrase = nil
			break
		}
		x.phrase = append(x.phrase, w)
	}
	for _, w := range words.Words(nil, t.Description) {
		if len(w) >= 3 && ascii(w) && !words.IsStop(w) && !slices.Contains(x.content, w) {
			x.content = append(x.content, w)
		}
	}
	return x
}

func ascii(w string) bool {
	for _, r := range w {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// gen holds the random source of one shape.
type gen struct {
	rng      *rand.Rand
	servers  map[string]int // server name word → servers that have it
	df       map[string]int // word → tools whose name or description has it
	tools    int
	all      []*tool
	parts    map[string]int     // MCP tool part → tools that have it
	byServer map[string][]*tool // server words → its tools
}

func (g *gen) pick(ws []string) string { return ws[g.rng.IntN(len(ws))] }

// pickTelling picks one of ws with a probability that grows with how few
// tools have it (its IDF): a model writing keywords picks the words that
// tell its tool apart, seldom "get" or "specific".
func (g *gen) pickTelling(ws []string) string {
	weights := make([]float64, len(ws))
	sum := 0.0
	for i, w := range ws {
		weights[i] = math.Log(float64(g.tools+1) / float64(g.df[w]+1))
		sum += weights[i]
	}
	r := g.rng.Float64() * sum
	for i, w := range weights {
		if r < w {
			return ws[i]
		}
		r -= w
	}
	return ws[len(ws)-1]
}

// fragment returns name words for the snake, camel, kebab and typo
// shapes: the tool's own words (2 or more), or one own word after the
// server's; and whether the server's words were put after the first one
// (camelCase sendSlackMessage) when mix is set.
func (g *gen) fragment(t *tool, mix bool) ([]string, bool) {
	own := t.own
	if len(own) == 0 {
		return nil, false
	}
	server := len(t.server) > 0 && !slices.Contains(own, t.server[len(t.server)-1])
	switch r := g.rng.IntN(3); {
	case server && (r == 0 || len(own) == 1):
		if mix && len(own) >= 2 && g.rng.IntN(2) == 0 {
			return slices.Concat(own[:1], t.server, own[1:]), true
		}
		return slices.Concat(t.server, own), true
	case len(own) >= 2:
		return own, true
	}
	return nil, false
}

func (g *gen) keywords(t *tool) (string, bool) {
	var nameWords []string
	for _, w := range t.own {
		if len(w) >= 3 && !words.IsStop(w) {
			nameWords = append(nameWords, w)
		}
	}
	var desc []string
	for _, w := range t.content {
		if !slices.Contains(nameWords, w) {
			desc = append(desc, w)
		}
	}
	if len(nameWords) == 0 || len(desc) == 0 {
		return "", false
	}
	ws := []string{g.pickTelling(nameWords)}
	for range 1 + g.rng.IntN(2) {
		if w := g.pickTelling(desc); !slices.Contains(ws, w) {
			ws = append(ws, w)
		}
	}
	g.rng.Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
	return strings.Join(ws, " "), true
}

func (g *gen) required(t *tool) (string, bool) {
	q, ok := g.keywords(t)
	if !ok {
		return "", false
	}
	var first string
	if len(t.server) > 0 { // the server's most distinctive word: the one fewest servers have
		for _, w := range t.server {
			if first == "" || g.servers[w] < g.servers[first] {
				first = w
			}
		}
	} else {
		first = g.pick(t.own)
	}
	if len(first) < 3 || words.IsStop(first) {
		return "", false
	}
	ws := slices.DeleteFunc(strings.Fields(q), func(w string) bool { return w == first })
	return "+" + first + " " + strings.Join(ws, " "), true
}

func (g *gen) selectName(t *tool) (string, bool) {
	n := t.name
	switch g.rng.IntN(3) {
	case 1:
		if strings.ToLower(n) != n {
			n = strings.ToLower(n)
		} else {
			n = strings.ToUpper(n[:1]) + n[1:]
		}
	case 2:
		if !strings.ContainsAny(strings.TrimPrefix(n, "mcp__"), "_-.") {
			return "", false
		}
		n = strings.NewReplacer("__", "__", "_", "-", "-", "_", ".", "_").Replace(n)
	}
	return "select:" + n, true
}

func (g *gen) exact(t *tool) (string, bool) {
	if g.rng.IntN(2) == 0 {
		return strings.ToLower(t.name), true
	}
	return t.name, true
}

func (g *gen) snake(t *tool) (string, bool) {
	ws, ok := g.fragment(t, false)
	return strings.Join(ws, "_"), ok
}

func (g *gen) kebab(t *tool) (string, bool) {
	ws, ok := g.fragment(t, false)
	return strings.Join(ws, "-"), ok
}

func (g *gen) camel(t *tool) (string, bool) {
	ws, ok := g.fragment(t, true)
	if !ok {
		return "", false
	}
	return camelCase(ws), true
}

func (g *gen) typo(t *tool) (string, bool) {
	ws, ok := g.fragment(t, false)
	if !ok {
		ws = t.own
	}
	var long []int
	for i, w := range ws {
		if len(w) >= 4 && ascii(w) {
			long = append(long, i)
		}
	}
	if len(long) == 0 {
		return "", false
	}
	ws = slices.Clone(ws)
	i := long[g.rng.IntN(len(long))]
	w := []byte(ws[i])
	p := 1 + g.rng.IntN(len(w)-1) // never the first letter
	switch g.rng.IntN(4) {
	case 0: // deleted
		w = slices.Delete(w, p, p+1)
	case 1: // doubled
		w = slices.Insert(w, p, w[p])
	case 2: // replaced by a neighbour in the alphabet
		if w[p] >= 'a' && w[p] < 'z' {
			w[p]++
		} else {
			w[p] = 'a'
		}
	default: // swapped with the previous letter
		if w[p] == w[p-1] {
			return "", false
		}
		w[p], w[p-1] = w[p-1], w[p]
	}
	ws[i] = string(w)
	return strings.Join(ws, "_"), true
}

// requests frame a phrase of a description as a request.
var requests = []string{
	"%s", "I need to %s", "can you %s", "please %s", "how do I %s", "help me %s", "I want to %s", "is there a tool to %s",
}

func (g *gen) sentence(t *tool) (string, bool) {
	if len(t.phrase) < 4 {
		return "", false
	}
	n := min(len(t.phrase), 5+g.rng.IntN(6)) // 5-10 words of it: enough to say what is wanted
	req := g.pick(requests)
	s := fmt.Sprintf(req, strings.Join(t.phrase[:n], " "))
	if len(t.server) > 0 && g.rng.IntN(2) == 0 {
		s += " in " + strings.Join(t.server, " ")
	}
	if c := len(strings.Fields(s)); c < 5 || c > 15 {
		return "", false
	}
	return s, true
}

// context are sentences a model writes around a request: the situation,
// its plan, what it already did. They name no tool.
var context = []string{
	"I am working on a task for the user and I have a few steps left before I can report back.",
	"The user asked me earlier today to take care of this as part of a larger piece of work.",
	"So far I have gathered some information, but I still need one more thing before I can continue.",
	"I would like to do this in a careful way so that nothing else is changed by accident.",
	"If this works I will summarise the result for the user and then move on to the next step.",
	"I do not know exactly which of the available tools does this, so I am searching for it first.",
	"This is the second time I am trying, because the first attempt did not give me what I expected.",
	"It has to be done now, since the rest of the plan depends on the answer.",
	"After that I will check the output and tell the user what I found and what is still open.",
	"The request came with a short description of the goal and a deadline for later this week.",
	"I want to make sure that I use the right tool for this instead of guessing its parameters.",
	"Everything else in the plan is ready, and this is the part that is still missing.",
}

func (g *gen) long(t *tool) (string, bool) {
	if len(t.phrase) < 4 {
		return "", false
	}
	task := fmt.Sprintf(g.pick(requests[1:]), strings.Join(t.phrase, " ")) + "."
	if len(t.server) > 0 && g.rng.IntN(2) == 0 {
		task = strings.TrimSuffix(task, ".") + " in " + strings.Join(t.server, " ") + "."
	}
	target := 40 + g.rng.IntN(41)
	parts := []string{task}
	for _, i := range g.rng.Perm(len(context)) {
		if len(strings.Fields(strings.Join(parts, " "))) >= target {
			break
		}
		if g.rng.IntN(2) == 0 {
			parts = append([]string{context[i]}, parts...)
		} else {
			parts = append(parts, context[i])
		}
	}
	s := strings.Join(parts, " ")
	if c := len(strings.Fields(s)); c < 40 || c > 80 {
		return "", false
	}
	return s, true
}

// names names t and 1-3 other tools (of t's server half the time, when it
// has enough), each by its whole name, maybe lowercased, or, when no other
// tool has the same MCP tool part, by that part as is, in camelCase or in
// kebab-case.
func (g *gen) names(t *tool) (string, []string, bool) {
	n := 2 + g.rng.IntN(3)
	pool := g.all
	if srv := g.byServer[strings.Join(t.server, " ")]; len(t.server) > 0 && len(srv) >= n && g.rng.IntN(2) == 0 {
		pool = srv
	}
	picked := []*tool{t}
	for tries := 0; len(picked) < n && tries < 100; tries++ {
		o := pool[g.rng.IntN(len(pool))]
		if !slices.Contains(picked, o) {
			picked = append(picked, o)
		}
	}
	if len(picked) < n {
		return "", nil, false
	}
	var toks, named []string
	for _, p := range picked {
		named = append(named, p.name)
		tok := p.name
		switch r := g.rng.IntN(5); {
		case p.mcpPart != "" && g.parts[p.mcpPart] == 1 && r >= 2:
			ws := words.NameWords(nil, p.mcpPart)
			switch r {
			case 2:
				tok = p.mcpPart
			case 3:
				tok = camelCase(ws)
			default:
				tok = strings.Join(ws, "-")
			}
		case r == 1:
			tok = strings.ToLower(p.name)
		}
		toks = append(toks, tok)
	}
	return strings.Join(toks, " "), named, true
}

// camelCase joins words in camelCase.
func camelCase(ws []string) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 && w != "" {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	return b.String()
}
