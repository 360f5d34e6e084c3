package toolsearch

import (
	"encoding/json"
	"fmt"
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
	// Err, when not nil, says why the tool must not be registered: a
	// Registry refuses it with this error. NewMCPTool sets it when the
	// tool's _meta gives a key it reads a value of the wrong type
	// (wrapping ErrInvalidMeta). It is copied with the Tool, like every
	// field.
	Err error
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
		return errorf(ErrInvalidName, "empty")
	}
	if len(n) > maxNameLength {
		return errorf(ErrInvalidName, "%d bytes long, the limit is %d", len(n), maxNameLength)
	}
	var bad []string
	for i, c := range n {
		if !nameChar(c) {
			bad = append(bad, fmt.Sprintf("%q at byte %d", c, i))
		}
	}
	if len(bad) > 0 {
		return errorf(ErrInvalidName, "characters outside [A-Za-z0-9_.-]: %s", strings.Join(bad, ", "))
	}
	return nil
}

func nameChar(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// nameParts splits a tool name into the parts that keyword terms are
// matched against. An MCP name (mcp__server__tool) loses its prefix, is
// lowercased and split on "__" then "_". Any other name gets a space at every
// ASCII lowercase→uppercase boundary, '_' becomes a space, and it is
// lowercased and split on whitespace. Hyphens, dots and digits never split.
// It also reports whether the name scores as MCP.
func nameParts(name string) (parts []string, mcp bool) {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		for seg := range strings.SplitSeq(words.Lower(rest), "__") {
			for p := range strings.SplitSeq(seg, "_") {
				if p != "" {
					parts = append(parts, p)
				}
			}
		}
		return parts, true
	}
	return wordParts(name), false
}

// wordParts splits a name that is not an MCP name into its parts: a space
// at every ASCII lowercase→uppercase boundary, '_' a space, lowercased,
// split on whitespace.
func wordParts(name string) []string {
	var b strings.Builder
	b.Grow(len(name) + 8)
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
	return words.Fields(words.Lower(b.String()))
}
