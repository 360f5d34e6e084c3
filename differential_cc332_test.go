package toolsearch

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/internal/words"
)

// A plain reference of ClaudeCode2_1_332's query forms and scoring,
// written from the rules as directly as possible (regular expressions, a
// scan of the pool per query, a stable sort), against which the profile's
// Searcher is checked on random registries changed between queries, so
// that the incremental index updates are checked too. Claude Code's own
// code is the parity target of testdata/parity (TestParityClaudeCode332);
// this reference pins the rules on shapes the recorded sets may not reach.

var (
	ref332Split = regexp.MustCompile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff_.]+")
	ref332Camel = regexp.MustCompile(`([a-z])([A-Z])`)
	ref332Bad   = regexp.MustCompile(`[^a-zA-Z0-9_-]`)
)

// ref332Names returns t's raw MCP server and tool names, as rawMCPNames
// describes them.
func ref332Names(t *Tool) (server, tool string, ok bool) {
	var fromName []string // server, tool of a name mcp__server[__tool]
	if rest, ok := strings.CutPrefix(t.Name, "mcp__"); ok {
		if p := strings.SplitN(rest, "__", 2); len(p) == 1 && rest != "" {
			fromName = []string{rest, ""}
		} else if len(p) == 2 && p[0] != "" {
			fromName = p
		}
	}
	if t.Server != "" {
		tool = t.MCPName
		if tool == "" {
			tool = t.Name
			if fromName != nil && fromName[1] != "" {
				tool = fromName[1]
			}
		}
		return t.Server, tool, true
	}
	if fromName == nil {
		return "", "", false
	}
	return fromName[0], fromName[1], true
}

func ref332Parts(t *Tool) (parts, coarse []string, mcp bool) {
	if server, tool, ok := ref332Names(t); ok {
		for _, n := range []string{server, tool} {
			if n == "" {
				continue
			}
			c := words.Lower(n)
			coarse = append(coarse, c)
			for _, p := range ref332Split.Split(c, -1) {
				if p != "" {
					parts = append(parts, p)
				}
			}
		}
		return parts, coarse, true
	}
	s := strings.ReplaceAll(ref332Camel.ReplaceAllString(t.Name, "${1} ${2}"), "_", " ")
	return refSplit(words.Lower(s)), []string{words.Lower(t.Name)}, false
}

// ref332Cut cuts s to n UTF-16 code units (a pair split in two loses its
// first half), reporting whether it did.
func ref332Cut(s string, n int) (string, bool) {
	u := utf16.Encode([]rune(s))
	if len(u) <= n {
		return s, false
	}
	u = u[:n]
	if c := u[n-1]; c >= 0xd800 && c < 0xdc00 {
		u = u[:n-1]
	}
	return string(utf16.Decode(u)), true
}

