package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch"
)

// The generator of catalogs and queries. Everything comes from a seeded
// random source, so a seed always gives the same set: the recorded file
// names the seeds it was made from.

// catTool is one tool of a catalog file (toolsearch.ParseCatalog's format).
type catTool struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	SearchHint  string   `json:"search_hint,omitempty"`
	ShouldDefer *bool    `json:"should_defer,omitempty"`
	AlwaysLoad  bool     `json:"always_load,omitempty"`
	Server      string   `json:"server,omitempty"`
	MCPToolName string   `json:"mcp_tool_name,omitempty"`
	Aliases     []string `json:"aliases,omitempty"`
}

// query is one query of a set: a string, or a string and max_results.
type query struct {
	Query      string `json:"query"`
	MaxResults *int   `json:"max_results,omitempty"`
}

// set is a catalog and the queries asked of it.
type set struct {
	Name    string    `json:"name"`
	Pending []string  `json:"pending_mcp_servers,omitempty"`
	Tools   []catTool `json:"tools,omitempty"`
	Queries []query   `json:"queries"`
}

var (
	verbs    = strings.Fields("get set list create delete update send read write search fetch find add remove open close run start stop query check edit post")
	nouns    = strings.Fields("issue issues pull request message messages file files channel channels user users task tasks repo branch commit comment page notebook cell calendar event weather forecast price ticket order report data json url http api web image")
	brands   = strings.Fields("github slack jira notion gitlab linear figma")
	oddWord  = strings.Fields("c++ a.b x-y 2fa v2 oauth2 e.g (x) Issue's c++, a-b createissue sendmessage send_message get-set")
	stop     = strings.Fields("the a an of to for and please me my that can with so it is in on")
	nonASCII = []string{"é", "café", "ÉCOLE", "İstanbul", "STRASSE", "ΣΊΣΥΦΟΣ", "获取", "日本語", "naïve", "😀"}
)

// servers are raw MCP server names: plain, dotted, spaced, camelCase,
// with "__" or a trailing "_", which NewMCPTool turns into names with a
// hash, while Claude Code 2.1.332 splits the raw name.
var servers = []string{"github", "slack", "my.srv", "My Server", "fs-tools", "linear", "x", "CamelSrv", "srv.v2", "claude.ai Gmail", "a__b", "jira_", "notion"}

// mcpTool returns a raw MCP tool name made of words ws in one of the
// shapes servers use.
func mcpToolName(r *rand.Rand, ws []string) string {
	switch r.IntN(10) {
	case 0, 1, 2, 3:
		return strings.Join(ws, "_")
	case 4:
		return strings.Join(ws, ".")
	case 5:
		return camel(ws, false)
	case 6:
		return title(ws, " ")
	case 7:
		return strings.Join(ws, "-")
	case 8:
		if len(ws) > 1 {
			return ws[0] + "_" + camel(ws[1:], false)
		}
		return ws[0] + ".v2"
	}
	return strings.Join(ws, "__")
}

