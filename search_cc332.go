package toolsearch

import (
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/text"
	"github.com/toolsearch/toolsearch/internal/words"
)

// The query forms of ClaudeCode2_1_332, where they differ from the
// default profile's: the query's shaping, the exact name (case first),
// select: (bare MCP tool names, no loose matches) and the note naming the
// tools a query names that are already loaded.

// The defaults of SearchOptions that ClaudeCode2_1_332 changes.
const (
	defaultMaxQueryBytes332  = 64 << 10 // the longest 16,384 UTF-16 code units are 49,152 bytes
	defaultMaxSelectNames332 = 64       // Claude Code's cut
)

// maxQueryUnits is the length Claude Code 2.1.332 cuts a query to, in
// UTF-16 code units.
const maxQueryUnits = 16384

// maxLoadedDescription is where Claude Code 2.1.332 cuts an MCP tool's
// description when ToolSearch loads the tool, in UTF-16 code units (the
// tools sent in full are cut at maxSearchText).
const maxLoadedDescription = 16384

// cutMCPDescription returns the description of e cut at n UTF-16 code
// units, with "… [truncated]", when e is an MCP tool; else as it is.
func cutMCPDescription(e *entry, n int) string {
	if !e.isMCP {
		return e.tool.Description
	}
	if d, cut := text.UTF16Prefix(e.tool.Description, n); cut {
		return d + truncatedMark
	}
	return e.tool.Description
}

// loadedDescription returns the description a result gives for e: with
// ClaudeCode2_1_332 an MCP tool's is cut at 16,384 UTF-16 code units.
func (s *Searcher) loadedDescription(e *entry) string {
	if s.opts.Profile == ClaudeCode2_1_332 {
		return cutMCPDescription(e, maxLoadedDescription)
	}
	return e.tool.Description
}

// exact returns the tool that answers the trimmed query q in the
// exact-name form, or nil.
func (s *Searcher) exact(snap *snapshot, q string) *entry {
	if s.opts.Profile == ClaudeCode2_1_332 {
		return s.exact332(snap, q)
	}
	return snap.exact(q, s.in)
}

// finish332 adds to a result of ClaudeCode2_1_332 what that profile
// reports beyond the default one: the note on the tools the query names
// that are loaded already (q is the trimmed, shaped query; not for the
// select: and exact-name forms), and without matches the disconnected
// servers, for the no-match text.
func (s *Searcher) finish332(res *Result, snap *snapshot, q string) {
	if res.Form == FormPrefix || res.Form == FormRanked {
		if names := s.available332(snap, q); len(names) > 0 {
			res.cc.available = names
			res.Notes = append(res.Notes, cc332Available(names))
		}
	}
	if len(res.Matches) == 0 {
		for srv, st := range snap.servers {
			if st == ServerDisconnected {
				res.cc.disconnected = append(res.cc.disconnected, srv)
			}
		}
		slices.Sort(res.cc.disconnected)
	}
}

// shape332 cuts query as Claude Code 2.1.332 does before answering it: to
// 16,384 UTF-16 code units; then a select: query to its first maxNames
// comma-separated names (empty ones counted), and any other to its first
// maxTerms whitespace-separated terms, joined by single spaces (a query
// of at most maxTerms terms is kept as it is).
func shape332(query string, maxTerms, maxNames int) string {
	query, _ = text.UTF16Prefix(query, maxQueryUnits)
	if arg, ok := selectArg(query); ok {
		if strings.Count(arg, ",") < maxNames {
			return query
		}
		names := strings.SplitN(arg, ",", maxNames+1)
		return query[:len(query)-len(arg)] + strings.Join(names[:maxNames], ",")
	}
	if !text.MoreFields(query, maxTerms) {
		return query
	}
	return strings.Join(words.Fields(query)[:maxTerms], " ")
}

