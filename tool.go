package toolsearch

import (
	"encoding/json"
	"fmt"
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
	// Server is the MCP server the tool comes from; empty for other tools.
	Server string
	// MCPName is the tool's raw name on its MCP server.
	MCPName string
	// Aliases are other names that select:NAME accepts for this tool.
	Aliases []string
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
// server: mcp__<server>__<tool>, with every character outside
// [A-Za-z0-9_-] replaced by '_'.
func mcpToolName(server, tool string) string {
	return "mcp__" + sanitizeMCP(server) + "__" + sanitizeMCP(tool)
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

// NewMCPTool converts a tool listed by MCP server server into a Tool: its
// name is mcp__<server>__<name> with every character of server and name
// outside [A-Za-z0-9_-] replaced by '_', a description longer than 2,048
// characters is cut there and ends with "… [truncated]", and the _meta keys
// "anthropic/alwaysLoad" (boolean true) and "anthropic/searchHint" (a
// string; whitespace runs collapsed, trimmed) set AlwaysLoad and SearchHint.
// The schema is not validated here; registering the tool does that.
func NewMCPTool(server, name, description string, inputSchema json.RawMessage, meta map[string]any) Tool {
	t := Tool{
		Name:        mcpToolName(server, name),
		Description: truncateDescription(description),
		InputSchema: slices.Clone(inputSchema),
		Server:      server,
		MCPName:     name,
	}
	if v, ok := meta["anthropic/alwaysLoad"].(bool); ok && v {
		t.AlwaysLoad = true
	}
	if v, ok := meta["anthropic/searchHint"].(string); ok {
		t.SearchHint = strings.Join(words.Fields(v), " ")
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
