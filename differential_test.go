package toolsearch

import (
	"cmp"
	"encoding/json"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/words"
)

// This file holds a plain reference implementation of the query forms and
// the keyword scoring described in the package doc, written as directly as
// possible: regular expressions for \bterm\b and the camelCase split, a
// full scan of the pool for every query, a stable sort. The indexed engine
// must give the same forms, names, order and scores on random registries
// that are changed between queries (so incremental index updates are
// checked too).

// refTool is the reference's view of a registered tool.
type refTool struct {
	name, desc, hint string
	server           string
	shouldDefer      bool
	alwaysLoad       bool
	aliases          []string
}

func (t *refTool) isMCP() bool { return t.server != "" || strings.HasPrefix(t.name, "mcp__") }

func (t *refTool) deferred() bool {
	switch {
	case t.alwaysLoad:
		return false
	case t.isMCP():
		return true
	case t.name == ToolSearchName:
		return false
	}
	return t.shouldDefer
}

// refModel is the reference registry: the tools and server statuses.
type refModel struct {
	tools   map[string]*refTool
	servers map[string]ServerStatus
}

// pool returns the available tools in pool order.
func (m *refModel) pool() []*refTool {
	var p []*refTool
	for _, t := range m.tools {
		if t.server == "" || m.servers[t.server] == ServerConnected {
			p = append(p, t)
		}
	}
	slices.SortFunc(p, func(a, b *refTool) int {
		if a.isMCP() != b.isMCP() {
			if a.isMCP() {
				return 1
			}
			return -1
		}
		return strings.Compare(a.name, b.name)
	})
	return p
}

var (
	refJSSpace = regexp.MustCompile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
	refCamel   = regexp.MustCompile(`([a-z])([A-Z])`)
	refFlat    = regexp.MustCompile(`[_.\-]`)
	refSelect  = regexp.MustCompile(`(?is)^select:([^\n\r\x{2028}\x{2029}]+)$`)
)

func refSplit(s string) []string {
	var out []string
	for _, p := range refJSSpace.Split(s, -1) {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

func refTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return refJSSpace.MatchString(string(r)) })
}

func refNameParts(name string) ([]string, bool) {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		var parts []string
		for _, seg := range strings.Split(strings.ToLower(rest), "__") {
			for _, p := range strings.Split(seg, "_") {
				if p != "" {
					parts = append(parts, p)
				}
			}
		}
		return parts, true
	}
	return refSplit(strings.ToLower(strings.ReplaceAll(refCamel.ReplaceAllString(name, "${1} ${2}"), "_", " "))), false
}

func refSpans(term string, parts []string) bool {
	flat := refFlat.ReplaceAllString(term, "")
	if flat == "" {
		return false
	}
	for i := range parts {
		acc := parts[i]
		for j := i + 1; j < len(parts); j++ {
			acc += parts[j]
			if acc == flat {
				return true
			}
			if len(acc) >= len(flat) {
				break
			}
		}
	}
	return false
}

// refScorer caches the compiled \bterm\b expressions.
type refScorer struct{ words map[string]*regexp.Regexp }

func (r *refScorer) word(term string) *regexp.Regexp {
	re, ok := r.words[term]
	if !ok {
		re = regexp.MustCompile(`\b` + regexp.QuoteMeta(term) + `\b`)
		r.words[term] = re
	}
	return re
}

func (r *refScorer) score(t *refTool, terms []string) int {
	parts, mcp := refNameParts(t.name)
	desc, hint := words.Lower(t.desc), words.Lower(t.hint)
	s := 0
	for _, term := range terms {
		switch {
		case slices.Contains(parts, term):
			s += map[bool]int{true: 12, false: 10}[mcp]
		case slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(p, term) }):
			s += map[bool]int{true: 6, false: 5}[mcp]
		case refSpans(term, parts):
			s += 3
		}
		if hint != "" && r.word(term).MatchString(hint) {
			s += 4
		}
		if r.word(term).MatchString(desc) {
			s += 2
		}
	}
	return s
}

func (r *refScorer) satisfies(t *refTool, req string) bool {
	parts, _ := refNameParts(t.name)
	hint := words.Lower(t.hint)
	return slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(p, req) }) ||
		r.word(req).MatchString(words.Lower(t.desc)) || (hint != "" && r.word(req).MatchString(hint))
}

// refHit is one match of the reference: a name and its keyword score.
type refHit struct {
	Name  string
	Score int
}

