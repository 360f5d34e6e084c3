package main

import (
	"slices"
	"strings"
)

// The comparison: the library's answer to a query against the oracle's,
// and, for the queries that differ, the cause, found by removing 2.1.332
// rules from the oracle one combination at a time (--ablate) until it
// gives the library's answer.

// diff is one query whose answers differ.
type diff struct {
	set    string
	query  query
	oracle oracleResult
	lib    libResult
	class  string
}

// same reports whether the library answered q as the oracle did: the same
// matches in the same order and, when texts is set, the same notes and
// no-match text.
func same(o *oracleResult, l *libResult, texts bool) bool {
	if l.Error != "" || !slices.Equal(o.Matches, l.Matches) {
		return false
	}
	if !texts {
		return true
	}
	return slices.Equal(o.Notes, l.reminders()) && (len(o.Matches) > 0 || o.noMatchText() == l.Content)
}

// ablations are the oracle variants tried, fewest rules removed first:
// each name is a class of difference. "uncut" feeds the oracle the MCP
// descriptions uncut (the library's 2.1.89 behaviour) instead of cut at
// 4,096 UTF-16 code units.
var ablations = []struct {
	name  string
	rules []string
	uncut bool
}{
	{"coarse parts (whole-name scores)", []string{"coarse"}, false},
	{"MCP name split from raw names", []string{"parse89"}, false},
	{"first 32 terms kept", []string{"terms"}, false},
	{"MCP description cut at 4,096", nil, true},
	{"coarse parts + raw-name split", []string{"coarse", "parse89"}, false},
	{"coarse parts + first 32 terms", []string{"coarse", "terms"}, false},
	{"raw-name split + first 32 terms", []string{"parse89", "terms"}, false},
	{"coarse parts + raw-name split + first 32 terms", []string{"coarse", "parse89", "terms"}, false},
	{"coarse parts + description cut", []string{"coarse"}, true},
	{"coarse parts + raw-name split + description cut", []string{"coarse", "parse89"}, true},
	{"coarse parts + raw-name split + first 32 terms + description cut", []string{"coarse", "parse89", "terms"}, true},
}

// shapeClass names a difference that no ablation explains, from the
// query's shape and the answers.
func shapeClass(s *set, q string, o *oracleResult, l *libResult) string {
	t := strings.TrimFunc(q, isJSSpace)
	switch {
	case l.Error != "":
		if strings.Contains(l.Error, "bytes long") {
			return "refused: query over the byte limit"
		}
		return "refused: " + l.Error
	case len(q) >= 7 && strings.EqualFold(q[:7], "select:"):
		if strings.Count(q, ",") >= 64 {
			return "select: more than 64 names"
		}
		onlyO := slices.ContainsFunc(o.Matches, func(n string) bool { return !slices.Contains(l.Matches, n) })
		onlyL := slices.ContainsFunc(l.Matches, func(n string) bool { return !slices.Contains(o.Matches, n) })
		switch {
		case onlyO && onlyL:
			return "select: bare MCP tool names (2.1.332) + case or separator fallback (library)"
		case onlyL:
			return "select: case or separator fallback (library)"
		case onlyO, !slices.Equal(o.Matches, l.Matches): // found, or found earlier, by a bare name
			return "select: bare MCP tool names (2.1.332)"
		}
		return textClass(o, l)
	case len(fields(t)) > 32:
		return "more than 32 terms: first 32 (2.1.332) vs most informative 32 (library)"
	case utf16Len(q) > 16384:
		return "query cut at 16,384 UTF-16 code units"
	case len(o.Matches) == 1 && len(l.Matches) == 1 && strings.EqualFold(o.Matches[0], l.Matches[0]):
		return "exact name: case-sensitive first (2.1.332)"
	case !slices.Equal(o.Matches, l.Matches):
		if joins(s, t, append(slices.Clone(o.Matches), l.Matches...)) {
			return "joined-parts rule (library only, +3)"
		}
		if hintCut(s, t) {
			return "search hint cut at 4,096 (2.1.332)"
		}
		if namesTool(t, l.Matches) {
			return "query names a tool (library's names form)"
		}
		return "ranking: other"
	}
	return textClass(o, l)
}

// textClass names a difference in the texts of answers with the same
// matches.
func textClass(o *oracleResult, l *libResult) string {
	if !slices.Equal(o.Notes, l.reminders()) {
		return "notes: already available (2.1.332)"
	}
	return "no-match text (2.1.332)"
}

// hintCut reports whether a term of query is in a tool's search hint only
// after its first 4,096 UTF-16 code units.
func hintCut(s *set, query string) bool {
	for _, tl := range s.Tools {
		if utf16Len(tl.SearchHint) <= maxMCPSearchDescription {
			continue
		}
		head := strings.ToLower(cutUTF16(tl.SearchHint, maxMCPSearchDescription))
		hint := strings.ToLower(tl.SearchHint)
		for _, term := range fields(strings.ToLower(query)) {
			term = strings.TrimPrefix(term, "+")
			if strings.Contains(hint, term) && !strings.Contains(head, term) {
				return true
			}
		}
	}
	return false
}

// joins reports whether a term of query, lowercased and without "_", "-"
// and ".", joins two or more adjacent 2.1.89 name parts of one of the
// tools named (the library's joined-parts rule fires).
func joins(s *set, query string, names []string) bool {
	for _, term := range fields(strings.ToLower(query)) {
		flat := strings.NewReplacer("_", "", "-", "", ".", "").Replace(strings.TrimPrefix(term, "+"))
		for _, n := range names {
			parts := nameParts89(n)
			for i := range parts {
				acc := parts[i]
				for j := i + 1; j < len(parts) && len(acc) < len(flat); j++ {
					acc += parts[j]
					if acc == flat {
						return true
					}
				}
			}
		}
	}
	return false
}

// namesTool reports whether a term of query, its case and the separators
// "_", "-" and "." aside, is the name, or the MCP tool name, of one of
// names: the library's names form lists such a tool first.
func namesTool(query string, names []string) bool {
	flatten := strings.NewReplacer("_", "", "-", "", ".", "")
	for _, term := range fields(strings.ToLower(query)) {
		flat := flatten.Replace(strings.TrimPrefix(term, "+"))
		for _, n := range names {
			short := n
			if rest, ok := strings.CutPrefix(n, "mcp__"); ok {
				if _, tool, ok := strings.Cut(rest, "__"); ok {
					short = tool
				}
			}
			if flat != "" && (flat == flatten.Replace(strings.ToLower(short)) || flat == flatten.Replace(strings.ToLower(n))) {
				return true
			}
		}
	}
	return false
}

// nameParts89 splits a name as the library's 2.1.89 profile does.
func nameParts89(name string) []string {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		var parts []string
		for _, seg := range strings.Split(strings.ToLower(rest), "__") {
			for _, p := range strings.Split(seg, "_") {
				if p != "" {
					parts = append(parts, p)
				}
			}
		}
		return parts
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' && i > 0 && name[i-1] >= 'a' && name[i-1] <= 'z' {
			b.WriteByte(' ')
		}
		if c == '_' {
			c = ' '
		}
		b.WriteByte(c)
	}
	return strings.Fields(strings.ToLower(b.String()))
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

func fields(s string) []string { return strings.FieldsFunc(s, isJSSpace) }

// firstDiffers reports whether the first match differs.
func firstDiffers(o *oracleResult, l *libResult) bool {
	a, b := "", ""
	if len(o.Matches) > 0 {
		a = o.Matches[0]
	}
	if len(l.Matches) > 0 {
		b = l.Matches[0]
	}
	return a != b || l.Error != ""
}