// exact332 returns the exact-name match of the trimmed query q, as Claude
// Code 2.1.332 finds it: the tool with that very name, else the first with
// it ignoring case (deferred tools first, pool order).
func (s *Searcher) exact332(snap *snapshot, q string) *entry {
	if e := snap.named(q); e != nil && s.in(e) {
		return e
	}
	return snap.exact(q, s.in)
}

// selectTools332 answers a select: query as Claude Code 2.1.332 does: each
// name (trimmed, empty ones dropped) is a tool's name or alias, deferred
// tools first, else every tool whose bare MCP tool name it is (in pool
// order, on any server); the tools in request order without duplicates.
// The names that match nothing go to res.NotFound, with close names, as
// with the default profile; there is no loose match.
func (s *Searcher) selectTools332(snap *snapshot, arg string, res *Result, buf []*entry) []*entry {
	found := buf
	var missing []string
	add := func(e *entry) {
		if !slices.Contains(found, e) {
			found = append(found, e)
		}
	}
	names := []string{words.TrimSpace(arg)}
	if strings.Contains(arg, ",") || names[0] == "" {
		names = selectNames(arg)
	}
	for _, n := range names {
		if e := s.selectOne332(snap, n); e != nil {
			add(e)
			continue
		}
		hit := false
		for _, e := range snap.bareNamed(n) {
			if s.in(e) {
				add(e)
				hit = true
			}
		}
		if !hit {
			missing = append(missing, n)
		}
	}
	s.reportMissing(snap, missing, res)
	return found
}

// selectOne332 returns the tool in scope named or aliased n, a deferred
// one first, or nil.
func (s *Searcher) selectOne332(snap *snapshot, n string) *entry {
	var other *entry
	for _, e := range [2]*entry{snap.named(n), snap.aliased(n)} {
		switch {
		case e == nil || !s.in(e):
		case e.deferred:
			return e
		case other == nil:
			other = e
		}
	}
	return other
}

// bareNamed returns the available tools whose bare MCP tool name is name,
// in pool order: the raw tool name (rawMCPNames) or, for a tool with a
// Server, the name Claude Code gives it (claudeCodeToolPart). The index of
// the pool is built on first use.
func (s *snapshot) bareNamed(name string) []*entry {
	return s.bare.get(s, func(*snapshot, map[string][]*entry) map[string][]*entry {
		m := map[string][]*entry{}
		for e := range s.pool.All() {
			_, tool, ok := rawMCPNames(&e.tool)
			if !ok || tool == "" {
				continue
			}
			keys := []string{tool}
			if k := claudeCodeToolPart(tool); k != tool && e.tool.Server != "" {
				keys = append(keys, k) // (Claude Code's name for it, for a tool with MCP information)
			}
			for _, k := range keys {
				m[k] = append(m[k], e)
			}
		}
		return m
	})[name]
}

// available332 returns the tools that the trimmed query q names and that
// are not deferred, as Claude Code 2.1.332 finds them for its "Already
// available" note: the query, its terms joined by '_', and each of its
// terms holding a '_' (a leading '+' dropped), each looked up as a name or
// alias, else as a bare MCP tool name; the tools in scope, in that order,
// without duplicates.
func (s *Searcher) available332(snap *snapshot, q string) []string {
	terms := words.Fields(q)
	for i, t := range terms {
		terms[i] = strings.TrimPrefix(t, "+")
	}
	keys := append([]string{q, strings.Join(terms, "_")}, slices.DeleteFunc(slices.Clone(terms), func(t string) bool { return !strings.Contains(t, "_") })...)
	var named []*entry
	add := func(e *entry) {
		if s.in(e) && !slices.Contains(named, e) {
			named = append(named, e)
		}
	}
	for _, k := range keys {
		if e := snap.named(k); e != nil {
			add(e)
		} else if e := snap.aliased(k); e != nil {
			add(e)
		} else {
			for _, e := range snap.bareNamed(k) {
				add(e)
			}
		}
	}
	var out []string
	for _, e := range named {
		if !e.deferred {
			out = append(out, e.tool.Name)
		}
	}
	return out
}