// ref332Search answers query over the tools of pool in scope as
// ClaudeCode2_1_332 does: the form, the matches with their scores, the
// tools already available, and the deferred count.
func (r *refScorer) ref332Search(pool []*Tool, deferred func(*Tool) bool, query string, k int) (string, []refHit, []string, int) {
	var defs []*Tool
	for _, t := range pool {
		if deferred(t) {
			defs = append(defs, t)
		}
	}
	query, _ = ref332Cut(query, 16384)
	if m := refSelect.FindStringSubmatch(query); m != nil {
		pieces := strings.Split(m[1], ",")
		pieces = pieces[:min(len(pieces), 64)]
		var out []refHit
		for _, raw := range pieces {
			n := refTrim(raw)
			if n == "" {
				continue
			}
			for _, t := range ref332Resolve(defs, pool, n) {
				if !slices.Contains(out, refHit{t.Name, 0}) {
					out = append(out, refHit{t.Name, 0})
				}
			}
		}
		return "select", out, nil, len(defs)
	}
	if toks := refSplit(query); len(toks) > 32 {
		query = strings.Join(toks[:32], " ")
	}
	q := refTrim(query)
	if q == "" {
		return "ranked", nil, nil, len(defs)
	}
	for _, t := range pool {
		if t.Name == q {
			return "exact", []refHit{{t.Name, 0}}, nil, len(defs)
		}
	}
	for _, p := range [][]*Tool{defs, pool} {
		for _, t := range p {
			if words.Lower(t.Name) == words.Lower(q) {
				return "exact", []refHit{{t.Name, 0}}, nil, len(defs)
			}
		}
	}
	// The tools the query names that are already loaded.
	terms := refSplit(q)
	for i := range terms {
		terms[i] = strings.TrimPrefix(terms[i], "+")
	}
	keys := []string{q, strings.Join(terms, "_")}
	for _, t := range terms {
		if strings.Contains(t, "_") {
			keys = append(keys, t)
		}
	}
	var named []*Tool
	for _, key := range keys {
		for _, t := range ref332Resolve(nil, pool, key) {
			if !slices.Contains(named, t) {
				named = append(named, t)
			}
		}
	}
	var avail []string
	for _, t := range named {
		if !deferred(t) {
			avail = append(avail, t.Name)
		}
	}
	lq := words.Lower(q)
	if strings.HasPrefix(lq, "mcp__") && len(lq) > 5 {
		var out []refHit
		for _, t := range defs {
			if strings.HasPrefix(words.Lower(t.Name), lq) && len(out) < k {
				out = append(out, refHit{t.Name, 0})
			}
		}
		if len(out) > 0 {
			return "prefix", out, avail, len(defs)
		}
	}
	var req, opt []string
	for _, tok := range refSplit(lq) {
		if strings.HasPrefix(tok, "+") && len(tok) > 1 {
			req = append(req, tok[1:])
		} else {
			opt = append(opt, tok)
		}
	}
	all := append(slices.Clone(req), opt...)
	var out []refHit
	for _, t := range defs {
		parts, coarse, mcp := ref332Parts(t)
		desc := t.Description
		if mcp {
			if d, cut := ref332Cut(desc, 4096); cut {
				desc = d + "… [truncated]"
			}
		}
		desc = words.Lower(desc)
		hint, _ := ref332Cut(t.SearchHint, 4096)
		hint = words.Lower(hint)
		in := func(list []string, term string) bool {
			return slices.ContainsFunc(list, func(p string) bool { return strings.Contains(p, term) })
		}
		ok := true
		for _, x := range req {
			ok = ok && (in(parts, x) || in(coarse, x) || r.word(x).MatchString(desc) || hint != "" && r.word(x).MatchString(hint))
		}
		if !ok {
			continue
		}
		pick := func(a, b int) int {
			if mcp {
				return a
			}
			return b
		}
		s := 0
		for _, term := range all {
			switch {
			case slices.Contains(parts, term):
				s += pick(12, 10)
			case in(parts, term):
				s += pick(6, 5)
			}
			switch {
			case slices.Contains(coarse, term):
				s += pick(12, 10)
			case in(coarse, term):
				s += pick(4, 3)
			}
			if hint != "" && r.word(term).MatchString(hint) {
				s += 4
			}
			if r.word(term).MatchString(desc) {
				s += 2
			}
		}
		if s > 0 {
			out = append(out, refHit{t.Name, s})
		}
	}
	slices.SortStableFunc(out, func(a, b refHit) int { return cmp.Compare(b.Score, a.Score) })
	return "ranked", out[:min(k, len(out))], avail, len(defs)
}

// ref332Resolve returns the tools name means in select: a name or alias in
// defs, then in pool, else every tool of pool with that bare MCP tool name.
func ref332Resolve(defs, pool []*Tool, name string) []*Tool {
	for _, p := range [][]*Tool{defs, pool} {
		for _, t := range p {
			if t.Name == name || slices.Contains(t.Aliases, name) {
				return []*Tool{t}
			}
		}
	}
	var out []*Tool
	for _, t := range pool {
		_, tool, ok := ref332Names(t)
		if ok && tool != "" && (tool == name || t.Server != "" && ref332Bad.ReplaceAllString(tool, "_") == name && !strings.HasPrefix(tool, "claude.ai ")) {
			out = append(out, t)
		}
	}
	return out
}

// cc332Words are the words of the random tools and queries.
var cc332Words = []string{"get", "send", "message", "slack", "issue", "create", "list", "channels", "file", "read",
	"web", "fetch", "user", "c++", "a.b", "x-y", "é", "ÉCOLE", "日本", "😀", "create_issue", "send_message",
	"sendmessage", "My Server", "get.user", "listChannels", "Get Weather", "add-task", "v2", "the", "+"}

