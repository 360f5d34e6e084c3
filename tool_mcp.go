package toolsearch

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/words"
)

// MCP tools: their names (mcp__server__tool, sanitized and, when that
// loses information, hashed), their descriptions, and the _meta keys the
// package reads.

// metaKeys are the _meta keys NewMCPTool reads, and the type each wants.
var metaKeys = [2]struct{ key, want string }{
	{"anthropic/alwaysLoad", "a boolean"},
	{"anthropic/searchHint", "a string"},
}

// metaKinds names the JSON kinds of a _meta value; 0 is not one.
var metaKinds = [...]string{"", "a boolean", "a string", "a number", "an object", "an array"}

func metaKind(v any) uint8 {
	switch v.(type) {
	case bool:
		return 1
	case string:
		return 2
	case float64, json.Number:
		return 3
	case map[string]any:
		return 4
	}
	return 5
}

// metaErr returns the error for _meta values of the wrong kinds (by
// metaKeys; 0: fine), or nil.
func metaErr(kinds [len(metaKeys)]uint8) error {
	var bad []string
	for i, k := range kinds {
		if k != 0 {
			bad = append(bad, fmt.Sprintf("%q is %s, want %s", metaKeys[i].key, metaKinds[k], metaKeys[i].want))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return errorf(ErrInvalidMeta, "%s", strings.Join(bad, "; "))
}

// mcpToolName returns the name NewMCPTool gives tool tool of MCP server
// server (see NewMCPTool).
func mcpToolName(server, tool string) string {
	return "mcp__" + mcpServerPart(server) + "__" + mcpToolPart(tool)
}

// mcpServerPart returns the server's part of an MCP tool name: the server
// name with each character outside [A-Za-z0-9_-] replaced by '_'. If that
// changed it, or it holds "__" or ends with '_' (which would make the
// split between server and tool ambiguous), runs of '_' are collapsed, a
// final '_' dropped, and "_" and a hash of the server name appended.
func mcpServerPart(server string) string {
	s := sanitizeMCP(server)
	if s == server && !strings.Contains(s, "__") && !strings.HasSuffix(s, "_") {
		return s
	}
	for strings.Contains(s, "__") {
		s = strings.ReplaceAll(s, "__", "_")
	}
	return strings.TrimSuffix(s, "_") + "_" + nameHash(server)
}

// mcpToolPart returns the tool's part of an MCP tool name: the tool name
// with each character outside [A-Za-z0-9_-] replaced by '_', and, if that
// changed it, "_" and a hash of the tool name appended.
func mcpToolPart(tool string) string {
	if s := sanitizeMCP(tool); s != tool {
		return s + "_" + nameHash(tool)
	}
	return tool
}

// nameHash returns 8 hexadecimal digits of the 32-bit FNV-1a hash of s:
// stable across processes and versions, so that a tool keeps its name.
func nameHash(s string) string {
	h := fnv.New32a()
	h.Write([]byte(s))
	return fmt.Sprintf("%08x", h.Sum32())
}

func sanitizeMCP(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, c := range s {
		if c == '.' || !nameChar(c) {
			c = '_'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// maxMCPDescription is the length, in characters, at which NewMCPTool cuts
// an MCP tool's description.
const maxMCPDescription = 2048

const truncatedMark = "… [truncated]"

// NewMCPTool converts a tool listed by MCP server server into a Tool. A
// description longer than 2,048 characters is cut there and ends with "…
// [truncated]", and the _meta keys "anthropic/alwaysLoad" (a boolean) and
// "anthropic/searchHint" (a string; whitespace runs collapsed, trimmed) set
// AlwaysLoad and SearchHint; a value of another type (null aside) is not
// ignored: the Tool's Err says so, wrapping ErrInvalidMeta and naming the
// key, and a Registry refuses the tool.
// The schema is not validated here; registering the tool does that.
//
// # Names
//
// The name is mcp__<server>__<tool>, as Claude Code names MCP tools, with
// every character of server and tool outside [A-Za-z0-9_-] replaced by
// '_'. When that loses information, a hash keeps distinct tools distinct:
//
//   - a tool name that had a character replaced gets "_" and 8 hexadecimal
//     digits of a hash of the raw name: "a.b" → a_b_1a2b3c4d, while "a_b"
//     stays a_b, and two tools named in Chinese get different names;
//   - a server name that had a character replaced, or holds "__" or ends
//     with '_', has its runs of '_' collapsed, a final '_' dropped, and
//     "_" and a hash of the raw name appended: servers "my.srv" and
//     "my_srv" differ (mcp__my_srv_<hash>__t and mcp__my_srv__t), and
//     server "a__b" with tool "c" no longer takes the name of server "a"
//     with tool "b__c" (mcp__a__b__c).
//
// So the server part of a name never holds "__": the name says which
// server the tool is from, and a server cannot list a tool that takes the
// name of another server's tool. The hash is FNV-1a, the same in every
// process. The names that need no hash are Claude Code's.
func NewMCPTool(server, name, description string, inputSchema json.RawMessage, meta map[string]any) Tool {
	t := Tool{
		Name:        mcpToolName(server, name),
		Description: truncateDescription(description),
		InputSchema: slices.Clone(inputSchema),
		Server:      server,
		MCPName:     name,
	}
	var bad [len(metaKeys)]uint8
	switch v := meta[metaKeys[0].key].(type) {
	case nil:
	case bool:
		t.AlwaysLoad = v
	default:
		bad[0] = metaKind(v)
	}
	switch v := meta[metaKeys[1].key].(type) {
	case nil:
	case string:
		t.SearchHint = strings.Join(words.Fields(v), " ")
	default:
		bad[1] = metaKind(v)
	}
	t.Err = metaErr(bad)
	return t
}

func truncateDescription(d string) string {
	n := 0
	for i := range d {
		if n == maxMCPDescription {
			return d[:i] + truncatedMark
		}
		n++
	}
	return d
}
