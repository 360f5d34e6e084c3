package toolsearch

import (
	"encoding/json"
	"fmt"
)

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
		return nil, wrapf(err, "catalog")
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
			return nil, wrapf(err, "catalog: tools[%d] (name %v)", i, named.Name)
		}
		if c.Name == "" {
			return nil, wrapf(errorf(ErrInvalidName, "no name"), "catalog: tools[%d]", i)
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
