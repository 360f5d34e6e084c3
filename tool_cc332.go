package toolsearch

import (
	"strings"

	"github.com/toolsearch/toolsearch/internal/words"
)

// The names Claude Code 2.1.332 scores a tool by (ClaudeCode2_1_332): the
// name parts, split from an MCP tool's raw server and tool names rather
// than from its name, and the coarse parts, the names whole.

// rawMCPNames returns the raw server and tool names of an MCP tool, as
// Claude Code 2.1.332 reads them, and whether t has them: for a tool with
// a Server, Server and MCPName (when MCPName is empty, the part of the
// name after mcp__<server>__, or else the name); for another tool named
// mcp__<server>__<tool>, the name split at the first "__" after the prefix
// ("mcp__x" alone is server x with no tool name; a name starting
// "mcp____" has neither).
func rawMCPNames(t *Tool) (server, tool string, ok bool) {
	if t.Server != "" {
		tool = t.MCPName
		if tool == "" {
			tool = t.Name
			if _, rest, ok := splitMCPName(t.Name); ok && rest != "" {
				tool = rest
			}
		}
		return t.Server, tool, true
	}
	return splitMCPName(t.Name)
}

// splitMCPName splits mcp__server__tool at the first "__" after the
// prefix.
func splitMCPName(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", "", false
	}
	i := strings.Index(rest, "__")
	switch {
	case i < 0:
		return rest, "", rest != ""
	case i == 0:
		return "", "", false
	}
	return rest[:i], rest[i+2:], true
}

// nameParts332 returns the name parts and the coarse parts of t as Claude
// Code 2.1.332 scores them, and whether t scores as an MCP tool. An MCP
// tool's coarse parts are its raw server and tool names, lowercased (the
// empty ones left out), and its name parts are theirs split on runs of
// whitespace, '_' and '.'; another tool's coarse part is its name
// lowercased, and its name parts are as wordParts splits them.
func nameParts332(t *Tool) (parts, coarse []string, mcp bool) {
	server, tool, ok := rawMCPNames(t)
	if !ok {
		return wordParts(t.Name), []string{words.Lower(t.Name)}, false
	}
	for _, n := range [2]string{server, tool} {
		if n == "" {
			continue
		}
		c := words.Lower(n)
		coarse = append(coarse, c)
		parts = append(parts, strings.FieldsFunc(c, func(r rune) bool { return r == '_' || r == '.' || words.IsSpace(r) })...)
	}
	return parts, coarse, true
}

// claudeCodeToolPart returns the tool's part of the name Claude Code gives
// an MCP tool: every UTF-16 code unit outside [A-Za-z0-9_-] replaced by
// '_' (a character outside the Basic Multilingual Plane becomes "__"), and
// for a name starting "claude.ai ", runs of '_' collapsed and '_' trimmed
// from both ends.
func claudeCodeToolPart(tool string) string {
	var b strings.Builder
	b.Grow(len(tool))
	for _, c := range tool {
		switch {
		case c >= 0x10000:
			b.WriteString("__")
		case c == '.' || !nameChar(c):
			b.WriteByte('_')
		default:
			b.WriteRune(c)
		}
	}
	s := b.String()
	if strings.HasPrefix(tool, "claude.ai ") {
		for strings.Contains(s, "__") {
			s = strings.ReplaceAll(s, "__", "_")
		}
		s = strings.Trim(s, "_")
	}
	return s
}
