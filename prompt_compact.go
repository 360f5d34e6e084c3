package toolsearch

import (
	"slices"
	"strconv"
	"strings"
)

// The compact form of the lists of deferred tools, for catalogs too large
// to list by name (SearchOptions.MaxListingBytes). A listing is one or
// more lists (a header, entries, maybe a closing line) joined by blank
// lines. When the whole listing is longer than the budget:
//
//  1. the names of one MCP server, the names of one list that start with
//     the same "mcp__server__", become one entry "mcp__server__* (N tools)"
//     in their place: the groups that save the most bytes first (ties by
//     list, then name), only as many as needed for the listing to fit;
//  2. if it is still too long once every such group is made, the entries
//     are kept in reading order while they fit, and each list whose
//     entries were left out ends with "…and N more tools not listed";
//  3. a note after the lists says what a group and that line mean, and how
//     ToolSearch reaches those tools (the name prefix, keywords, select:).
//
// The text is then at most the budget, unless its fixed sentences (the
// headers, the count lines and the note) alone are longer: then it lists
// no names, only the counts. Nothing is left out without a count.

// compactNote follows a listing in its compact form.
const compactNote = `Not every deferred tool above is listed by name: a line "PREFIX* (N tools)" stands for N tools whose names start with PREFIX, and a line "…and N more tools not listed" counts tools left out. ToolSearch reaches all of them: query a name prefix such as "mcp__github__" for the tools whose names start with it (a longer prefix narrows them), query keywords, or load tools by name with "select:Name1,Name2".`

// The sentences ToolSearch's description gains when the listing may be
// compact: one for the query forms, one for a pattern strategy's.
const (
	compactHintQuery   = "\n\nWhen the list of deferred tools is long, some are listed as groups (\"mcp__github__* (42 tools)\") or only counted: query the prefix (\"mcp__github__\") for those tools, a longer prefix to narrow them, keywords to rank them, or select: to load them by name."
	compactHintPattern = "\n\nWhen the list of deferred tools is long, some are listed as groups (\"mcp__github__* (42 tools)\") or only counted: the pattern \"^mcp__github__\" matches those tools, other patterns rank them, and select: loads them by name."
)

// unlistedNote is the note of a result without matches when the listing
// the model was given is compact.
const unlistedNote = `Some deferred tools are not listed by name (a line "mcp__server__* (N tools)", or "…and N more tools not listed"): query a name prefix such as "mcp__server__" for the tools whose names start with it, other keywords, or select:Name if you know the name.`

// listPart is one list of a listing: head, then a line break and the
// entries separated by sep, then, when foot is set, a line break and foot.
type listPart struct {
	head, sep, foot string
	names           []string // sorted, without duplicates
}

// listEntry is one entry of a compact list: a name, a group, or the count
// of the entries left out.
type listEntry struct {
	text  string
	tools int // the tools it stands for
}

// compactListing returns the compact form of parts (the lists, joined by
// blank lines) within budget bytes, followed by the note and, when set,
// tail (a fixed paragraph); ok is false, and text "", when the lists fit
// in budget as they are (the caller's own text is then the listing).
func compactListing(parts []listPart, tail string, budget int) (text string, ok bool) {
	size := 0
	for i, p := range parts {
		size += partFixed(p, i)
		for j, n := range p.names {
			size += len(n) + sepLen(p, j)
		}
	}
	if tail != "" {
		size += 2 + len(tail)
	}
	if size <= budget {
		return "", false
	}
	size += 2 + len(compactNote)
	groups := serverGroups(parts)
	made := 0
	for made < len(groups) && size > budget {
		size -= groups[made].saving
		made++
	}
	entries := listEntries(parts, groups[:made])
	if size > budget {
		cutEntries(parts, entries, tail, budget)
	}
	var b strings.Builder
	b.Grow(min(size, budget) + 64)
	for i, p := range parts {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(p.head)
		b.WriteByte('\n')
		for j, e := range entries[i] {
			if j > 0 {
				b.WriteString(p.sep)
			}
			b.WriteString(e.text)
		}
		if p.foot != "" {
			b.WriteByte('\n')
			b.WriteString(p.foot)
		}
	}
	b.WriteString("\n\n")
	b.WriteString(compactNote)
	if tail != "" {
		b.WriteString("\n\n")
		b.WriteString(tail)
	}
	return b.String(), true
}

// listEntries returns the entries of each list: its names, with the runs
// of groups in their place.
func listEntries(parts []listPart, groups []serverGroup) [][]listEntry {
	slices.SortFunc(groups, func(a, b serverGroup) int {
		if a.part != b.part {
			return a.part - b.part
		}
		return a.start - b.start
	})
	entries := make([][]listEntry, len(parts))
	for i, p := range parts {
		var es []listEntry
		j := 0
		for len(groups) > 0 && groups[0].part == i {
			g := groups[0]
			groups = groups[1:]
			for _, n := range p.names[j:g.start] {
				es = append(es, listEntry{n, 1})
			}
			es = append(es, listEntry{groupText(g.prefix, g.end-g.start), g.end - g.start})
			j = g.end
		}
		for _, n := range p.names[j:] {
			es = append(es, listEntry{n, 1})
		}
		entries[i] = es
	}
	return entries
}