func camel(ws []string, upper bool) string {
	var b strings.Builder
	for i, w := range ws {
		if i == 0 && !upper {
			b.WriteString(w)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

func title(ws []string, sep string) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(out, sep)
}

// builtinName returns the name of a tool that is not from an MCP server.
func builtinName(r *rand.Rand, ws []string) string {
	switch r.IntN(10) {
	case 0, 1, 2, 3, 4:
		return camel(ws, true)
	case 5:
		return camel(ws, false)
	case 6:
		return strings.Join(ws, "_")
	case 7:
		return strings.Join(ws, "-") + "2"
	case 8:
		return camel(ws, true) + "V2"
	}
	return strings.Join(ws, ".")
}

func pick(r *rand.Rand, l []string) string { return l[r.IntN(len(l))] }

func words(r *rand.Rand, n int) []string {
	ws := make([]string, 0, n)
	for len(ws) < n {
		var w string
		if len(ws) == 0 && r.IntN(3) > 0 {
			w = pick(r, verbs)
		} else if r.IntN(5) == 0 {
			w = pick(r, brands)
		} else {
			w = pick(r, nouns)
		}
		if !slices.Contains(ws, w) {
			ws = append(ws, w)
		}
	}
	return ws
}

// genText returns n words of description or hint text.
func genText(r *rand.Rand, n int, own []string) string {
	out := make([]string, 0, n)
	for range n {
		switch k := r.IntN(20); {
		case k < 4 && len(own) > 0:
			out = append(out, pick(r, own))
		case k < 6:
			out = append(out, pick(r, oddWord))
		case k < 7:
			out = append(out, pick(r, nonASCII))
		case k < 10:
			out = append(out, pick(r, stop))
		case k < 12:
			out = append(out, strings.ToUpper(pick(r, nouns)[:1])+pick(r, nouns)[1:])
		default:
			out = append(out, pick(r, append(append([]string{}, verbs...), nouns...)))
		}
	}
	return strings.Join(out, " ")
}

// longText returns a text of about n UTF-16 code units whose words after
// unit cut differ from those before it (marker words), so that a cut at
// cut changes what matches.
func longText(r *rand.Rand, n, cut int, before, after string) string {
	var b strings.Builder
	for utf16Len(b.String()) < cut-40 {
		b.WriteString(pick(r, nouns))
		if r.IntN(9) == 0 {
			b.WriteString(" é")
		}
		b.WriteByte(' ')
	}
	b.WriteString(before + " ")
	for utf16Len(b.String()) < cut+20 {
		b.WriteString("filler ")
	}
	b.WriteString(after)
	for utf16Len(b.String()) < n {
		b.WriteString(" " + pick(r, nouns))
	}
	return b.String()
}

func utf16Len(s string) int {
	n := 0
	for _, c := range s {
		n++
		if c >= 0x10000 {
			n++
		}
	}
	return n
}

// generator says which sets to make.
type generator struct {
	Seeds       int  `json:"seeds"`        // catalogs, from seeds 1..Seeds
	Queries     int  `json:"queries"`      // queries per catalog
	LongHints   bool `json:"long_hints"`   // hints longer than 4,096 units (the registry must accept them)
	LongQueries bool `json:"long_queries"` // queries near 16,384 UTF-16 code units, in every fifth catalog
}

// genOptions tune one catalog's generation.
type genOptions struct {
	longHints bool
	longQuery bool
}

// sets returns the generated sets gen-1 … gen-Seeds. Every eighth catalog
// has two MCP servers still connecting.
func (g generator) sets() []*set {
	var out []*set
	for seed := 1; seed <= g.Seeds; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 332))
		opt := genOptions{longHints: g.LongHints, longQuery: g.LongQueries && seed%5 == 0}
		s := &set{Name: fmt.Sprintf("gen-%d", seed), Tools: genCatalog(r, opt)}
		if seed%8 == 0 {
			s.Pending = []string{"calendar", "srv.pending"}
		}
		s.Queries = genQueries(r, s.Tools, g.Queries, opt)
		out = append(out, s)
	}
	return out
}