// search answers query over the tools of pool in scope, as the package doc says.
func (r *refScorer) search(pool []*refTool, scope *Scope, query string, k int) (string, []refHit, int) {
	var in []*refTool
	for _, t := range pool {
		if scope == nil || slices.Contains(scope.Allow, t.name) || slices.Contains(scope.Allow, "*") && (!t.deferred() || scope.IncludeDeferred) {
			in = append(in, t)
		}
	}
	var deferred []*refTool
	for _, t := range in {
		if t.deferred() {
			deferred = append(deferred, t)
		}
	}
	total := len(deferred)
	if m := refSelect.FindStringSubmatch(query); m != nil {
		var out []refHit
		for _, raw := range strings.Split(m[1], ",") {
			n := refTrim(raw)
			if n == "" {
				continue
			}
			named := func(t *refTool) bool { return t.name == n || slices.Contains(t.aliases, n) }
			var found *refTool
			if i := slices.IndexFunc(deferred, named); i >= 0 {
				found = deferred[i]
			} else if i := slices.IndexFunc(in, named); i >= 0 {
				found = in[i]
			} else {
				var ci []*refTool
				for _, t := range in {
					if words.Lower(t.name) == words.Lower(n) {
						ci = append(ci, t)
					}
				}
				if len(ci) == 1 {
					found = ci[0]
				} else {
					var sep []*refTool // [ours] '_', '-' and '.' taken as one character
					for _, t := range in {
						if refFlat.ReplaceAllString(words.Lower(t.name), "_") == refFlat.ReplaceAllString(words.Lower(n), "_") {
							sep = append(sep, t)
						}
					}
					if len(sep) == 1 {
						found = sep[0]
					}
				}
			}
			if found != nil && !slices.Contains(out, refHit{found.name, 0}) {
				out = append(out, refHit{found.name, 0})
			}
		}
		return "select", out, total
	}
	q := words.Lower(refTrim(query))
	if q == "" {
		return "ranked", nil, total
	}
	for _, p := range [][]*refTool{deferred, in} {
		for _, t := range p {
			if words.Lower(t.name) == q {
				return "exact", []refHit{{t.name, 0}}, total
			}
		}
	}
	if strings.HasPrefix(q, "mcp__") && len(q) > 5 {
		var out []refHit
		for _, t := range deferred {
			if strings.HasPrefix(words.Lower(t.name), q) && len(out) < k {
				out = append(out, refHit{t.name, 0})
			}
		}
		if len(out) > 0 {
			return "prefix", out, total
		}
	}
	var req, opt []string
	for _, tok := range refSplit(q) {
		if strings.HasPrefix(tok, "+") && len(tok) > 1 {
			req = append(req, tok[1:])
		} else {
			opt = append(opt, tok)
		}
	}
	terms := append(slices.Clone(req), opt...)
	var out []refHit
	for _, t := range deferred {
		if !slices.ContainsFunc(req, func(x string) bool { return !r.satisfies(t, x) }) {
			if s := r.score(t, terms); s > 0 {
				out = append(out, refHit{t.name, s})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b refHit) int { return cmp.Compare(b.Score, a.Score) })
	return "ranked", refNamesFirst(in, query, k, out[:min(k, len(out))]), total
}

// refNameShaped reports whether a token is shaped as a name of several
// words: '_', '-' or '.' inside it, or camelCase.
func refNameShaped(tok string) bool {
	return strings.ContainsAny(strings.Trim(tok, "_-."), "_-.") || refCamel.MatchString(tok)
}

// refNamesFirst is the names form [ours]: in a query of at most 32 tokens,
// none a "+" term, the deferred tools named (folded: the tool's name, or
// the part of an mcp__server__part name) by its name-shaped tokens, or by
// every token when each of 2 or more names a tool, come first when the
// ranking leaves one of them out.
func refNamesFirst(in []*refTool, query string, k int, ranked []refHit) []refHit {
	toks := strings.FieldsFunc(query, words.IsSpace)
	if len(toks) > 32 || !slices.ContainsFunc(toks, refNameShaped) ||
		slices.ContainsFunc(toks, func(t string) bool { return t[0] == '+' }) {
		return ranked
	}
	fold := func(s string) string { return refFlat.ReplaceAllString(words.Lower(s), "") }
	var all, shaped []string
	every := true
	rank := func(n string) int {
		if i := slices.IndexFunc(ranked, func(h refHit) bool { return h.Name == n }); i >= 0 {
			return i
		}
		return len(ranked) + slices.IndexFunc(in, func(t *refTool) bool { return t.name == n }) // then pool order
	}
	for _, tok := range toks {
		f, found := fold(tok), false
		var group []string
		for _, t := range in {
			part := ""
			if rest, ok := strings.CutPrefix(t.name, "mcp__"); ok {
				_, part, _ = strings.Cut(rest, "__")
			}
			if fold(t.name) == f || part != "" && fold(part) == f {
				found = true // a loaded tool is named too
				if t.deferred() {
					group = append(group, t.name)
				}
			}
		}
		slices.SortStableFunc(group, func(a, b string) int { return cmp.Compare(rank(a), rank(b)) })
		for _, n := range group {
			if !slices.Contains(all, n) {
				all = append(all, n)
			}
			if refNameShaped(tok) && !slices.Contains(shaped, n) {
				shaped = append(shaped, n)
			}
		}
		every = every && found
	}
	want := shaped
	if every && len(toks) >= 2 {
		want = all
	}
	if len(want) == 0 {
		return ranked
	}
	want = want[:min(len(want), k)]
	at := func(n string) int { return slices.IndexFunc(ranked, func(h refHit) bool { return h.Name == n }) }
	if !slices.ContainsFunc(want, func(n string) bool { return at(n) < 0 }) {
		return ranked
	}
	var out []refHit
	for _, n := range want {
		h := refHit{Name: n}
		if i := at(n); i >= 0 {
			h = ranked[i]
		}
		out = append(out, h)
	}
	for _, h := range ranked {
		if len(out) < k && !slices.Contains(want, h.Name) {
			out = append(out, h)
		}
	}
	return out
}

// Random registries and queries.

var diffWords = []string{
	"get", "set", "list", "create", "delete", "issue", "issues", "pull", "request", "github", "slack",
	"send", "message", "file", "files", "read", "write", "web", "search", "fetch", "notebook",
	"url", "http", "api", "data", "user", "users", "json", "2fa", "v2", "x", "a", "an", "the",
	"c++", "a.b", "x-y", "(x)", "[y]", "$5", "^up", "x|y", "naïve", "é", "ÉCOLE", "ümlaut",
	"sendmessage", "createissue", "get_set", "snake_case", "camelCase", "HTTPRequest", "getURLFor",
	"it's", "e-mail", "v1.2", "foo.bar", "--", "+", "*", "?", "\\d", "issue's", "x*y", "a+b", "é1",
}

var diffServers = []string{"github", "slack", "my-srv", "fs", "a.b", "x", "Srv2"}

func diffName(rng *rand.Rand) (name, server string) {
	pick := func() string { return diffWords[rng.IntN(len(diffWords))] }
	var ws []string
	for range 1 + rng.IntN(3) {
		w := strings.Map(func(r rune) rune {
			if nameChar(r) {
				return r
			}
			return -1
		}, pick())
		if w != "" {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		ws = []string{"tool"}
	}
	switch r := rng.Float64(); {
	case r < 0.45:
		server = diffServers[rng.IntN(len(diffServers))]
		return mcpToolName(server, strings.Join(ws, []string{"_", "__", "-", ""}[rng.IntN(4)])), server
	case r < 0.75:
		var b strings.Builder
		for _, w := range ws {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
		return b.String(), ""
	case r < 0.8:
		return "mcp__" + strings.Join(ws, "__"), "" // an MCP-looking name without a server
	}
	return strings.Join(ws, []string{"_", "-", ".", ""}[rng.IntN(4)]) + []string{"", "2", "V2", "X"}[rng.IntN(4)], ""
}

func diffText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString([]string{" ", " ", " ", ", ", "\n", "-", "/", "\u00a0", ""}[rng.IntN(9)])
		}
		b.WriteString(diffWords[rng.IntN(len(diffWords))])
	}
	return b.String()
}