var cc332Servers = []string{"github", "slack", "my.srv", "My Server", "fs-tools", "x", "CamelSrv"}

func cc332Word(rng *rand.Rand) string { return cc332Words[rng.IntN(len(cc332Words))] }

// cc332Tool returns a random tool: an MCP tool with raw names (sometimes
// without MCPName), or another tool.
func cc332Tool(rng *rand.Rand) Tool {
	text := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = cc332Word(rng)
		}
		return strings.Join(ws, " ")
	}
	var t Tool
	if rng.IntN(2) == 0 {
		srv := cc332Servers[rng.IntN(len(cc332Servers))]
		raw := cc332Word(rng)
		if rng.IntN(2) == 0 {
			raw += []string{"_", ".", " ", "-", "__"}[rng.IntN(5)] + cc332Word(rng)
		}
		t = NewMCPTool(srv, raw, text(rng.IntN(10)), nil, nil)
		if rng.IntN(5) == 0 {
			t.MCPName = ""
		}
		if rng.IntN(15) == 0 {
			t.Description = strings.Repeat("word ", 819) + "w " + text(4) // past 4,096 units
		}
	} else {
		name := strings.Map(func(r rune) rune {
			if nameChar(r) {
				return r
			}
			return -1
		}, cc332Word(rng)+strings.ToUpper(cc332Word(rng)[:1])+cc332Word(rng))
		if name == "" || rng.IntN(10) == 0 {
			name = "mcp__legacy__" + strconv.Itoa(rng.IntN(9))
		}
		t = Tool{Name: name, Description: text(rng.IntN(10)), ShouldDefer: rng.IntN(5) > 0}
	}
	if rng.IntN(4) == 0 {
		t.SearchHint = text(1 + rng.IntN(3))
	}
	t.AlwaysLoad = rng.IntN(12) == 0
	return t
}

func cc332Query(rng *rand.Rand, names []string) string {
	name := func() string {
		if len(names) == 0 {
			return "Nope"
		}
		return names[rng.IntN(len(names))]
	}
	switch r := rng.IntN(20); {
	case r < 3:
		return "select:" + name() + "," + cc332Word(rng) + ", Nope ," + strings.ToLower(name())
	case r < 5:
		return []string{name(), strings.ToUpper(name()), " " + strings.ToLower(name()) + "\t"}[rng.IntN(3)]
	case r < 6:
		return "mcp__" + cc332Servers[rng.IntN(len(cc332Servers))][:1]
	case r < 7:
		ws := make([]string, 33+rng.IntN(10))
		for i := range ws {
			ws[i] = cc332Word(rng)
		}
		return strings.Join(ws, " ")
	}
	ws := make([]string, 1+rng.IntN(4))
	for i := range ws {
		ws[i] = cc332Word(rng)
		if rng.IntN(5) == 0 {
			ws[i] = "+" + ws[i]
		}
	}
	return strings.Join(ws, []string{" ", "\t", "\u3000"}[rng.IntN(3)])
}