// genCatalog makes the tools of catalog seed.
func genCatalog(r *rand.Rand, opt genOptions) []catTool {
	var tools []catTool
	names := map[string]bool{}
	aliases := map[string]bool{}
	add := func(t catTool) {
		if names[t.Name] || aliases[t.Name] || t.Name == toolsearch.ToolSearchName {
			return
		}
		names[t.Name] = true
		tools = append(tools, t)
	}
	no := false
	// Tools that are not from MCP servers.
	for range 3 + r.IntN(12) {
		ws := words(r, 1+r.IntN(3))
		t := catTool{Name: builtinName(r, ws), Description: genText(r, r.IntN(14), ws)}
		if r.IntN(4) == 0 {
			t.SearchHint = genText(r, 2+r.IntN(4), ws)
		}
		switch k := r.IntN(20); {
		case k < 4:
			t.ShouldDefer = &no
		case k < 5:
			t.AlwaysLoad = true
		}
		if r.IntN(6) == 0 {
			a := camel(words(r, 2), true) + "Alias"
			if !names[a] && !aliases[a] {
				aliases[a] = true
				t.Aliases = []string{a}
			}
		}
		add(t)
		if r.IntN(8) == 0 { // names that differ only in case
			for _, v := range []string{strings.ToUpper(t.Name), strings.ToLower(t.Name)} {
				add(catTool{Name: v, Description: genText(r, r.IntN(8), ws)})
			}
		}
	}
	if r.IntN(6) == 0 { // an mcp__ name without a server
		ws := words(r, 2)
		add(catTool{Name: "mcp__legacy__" + strings.Join(ws, "_"), Description: genText(r, 6, ws)})
	}
	// MCP servers. One raw tool name may be used by several servers.
	shared := strings.Join(words(r, 2), "_")
	srvs := slices.Clone(servers)
	r.Shuffle(len(srvs), func(i, j int) { srvs[i], srvs[j] = srvs[j], srvs[i] })
	for _, srv := range srvs[:1+r.IntN(4)] {
		for i := range 1 + r.IntN(8) {
			ws := words(r, 1+r.IntN(3))
			raw := mcpToolName(r, ws)
			if i == 0 && r.IntN(2) == 0 {
				raw = shared
			}
			own := append(strings.Fields(strings.ToLower(srv)), ws...)
			t := catTool{Server: srv, MCPToolName: raw, Description: genText(r, r.IntN(16), own)}
			t.Name = toolsearch.NewMCPTool(srv, raw, "", nil, nil).Name
			if r.IntN(4) == 0 {
				t.SearchHint = genText(r, 2+r.IntN(4), own)
			}
			if r.IntN(10) == 0 {
				t.AlwaysLoad = true
			}
			if r.IntN(25) == 0 {
				t.Description = longText(r, 5000, 4096, pick(r, ws), "zebracut")
			}
			if opt.longHints && r.IntN(30) == 0 {
				t.SearchHint = longText(r, 4500, 4096, pick(r, ws), "hintcut")
			}
			add(t)
		}
	}
	return tools
}