func diffTool(rng *rand.Rand) Tool {
	name, server := diffName(rng)
	t := Tool{Name: name, Server: server, Description: diffText(rng, rng.IntN(14)), ShouldDefer: rng.Float64() < 0.85}
	if rng.Float64() < 0.3 {
		t.SearchHint = diffText(rng, 1+rng.IntN(3))
	}
	if rng.Float64() < 0.08 {
		t.AlwaysLoad = true
	}
	if rng.Float64() < 0.05 {
		t.Aliases = []string{"alias" + strconv.Itoa(rng.IntN(1000))}
	}
	if rng.Float64() < 0.15 { // arguments: a field the hybrid strategy reads
		w, _ := json.Marshal(diffWords[rng.IntN(len(diffWords))] + "_id")
		d, _ := json.Marshal(diffText(rng, 1+rng.IntN(4)))
		t.InputSchema = json.RawMessage(`{"type":"object","properties":{` + string(w) + `:{"type":"string","description":` + string(d) + `}}}`)
	}
	return t
}

func diffQuery(rng *rand.Rand, names []string) string {
	name := func() string {
		if len(names) == 0 {
			return "Nope"
		}
		return names[rng.IntN(len(names))]
	}
	switch r := rng.Float64(); {
	case r < 0.06:
		return "select:" + name() + "," + strings.ToUpper(name()) + ", Nope ," + name()
	case r < 0.09:
		return "select:" + strings.NewReplacer("_", "-", "-", ".", ".", "_").Replace(name())
	case r < 0.12:
		return " " + strings.ToUpper(name()) + "\t"
	case r < 0.2:
		return "mcp__" + []string{"github", "slack", "my-srv", "x", "zz", "srv2", "github__c", "a_b__"}[rng.IntN(8)]
	}
	var b strings.Builder
	for i := range 1 + rng.IntN(5) {
		if i > 0 {
			b.WriteString([]string{" ", "  ", "\u3000", "\t"}[rng.IntN(4)])
		}
		if rng.Float64() < 0.2 {
			b.WriteByte('+')
		}
		switch r := rng.Float64(); {
		case r < 0.1 && len(names) > 0:
			parts, _ := nameParts(name())
			b.WriteString(strings.Join(parts, []string{"", "_", "-", "."}[rng.IntN(4)]))
		case r < 0.15:
			b.WriteString(strings.ToUpper(diffWords[rng.IntN(len(diffWords))]))
		default:
			b.WriteString(diffWords[rng.IntN(len(diffWords))])
		}
	}
	return b.String()
}