func TestProfile332MatchesReference(t *testing.T) {
	catalogs := sweepSize(20, 150)
	ref := &refScorer{words: map[string]*regexp.Regexp{}}
	checked := 0
	for seed := range catalogs {
		rng := rand.New(rand.NewPCG(uint64(seed), 332))
		var r Registry
		tools := map[string]Tool{}
		servers := map[string]ServerStatus{}
		add := func(tl Tool) {
			if _, ok := tools[tl.Name]; !ok && r.Register(tl) == nil {
				tools[tl.Name] = tl
			}
		}
		for range rng.IntN(30) {
			add(cc332Tool(rng))
		}
		s := NewSearcher(&r, &SearchOptions{Profile: ClaudeCode2_1_332, MaxResultsCap: 50})
		for round := range 6 {
			switch op := rng.IntN(4); {
			case round == 0:
			case op == 0 && len(tools) > 0: // a tool goes, another comes
				for n := range tools {
					r.Remove(n)
					delete(tools, n)
					break
				}
				add(cc332Tool(rng))
			case op == 1: // a server's status changes
				srv := cc332Servers[rng.IntN(len(cc332Servers))]
				servers[srv] = ServerStatus(rng.IntN(3))
				r.SetServerStatus(srv, servers[srv])
			default:
				for range 1 + rng.IntN(5) {
					add(cc332Tool(rng))
				}
			}
			var pool []*Tool
			for e := range r.load().pool.All() {
				tl := tools[e.tool.Name]
				pool = append(pool, &tl)
			}
			names := make([]string, len(pool))
			for i, tl := range pool {
				names[i] = tl.Name
			}
			for range 15 {
				q := cc332Query(rng, names)
				k := 1 + rng.IntN(10)
				res, err := s.Search(q, k)
				require.NoError(t, err)
				form, want, avail, total := ref.ref332Search(pool, func(tl *Tool) bool { return tl.Deferred() }, q, k)
				got := make([]refHit, 0, len(res.Matches))
				for _, m := range res.Matches {
					got = append(got, refHit{m.Name, int(m.Score)})
				}
				if want == nil {
					want = []refHit{}
				}
				require.Equal(t, want, got, "seed %d round %d: Search(%q, %d)", seed, round, q, k)
				require.Equal(t, form, res.Form.String(), "seed %d: form of %q", seed, q)
				require.Equal(t, avail, availableOf(res), "seed %d: available for %q", seed, q)
				require.Equal(t, total, res.TotalDeferredTools, "seed %d: total for %q", seed, q)
				checked++
			}
		}
	}
	t.Logf("%d queries agree with the reference", checked)
}

// TestCC332IndexBranches builds two index versions from the same previous
// one, as two queries racing on different registry versions do: each must
// answer as an index built afresh (the vocabulary, which grows its lists
// in place, is copied for the second).
func TestCC332IndexBranches(t *testing.T) {
	var r Registry
	for _, w := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"} {
		// Enough parts that the vocabulary's lists have room to grow in place.
		require.NoError(t, r.Register(NewMCPTool("slack", w+"_send", "Send.", nil, nil)))
	}
	st := cc332Strategy{}
	base := st.Index(corpusOf(&r, r.load()))
	require.NoError(t, r.Register(NewMCPTool("github", "create_issue", "Create.", nil, nil)))
	snapA := r.load()
	require.Equal(t, 1, r.Remove("mcp__github__create_issue"))
	require.NoError(t, r.Register(NewMCPTool("jira", "open_ticket", "Open.", nil, nil)))
	snapB := r.load()
	a := base.Update(corpusOf(&r, snapA))
	b := base.Update(corpusOf(&r, snapB)) // from the same previous index
	for _, c := range []struct {
		idx   Index
		snap  *snapshot
		query string
	}{{a, snapA, "issu"}, {b, snapB, "ticke"}, {a, snapA, "ticke"}, {b, snapB, "issu"}, {a, snapA, "sen"}, {b, snapB, "sen"}} {
		q := Query{Text: c.query, K: -1}
		got, _, err := c.idx.Rank(context.Background(), q, nil)
		require.NoError(t, err)
		want, _, err := st.Index(corpusOf(&r, c.snap)).Rank(context.Background(), q, nil)
		require.NoError(t, err)
		slices.SortFunc(got, compareHits)
		slices.SortFunc(want, compareHits)
		assert.Equal(t, want, got, "%q", c.query)
	}
}

// TestProfile332Concurrent searches with the 2.1.332 profile from several
// goroutines while a writer changes the registry (run with -race).
func TestProfile332Concurrent(t *testing.T) {
	var r Registry
	for i := range 50 {
		require.NoError(t, r.Register(NewMCPTool("srv", fmt.Sprintf("tool_%d", i), "Does things.", nil, nil)))
	}
	s := NewSearcher(&r, &SearchOptions{Profile: ClaudeCode2_1_332})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				res, err := s.Search([]string{"tool", "srv", "select:tool_3", "tool_4 things", "+srv tool_1"}[(g+i)%5], 5)
				assert.NoError(t, err)
				assert.NotEmpty(t, res.Matches)
			}
		}()
	}
	for i := range 100 {
		require.NoError(t, r.Register(NewMCPTool("other", fmt.Sprintf("tool_%d", i), "More.", nil, nil)))
		if i%3 == 0 {
			r.Remove(fmt.Sprintf("mcp__other__tool_%d", i))
		}
	}
	wg.Wait()
}
