package toolsearch

import (
	"bytes"
	"fmt"

	"github.com/toolsearch/toolsearch/internal/jsonfast"
)

// ParseCatalog decodes a catalog file:
//
//	{"tools": [{"name", "description", "input_schema", "search_hint",
//	  "should_defer", "always_load", "server", "mcp_tool_name", "aliases"}]}
//
// Every field but name is optional. should_defer defaults to true: a
// catalog lists the tools to defer, and core tools say false. A tool with a
// server is an MCP tool; its name is used as given. Other keys are ignored;
// keys match as encoding/json matches them (ignoring case), and of a key
// given twice the last counts. The tools are not validated here: register
// them to do that.
//
// The file is read in one pass, each tool decoded once; an input schema is
// checked to be JSON and kept as its bytes (copied: the tools do not hold
// on to data). An error names the byte where the input went wrong and the
// tool (by index and name) it was in.
func ParseCatalog(data []byte) ([]Tool, error) {
	p := catalogParser{r: jsonfast.NewReader(data)}
	var tools []Tool
	// nameless is the first tool without a name in the last "tools" array:
	// an error once the whole document is read (a later "tools" key
	// replaces the array, as with encoding/json), not before.
	nameless, namelessAt := -1, 0
	err := p.r.Object(func(key []byte) error {
		if !keyIs(key, "tools") {
			_, err := p.r.Raw()
			return err
		}
		null := p.r.Kind() == "null"
		tools, nameless = nil, -1
		if err := p.r.Array(func(i int) error {
			t, err := p.tool(data)
			if err != nil {
				return p.toolError(data, i, err)
			}
			if t.Name == "" && nameless < 0 {
				nameless, namelessAt = i, p.start
			}
			tools = append(tools, t)
			return nil
		}); err != nil {
			return err
		}
		if tools == nil && !null {
			tools = []Tool{} // "tools": [] is an empty catalog, "tools": null none
		}
		return nil
	})
	if err == nil {
		err = p.r.End()
	}
	if err == nil && nameless >= 0 {
		p.start = namelessAt
		err = p.toolError(data, nameless, errorf(ErrInvalidName, "no name"))
	}
	if err != nil {
		if p.inTool {
			return nil, err
		}
		return nil, wrapf(err, "catalog")
	}
	if tools == nil {
		return nil, fmt.Errorf(`catalog: no "tools" array`)
	}
	return tools, nil
}

// catalogParser holds the state of one ParseCatalog.
type catalogParser struct {
	r       *jsonfast.Reader
	inTool  bool   // the error is a tool's, and says so
	start   int    // the offset of the tool being read
	strs    []byte // the current tool's strings, decoded, end to end
	schemas []byte // the chunk the input schemas are copied into
}

// schemaChunk is the size of the chunks input schemas are copied into:
// one allocation for many tools.
const schemaChunk = 64 << 10

// keepSchema returns a copy of raw, in the current chunk.
func (p *catalogParser) keepSchema(raw []byte) []byte {
	if len(raw) > schemaChunk/4 {
		return bytes.Clone(raw)
	}
	if cap(p.schemas)-len(p.schemas) < len(raw) {
		p.schemas = make([]byte, 0, schemaChunk)
	}
	n := len(p.schemas)
	p.schemas = append(p.schemas, raw...)
	return p.schemas[n:len(p.schemas):len(p.schemas)]
}

// catalogFields are the keys of a catalog tool.
var catalogFields = []string{"name", "description", "input_schema", "search_hint", "should_defer",
	"always_load", "server", "mcp_tool_name", "aliases"}

// keyIs reports whether key names field (field is lower case ASCII).
func keyIs(key []byte, field string) bool {
	return string(key) == field || bytes.EqualFold(key, []byte(field))
}

// catalogField returns the catalog field key names, or "".
func catalogField(key []byte) string {
	for _, f := range catalogFields {
		if string(key) == f {
			return f
		}
	}
	for _, f := range catalogFields {
		if bytes.EqualFold(key, []byte(f)) {
			return f
		}
	}
	return ""
}

// tool reads one tool object.
func (p *catalogParser) tool(data []byte) (Tool, error) {
	p.r.Kind() // skip the space before it, so that start is the tool's first byte
	p.start = p.r.Offset()
	// Each string field is the span [at[f], at[f]+n[f]) of p.strs, or
	// absent (at < 0); one string is made of p.strs when the tool ends.
	type span struct{ at, n int }
	var name, desc, hint, server, mcp span
	p.strs = p.strs[:0]
	t := Tool{ShouldDefer: true}
	err := p.r.Object(func(key []byte) error {
		f := catalogField(key)
		var s *span
		switch f {
		case "name":
			s = &name
		case "description":
			s = &desc
		case "search_hint":
			s = &hint
		case "server":
			s = &server
		case "mcp_tool_name":
			s = &mcp
		case "input_schema":
			raw, err := p.r.Raw()
			if err != nil {
				return err
			}
			t.InputSchema = nil
			if string(raw) != "null" {
				t.InputSchema = p.keepSchema(raw)
			}
			return nil
		case "should_defer":
			v, null, err := p.r.Bool()
			t.ShouldDefer = v || null
			return fieldError(f, err)
		case "always_load":
			v, null, err := p.r.Bool()
			if !null {
				t.AlwaysLoad = v
			}
			return fieldError(f, err)
		case "aliases":
			var aliases []string
			if p.r.Kind() == "array" {
				aliases = []string{} // [] is no aliases, but not null
			}
			var buf []byte
			err := p.r.Array(func(int) error {
				var err error
				buf, _, err = p.r.String(buf[:0])
				aliases = append(aliases, string(buf))
				return err
			})
			if err != nil {
				return fieldError(f, err)
			}
			t.Aliases = aliases
			return nil
		default:
			_, err := p.r.Raw()
			return err
		}
		at := len(p.strs)
		var null bool
		var err error
		p.strs, null, err = p.r.String(p.strs)
		if err != nil {
			return fieldError(f, err)
		}
		if !null { // null leaves the field as it was
			*s = span{at, len(p.strs) - at}
		}
		return nil
	})
	if err != nil {
		return Tool{}, err
	}
	all := string(p.strs) // one allocation for the tool's strings
	get := func(s span) string { return all[s.at : s.at+s.n] }
	t.Name, t.Description, t.SearchHint, t.Server, t.MCPName = get(name), get(desc), get(hint), get(server), get(mcp)
	return t, nil
}

// fieldError names the field whose value err is about.
func fieldError(f string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", f, err)
}

// toolError is err of tools[i], named by the name the tool gives, if the
// rest of the tool can be read to find it.
func (p *catalogParser) toolError(data []byte, i int, err error) error {
	p.inTool = true
	if name := catalogToolName(data[p.start:]); name != "" {
		return wrapf(err, "catalog: tools[%d] (name %q, from byte %d)", i, name, p.start)
	}
	return wrapf(err, "catalog: tools[%d] (from byte %d)", i, p.start)
}

// catalogToolName returns the name the tool object at the start of data
// gives, or "" if it gives none that can be read.
func catalogToolName(data []byte) string {
	r := jsonfast.NewReader(data)
	var name []byte
	_ = r.Object(func(key []byte) error {
		if catalogField(key) != "name" {
			_, err := r.Raw()
			return err
		}
		if r.Kind() != "string" {
			_, err := r.Raw()
			return err
		}
		var err error
		name, _, err = r.String(name[:0])
		return err
	})
	return string(name)
}