func diffScope(rng *rand.Rand, names []string) *Scope {
	switch rng.IntN(4) {
	case 0:
		return &Scope{Allow: []string{"*"}, IncludeDeferred: rng.IntN(2) == 0}
	case 1:
		var allow []string
		for _, n := range names {
			if rng.IntN(2) == 0 {
				allow = append(allow, n)
			}
		}
		if rng.IntN(3) == 0 {
			allow = append(allow, "*")
		}
		return &Scope{Allow: allow}
	}
	return nil
}

// mutate applies one random change to both the registry and the model.
func mutate(t *testing.T, rng *rand.Rand, r *Registry, m *refModel) {
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range m.tools {
			if !yield(n) {
				return
			}
		}
	})
	put := func(tl Tool) {
		m.tools[tl.Name] = &refTool{name: tl.Name, desc: tl.Description, hint: tl.SearchHint, server: tl.Server,
			shouldDefer: tl.ShouldDefer, alwaysLoad: tl.AlwaysLoad, aliases: tl.Aliases}
	}
	switch op := rng.IntN(7); {
	case op == 0 && len(names) > 0: // replace a tool's text
		old := m.tools[names[rng.IntN(len(names))]]
		tl := Tool{Name: old.name, Server: old.server, Description: diffText(rng, rng.IntN(14)), SearchHint: old.hint,
			ShouldDefer: rng.IntN(2) == 0, AlwaysLoad: old.alwaysLoad, Aliases: old.aliases}
		require.NoError(t, r.Replace(tl), "Replace(%q)", tl.Name)
		put(tl)
	case op == 1 && len(names) > 0: // remove a tool
		n := names[rng.IntN(len(names))]
		require.Equal(t, 1, r.Remove(n), "Remove(%q)", n)
		delete(m.tools, n)
	case op == 2: // a server's status changes
		srv := diffServers[rng.IntN(len(diffServers))]
		st := ServerStatus(rng.IntN(3))
		r.SetServerStatus(srv, st)
		m.servers[srv] = st
	case op == 3: // a server's tool list is replaced
		srv := diffServers[rng.IntN(len(diffServers))]
		var tools []Tool
		for range rng.IntN(6) {
			tl := diffTool(rng)
			tl.Name, tl.Server = mcpToolName(srv, tl.Name), srv
			if m.tools[tl.Name] == nil || m.tools[tl.Name].server == srv {
				if !slices.ContainsFunc(tools, func(x Tool) bool { return x.Name == tl.Name }) {
					tl.Aliases = nil
					tools = append(tools, tl)
				}
			}
		}
		require.NoError(t, setServerTools(r, srv, tools), "SetServerTools(%q)", srv)
		for n, x := range m.tools {
			if x.server == srv {
				delete(m.tools, n)
			}
		}
		for _, tl := range tools {
			put(tl)
		}
	default: // add a few tools
		for range 1 + rng.IntN(4) {
			tl := diffTool(rng)
			tl.Aliases = nil
			if m.tools[tl.Name] == nil && r.Register(tl) == nil {
				put(tl)
			}
		}
	}
}