// partFixed is the length of list i's fixed text: the blank line before
// it, its head and foot and their line breaks.
func partFixed(p listPart, i int) int {
	n := len(p.head) + 1
	if i > 0 {
		n += 2
	}
	if p.foot != "" {
		n += 1 + len(p.foot)
	}
	return n
}

// sepLen is the length of the separator before entry j of p.
func sepLen(p listPart, j int) int {
	if j == 0 {
		return 0
	}
	return len(p.sep)
}

// cutEntries keeps the entries in reading order while they fit in
// budget, with room kept for one count line per list, and ends each list
// that lost entries with the count of the tools they stood for.
func cutEntries(parts []listPart, entries [][]listEntry, tail string, budget int) {
	room := budget - 2 - len(compactNote)
	if tail != "" {
		room -= 2 + len(tail)
	}
	for i, p := range parts {
		room -= partFixed(p, i) + len(p.sep) + len(moreText(len(p.names)))
	}
	full := room < 0
	for i, p := range parts {
		kept := 0
		for j, e := range entries[i] {
			n := len(e.text) + sepLen(p, j)
			if full || n > room {
				full = true
				break
			}
			room -= n
			kept++
		}
		left := 0
		for _, e := range entries[i][kept:] {
			left += e.tools
		}
		if left > 0 {
			entries[i] = append(entries[i][:kept], listEntry{moreText(left), left})
		}
	}
}

// moreText counts the tools a list left out.
func moreText(n int) string {
	if n == 1 {
		return "…and 1 more tool not listed"
	}
	return "…and " + strconv.Itoa(n) + " more tools not listed"
}

// groupText is the entry that stands for n tools of one MCP server.
func groupText(prefix string, n int) string {
	return prefix + "* (" + strconv.Itoa(n) + " tools)"
}

// serverGroup is a run of names of one list with the same MCP server
// prefix, and the bytes that listing them as one entry saves.
type serverGroup struct {
	part, start, end int
	prefix           string
	saving           int
}

// serverGroups returns the groups worth making in parts (two names or
// more, saving bytes), the largest saving first, then by list and
// position.
func serverGroups(parts []listPart) []serverGroup {
	var out []serverGroup
	for i, p := range parts {
		for j := 0; j < len(p.names); {
			prefix := serverPrefix(p.names[j])
			k := j + 1
			if prefix != "" {
				for k < len(p.names) && strings.HasPrefix(p.names[k], prefix) {
					k++
				}
			}
			if n := k - j; n >= 2 {
				saving := (n - 1) * len(p.sep)
				for _, name := range p.names[j:k] {
					saving += len(name)
				}
				if saving -= len(groupText(prefix, n)); saving > 0 {
					out = append(out, serverGroup{part: i, start: j, end: k, prefix: prefix, saving: saving})
				}
			}
			j = k
		}
	}
	slices.SortStableFunc(out, func(a, b serverGroup) int { return b.saving - a.saving })
	return out
}

// serverPrefix returns the MCP server part of name, "mcp__server__", or
// "" when name has none (not an MCP name, or an empty server).
func serverPrefix(name string) string {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return ""
	}
	srv, _, ok := strings.Cut(rest, "__")
	if !ok || srv == "" {
		return ""
	}
	return "mcp__" + srv + "__"
}

// The listings of the default profile as lists.

func sectionPart(names []string) listPart {
	return listPart{head: sectionHeader, sep: ", ", names: names}
}

func blockPart(names []string) listPart {
	return listPart{head: blockOpen, sep: "\n", foot: blockClose, names: names}
}

// deltaParts returns the lists of a delta announcement (see deltaText).
func deltaParts(added []string, gone goneTools) []listPart {
	var parts []listPart
	for _, l := range []struct {
		head  string
		names []string
	}{{deltaAdded, added}, {deltaRemoved, gone.disconnected}, {deltaDropped, gone.removed}, {deltaLoaded, gone.loaded}} {
		if len(l.names) > 0 {
			parts = append(parts, listPart{head: l.head, sep: "\n", names: sortedCopy(l.names)})
		}
	}
	return parts
}

// compactDelta returns deltaText(added, gone), or its compact form when it
// is longer than budget (budget 0: no bound).
func compactDelta(added []string, gone goneTools, budget int) string {
	if budget > 0 {
		if t, ok := compactListing(deltaParts(added, gone), "", budget); ok {
			return t
		}
	}
	return deltaText(added, gone)
}

// compactDelta332 returns cc332Delta(added, removed), or, when it is
// longer than budget (budget 0: no bound), the compact form of its lists:
// the names added, the MCP tools removed, the other tools removed, each
// under Claude Code 2.1.332's sentence, then the ambient-context
// paragraph after a removal.
func compactDelta332(added, removed []string, budget int) string {
	t := cc332Delta(added, removed)
	if budget <= 0 || len(t) <= budget {
		return t
	}
	mcp, other := splitMCP(removed)
	var parts []listPart
	for _, l := range []struct {
		head  string
		names []string
	}{{cc332Added, added}, {cc332RemovedMCP, mcp}, {cc332RemovedOther, other}} {
		if len(l.names) > 0 {
			parts = append(parts, listPart{head: l.head, sep: "\n", names: l.names})
		}
	}
	tail := ""
	if len(removed) > 0 {
		tail = cc332Ambient
	}
	if c, ok := compactListing(parts, tail, budget); ok {
		return c
	}
	return t
}
