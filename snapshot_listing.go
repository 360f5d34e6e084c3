package toolsearch

import (
	"slices"
	"strings"
)

// The listings of the deferred tools (the system-prompt section and the
// <available-deferred-tools> block), rendered once per snapshot and view.

// promptTexts are the texts that list the deferred tools of one view (a
// scope) of one snapshot, rendered once.
type promptTexts struct {
	names   []string // sorted
	section string
	block   string
}

// renderTexts renders the texts for the deferred tools of s that in
// accepts.
func renderTexts(s *snapshot, in func(*entry) bool) *promptTexts {
	names := make([]string, 0, s.deferred.Len())
	for e := range s.deferredTools() {
		if in(e) {
			names = append(names, e.tool.Name)
		}
	}
	names = sortNames(names)
	return &promptTexts{names: names, section: renderSection(names), block: renderBlock(names)}
}

// sortNames sorts names taken in pool order: two sorted runs (tools not
// from MCP servers, then MCP tools), merged in one pass.
func sortNames(names []string) []string {
	split := 1
	for split < len(names) && names[split-1] <= names[split] {
		split++
	}
	if split >= len(names) {
		return names
	}
	a, b := names[:split], names[split:]
	if !slices.IsSorted(b) {
		slices.Sort(names)
		return names
	}
	out := make([]string, 0, len(names))
	for len(a) > 0 && len(b) > 0 {
		if b[0] < a[0] {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

func renderSection(names []string) string {
	if len(names) == 0 {
		return ""
	}
	n := len(sectionHeader) + 1
	for _, name := range names {
		n += len(name) + 2
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(sectionHeader)
	b.WriteByte('\n')
	for i, name := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name)
	}
	return b.String()
}

func renderBlock(names []string) string {
	if len(names) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(blockOpen)
	b.WriteByte('\n')
	for _, name := range names {
		b.WriteString(name)
		b.WriteByte('\n')
	}
	b.WriteString(blockClose)
	return b.String()
}