func TestEngineMatchesReference(t *testing.T) {
	catalogs, queries := 400, 12
	if testing.Short() || raceEnabled {
		catalogs = 40
	}
	ref := &refScorer{words: map[string]*regexp.Regexp{}}
	checked := 0
	for seed := range catalogs {
		rng := rand.New(rand.NewPCG(uint64(seed), 5))
		var r Registry
		m := &refModel{tools: map[string]*refTool{}, servers: map[string]ServerStatus{}}
		var tools []Tool
		for range rng.IntN(40) {
			tl := diffTool(rng)
			if m.tools[tl.Name] == nil && !slices.ContainsFunc(tools, func(x Tool) bool {
				return slices.Contains(x.Aliases, tl.Name) || slices.ContainsFunc(tl.Aliases, func(a string) bool { return a == x.Name || slices.Contains(x.Aliases, a) })
			}) {
				tools = append(tools, tl)
				m.tools[tl.Name] = &refTool{name: tl.Name, desc: tl.Description, hint: tl.SearchHint, server: tl.Server,
					shouldDefer: tl.ShouldDefer, alwaysLoad: tl.AlwaysLoad, aliases: tl.Aliases}
			}
		}
		require.NoError(t, r.Register(tools...), "seed %d", seed)
		for round := range 4 {
			if round > 0 {
				mutate(t, rng, &r, m)
			}
			pool := m.pool()
			names := make([]string, 0, len(pool))
			for _, tl := range pool {
				names = append(names, tl.name)
			}
			scope := diffScope(rng, names)
			s := NewSearcher(&r, &SearchOptions{Scope: scope, MaxResultsCap: 50})
			for range queries {
				q := diffQuery(rng, names)
				k := 1 + rng.IntN(12)
				res, err := s.Search(q, k)
				require.NoError(t, err)
				form, want, total := ref.search(pool, scope, q, k)
				got := make([]refHit, 0, len(res.Matches))
				for _, mt := range res.Matches {
					got = append(got, refHit{mt.Name, int(mt.Score)})
				}
				if want == nil {
					want = []refHit{}
				}
				require.Equal(t, want, got, "seed %d round %d: Search(%q, %d) scope %+v", seed, round, q, k, scope)
				require.Equal(t, form, res.Form.String(), "seed %d: form of %q", seed, q)
				require.Equal(t, total, res.TotalDeferredTools, "seed %d: total for %q", seed, q)
				checked++
			}
		}
	}
	t.Logf("%d queries agree with the reference", checked)
}

// TestFullRankingMatchesReferenceScorer checks the index against the
// per-tool reference scorer (refScore) on the full ranking (every tool
// that scores, as eval asks for it), on random registries changed between
// queries: the same tools, scores and order.
func TestFullRankingMatchesReferenceScorer(t *testing.T) {
	catalogs := 200
	if testing.Short() || raceEnabled {
		catalogs = 20
	}
	checked := 0
	for seed := range catalogs {
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		var r Registry
		m := &refModel{tools: map[string]*refTool{}, servers: map[string]ServerStatus{}}
		for range 4 {
			mutate(t, rng, &r, m)
			mutate(t, rng, &r, m)
			var names []string
			for _, tl := range m.pool() {
				names = append(names, tl.name)
			}
			all := NewSearcher(&r, &SearchOptions{MaxResultsCap: math.MaxInt, MaxResultSchemaBytes: math.MaxInt})
			for range 12 {
				q := diffQuery(rng, names)
				res, err := all.Search(q, math.MaxInt)
				require.NoError(t, err)
				if res.Form != FormRanked || slices.Contains(res.Notes, namesListedFirst()) { // the names form reorders: TestEngineMatchesReference checks it
					continue
				}
				got := make([]refHit, 0, len(res.Matches))
				for _, mt := range res.Matches {
					got = append(got, refHit{mt.Name, int(mt.Score)})
				}
				want := refRanking(r.load(), q)
				if want == nil {
					want = []refHit{}
				}
				require.Equal(t, want, got, "seed %d: full ranking of %q", seed, q)
				checked++
			}
		}
	}
	t.Logf("%d full rankings agree with the reference scorer", checked)
}
