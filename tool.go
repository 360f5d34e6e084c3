package toolsearch

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/words"
)

// The names of the tools the package defines.
const (
	// ToolSearchName is the name of the ToolSearch tool. A registered tool
	// with this name is never deferred.
	ToolSearchName = "ToolSearch"
	// CallToolName is the name of the call bridge tool (see
	// SessionOptions.CallBridge).
	CallToolName = "CallTool"
)

// maxNameLength is the longest tool name a Registry accepts, in bytes.
const maxNameLength = 128

// Tool is one tool definition. Name is required; every other field is
// optional. A Tool is a value: the Registry copies it (Aliases and
// InputSchema included) when it is registered.
type Tool struct {
	// Name is the name the model calls the tool by: 1 to 128 characters
	// from [A-Za-z0-9_.-]. MCP tools are named mcp__<server>__<tool> (see
	// NewMCPTool).
	Name string
	// Description is the text the model sees.
	Description string
	// InputSchema is the tool's input JSON Schema (a JSON object). Empty
	// means {"type":"object"}. It is validated when the tool is registered.
	InputSchema json.RawMessage
	// LoadSchema, when InputSchema is empty, supplies the schema lazily: it
	// is called at most once per registered Tool value, the first time the
	// tool is returned by a search, and its result is validated then. A
	// tool whose LoadSchema fails is left out of that result with a note.
	LoadSchema func() (json.RawMessage, error)
	// SearchHint is a short phrase of extra search words.
	SearchHint string
	// ShouldDefer asks for a tool that is not from an MCP server to be
	// deferred. MCP tools are always deferred unless AlwaysLoad is set.
	ShouldDefer bool
	// AlwaysLoad keeps the tool loaded: it is never deferred and never
	// returned by keyword searches. It beats everything else.
	AlwaysLoad bool
	// metaBad is what NewMCPTool found wrong in the tool's _meta: the JSON
	// kind (metaKinds) of each of metaKeys that has the wrong type, 0 for
	// one that is fine. A Registry refuses the tool. Bytes, placed after
	// the booleans, so that a Tool is no larger for them.
	metaBad [2]uint8
	// Server is the MCP server the tool comes from; empty for other tools.
	Server string
	// MCPName is the tool's raw name on its MCP server.
	MCPName string
	// Aliases are other names that select:NAME accepts for this tool.
	Aliases []string
}

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

// metaErr returns the error for a Tool whose _meta had values of the wrong
// type, or nil.
func (t *Tool) metaErr() error {
	var bad []string
	for i, k := range t.metaBad {
		if k != 0 {
			bad = append(bad, fmt.Sprintf("%q is %s, want %s", metaKeys[i].key, metaKinds[k], metaKeys[i].want))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrInvalidMeta, strings.Join(bad, "; "))
}

// isMCP reports whether the tool comes from an MCP server: Server is set or
// the name starts with "mcp__".
func (t *Tool) isMCP() bool {
	return t.Server != "" || strings.HasPrefix(t.Name, "mcp__")
}

// Deferred reports whether the tool is deferred: AlwaysLoad → no; MCP tool →
// yes; named ToolSearch → no; otherwise ShouldDefer.
func (t *Tool) Deferred() bool {
	switch {
	case t.AlwaysLoad:
		return false
	case t.isMCP():
		return true
	case t.Name == ToolSearchName:
		return false
	}
	return t.ShouldDefer
}

// checkName reports whether n is a valid tool name, naming every bad
// character.
func checkName(n string) error {
	if n == "" {
		return fmt.Errorf("%w: empty", ErrInvalidName)
	}
	if len(n) > maxNameLength {
		return fmt.Errorf("%w: %d bytes long, the limit is %d", ErrInvalidName, len(n), maxNameLength)
	}
	var bad []string
	for i, c := range n {
		if !nameChar(c) {
			bad = append(bad, fmt.Sprintf("%q at byte %d", c, i))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w: characters outside [A-Za-z0-9_.-]: %s", ErrInvalidName, strings.Join(bad, ", "))
	}
	return nil
}

func nameChar(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
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
// ignored: registering the tool fails with ErrInvalidMeta, naming the key.
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
	switch v := meta[metaKeys[0].key].(type) {
	case nil:
	case bool:
		t.AlwaysLoad = v
	default:
		t.metaBad[0] = metaKind(v)
	}
	switch v := meta[metaKeys[1].key].(type) {
	case nil:
	case string:
		t.SearchHint = strings.Join(words.Fields(v), " ")
	default:
		t.metaBad[1] = metaKind(v)
	}
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

// catalogTool is one tool of a catalog file.
type catalogTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	SearchHint  string          `json:"search_hint"`
	ShouldDefer *bool           `json:"should_defer"`
	AlwaysLoad  bool            `json:"always_load"`
	Server      string          `json:"server"`
	MCPToolName string          `json:"mcp_tool_name"`
	Aliases     []string        `json:"aliases"`
}

// ParseCatalog decodes a catalog file:
//
//	{"tools": [{"name", "description", "input_schema", "search_hint",
//	  "should_defer", "always_load", "server", "mcp_tool_name", "aliases"}]}
//
// Every field but name is optional. should_defer defaults to true: a
// catalog lists the tools to defer, and core tools say false. A tool with a
// server is an MCP tool; its name is used as given. Other keys are ignored.
// The tools are not validated here: register them to do that. An error
// names the tool (by index and name) that could not be decoded.
func ParseCatalog(data []byte) ([]Tool, error) {
	var doc struct {
		Tools *[]json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	if doc.Tools == nil {
		return nil, fmt.Errorf(`catalog: no "tools" array`)
	}
	tools := make([]Tool, 0, len(*doc.Tools))
	for i, raw := range *doc.Tools {
		var c catalogTool
		if err := json.Unmarshal(raw, &c); err != nil {
			var named struct{ Name any }
			_ = json.Unmarshal(raw, &named)
			return nil, fmt.Errorf("catalog: tools[%d] (name %v): %w", i, named.Name, err)
		}
		if c.Name == "" {
			return nil, fmt.Errorf("catalog: tools[%d]: %w: no name", i, ErrInvalidName)
		}
		if string(c.InputSchema) == "null" {
			c.InputSchema = nil
		}
		tools = append(tools, Tool{
			Name:        c.Name,
			Description: c.Description,
			InputSchema: c.InputSchema,
			SearchHint:  c.SearchHint,
			ShouldDefer: c.ShouldDefer == nil || *c.ShouldDefer,
			AlwaysLoad:  c.AlwaysLoad,
			Server:      c.Server,
			MCPName:     c.MCPToolName,
			Aliases:     c.Aliases,
		})
	}
	return tools, nil
}