// genQueries makes n queries for tools.
func genQueries(r *rand.Rand, tools []catTool, n int, opt genOptions) []query {
	var vocab, rawMCP, full, aliasNames []string
	for _, t := range tools {
		full = append(full, t.Name)
		aliasNames = append(aliasNames, t.Aliases...)
		if t.MCPToolName != "" {
			rawMCP = append(rawMCP, t.MCPToolName)
		}
		vocab = append(vocab, strings.Fields(strings.ToLower(strings.NewReplacer("_", " ", ".", " ", "-", " ").Replace(t.MCPToolName+" "+t.Server)))...)
		vocab = append(vocab, strings.Fields(t.Description)[:min(3, len(strings.Fields(t.Description)))]...)
		for _, marker := range []string{"zebracut", "hintcut"} {
			if strings.Contains(t.Description+t.SearchHint, marker) {
				vocab = append(vocab, marker, marker, marker)
			}
		}
	}
	vocab = append(vocab, verbs...)
	vocab = append(vocab, nouns[:10]...)
	if len(rawMCP) == 0 {
		rawMCP = []string{"send_message"}
	}
	caseOf := func(s string) string {
		switch r.IntN(8) {
		case 0:
			return strings.ToUpper(s)
		case 1:
			if s != "" {
				_, n := utf8.DecodeRuneInString(s)
				return strings.ToUpper(s[:n]) + s[n:]
			}
		case 2:
			return strings.ToLower(s)
		}
		return s
	}
	term := func() string {
		switch k := r.IntN(30); {
		case k < 2:
			return pick(r, oddWord)
		case k < 3:
			return pick(r, nonASCII)
		case k < 5:
			return caseOf(pick(r, rawMCP))
		default:
			return caseOf(pick(r, vocab))
		}
	}
	var qs []query
	for len(qs) < n {
		var q string
		switch k := r.IntN(100); {
		case k < 30: // keywords
			ts := make([]string, 1+r.IntN(4))
			for i := range ts {
				ts[i] = term()
			}
			q = strings.Join(ts, " ")
		case k < 40: // required terms
			ts := make([]string, 1+r.IntN(4))
			for i := range ts {
				ts[i] = term()
				if i == 0 || r.IntN(4) == 0 {
					ts[i] = "+" + ts[i]
				}
			}
			if r.IntN(10) == 0 {
				ts = append(ts, "+")
			}
			q = strings.Join(ts, " ")
		case k < 48: // a pasted raw MCP tool name, maybe with more words
			q = caseOf(pick(r, rawMCP))
			if r.IntN(3) == 0 {
				q = strings.NewReplacer(".", "_", " ", "_").Replace(q)
			}
			if r.IntN(3) == 0 {
				q += " " + term()
			}
		case k < 52: // joined name words
			ws := strings.FieldsFunc(strings.ToLower(pick(r, rawMCP)), func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
			q = strings.Join(ws, pick(r, []string{"", "-", "_"}))
		case k < 57: // a full name, in some case
			q = caseOf(pick(r, full))
			if r.IntN(4) == 0 {
				q = "  " + q + "\t"
			}
		case k < 70: // select:
			var ns []string
			for range 1 + r.IntN(4) {
				switch j := r.IntN(10); {
				case j < 4:
					ns = append(ns, pick(r, full))
				case j < 6:
					ns = append(ns, pick(r, rawMCP))
				case j < 7:
					ns = append(ns, strings.NewReplacer(".", "_", " ", "_").Replace(pick(r, rawMCP)))
				case j < 8 && len(aliasNames) > 0:
					ns = append(ns, pick(r, aliasNames))
				case j < 9:
					ns = append(ns, caseOf(pick(r, full)))
				default:
					ns = append(ns, pick(r, []string{"Nope", " x ", "", "mcp__nope__x"}))
				}
			}
			if r.IntN(12) == 0 { // more than 64 names
				for len(ns) < 70 {
					ns = append(ns, fmt.Sprintf("Missing%d", len(ns)))
				}
				ns = append(ns, full[r.IntN(len(full))])
			}
			q = pick(r, []string{"select:", "select:", "select:", "SELECT:", "Select: "}) + strings.Join(ns, ",")
		case k < 76: // MCP prefix
			var srvName string
			for _, t := range tools {
				if strings.HasPrefix(t.Name, "mcp__") && r.IntN(3) == 0 {
					srvName = t.Name[:strings.Index(t.Name[5:], "__")+5]
					if r.IntN(2) == 0 {
						rest := t.Name[len(srvName)+2:]
						srvName += "__" + rest[:min(len(rest), 1+r.IntN(4))]
					}
					break
				}
			}
			if srvName == "" {
				srvName = "mcp__zz"
			}
			q = caseOf(srvName)
			if r.IntN(6) == 0 {
				q += " " + term()
			}
		case k < 86: // a long request: more than 32 terms
			ts := make([]string, 33+r.IntN(28))
			for i := range ts {
				if r.IntN(3) == 0 {
					ts[i] = pick(r, stop)
				} else {
					ts[i] = term()
				}
			}
			q = strings.Join(ts, " ")
		case k < 90: // whitespace of every kind
			seps := []string{" ", "\t", "\u00a0", "\u3000", "  ", "\n", "\ufeff"}
			ts := []string{term(), term(), term()}
			q = pick(r, seps) + ts[0] + pick(r, seps) + ts[1] + pick(r, seps) + ts[2] + pick(r, seps)
		case k < 93 && opt.longQuery: // near 16,384 UTF-16 code units
			q = longQuery(r, term())
		default:
			q = term()
		}
		qq := query{Query: q}
		if r.IntN(4) == 0 {
			m := 1 + r.IntN(20)
			qq.MaxResults = &m
		}
		qs = append(qs, qq)
	}
	return qs
}

// longQuery returns a query of about 16,384 UTF-16 code units that ends
// with word: the cut at 16,384 units keeps all of it, part of it, or none.
func longQuery(r *rand.Rand, word string) string {
	pad := []string{"x", "é", "日", "😀"}[r.IntN(4)]
	unit := utf16Len(pad)
	target := 16384 - 1 - utf16Len(word) + r.IntN(7) - 3
	var b strings.Builder
	for n := 0; n+unit <= target; n += unit {
		b.WriteString(pad)
	}
	return pick(r, []string{"slack ", "", "+"}) + b.String() + " " + word
}
