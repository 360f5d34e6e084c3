package toolsearch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// Format is a rendering of a Result for the model.
type Format uint8

// The renderings of a Result.
const (
	// FormatInline is the Result as JSON, schemas included: works with any
	// provider.
	FormatInline Format = iota
	// FormatToolReference is Anthropic's tool_reference content blocks
	// followed by a "Tool loaded." text block; the referenced tools must be
	// in the request's tools with defer_loading set.
	FormatToolReference
	// FormatFunctions is a <functions> block with one <function> line per
	// match, the encoding models see for tool lists.
	FormatFunctions
)

// ContentBlock is one block of a tool_result's content: a text block or an
// Anthropic tool_reference block.
type ContentBlock struct {
	Type     string `json:"type"` // "text" or "tool_reference"
	ToolName string `json:"tool_name,omitempty"`
	Text     string `json:"text,omitempty"`
}

// JSON returns the inline rendering: the Result as compact JSON.
func (r *Result) JSON() []byte {
	b, err := json.Marshal(r)
	if err != nil { // every field is plain data and schemas are valid JSON
		panic("toolsearch: encoding a Result: " + err.Error())
	}
	return b
}

// NoMatchText returns the text for a result without matches: "No matching
// deferred tools found", plus, when MCP servers are pending, a sentence
// naming them and asking the model to search again.
func (r *Result) NoMatchText() string {
	const none = "No matching deferred tools found"
	if len(r.PendingMCPServers) == 0 {
		return none
	}
	return none + ". Some MCP servers are still connecting: " + strings.Join(r.PendingMCPServers, ", ") +
		". Their tools will become available shortly — try searching again."
}

// notFoundText says which select: names matched nothing, with suggestions;
// "" when all were found.
func (r *Result) notFoundText() string {
	if len(r.NotFound) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("No tool named ")
	for i, n := range r.NotFound {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n)
		if s := r.Suggestions[n]; len(s) > 0 {
			b.WriteString(" (did you mean " + strings.Join(s, ", ") + "?)")
		}
	}
	b.WriteByte('.')
	return b.String()
}

// extraTexts returns the not-found and note texts, in that order.
func (r *Result) extraTexts() []string {
	var out []string
	if t := r.notFoundText(); t != "" {
		out = append(out, t)
	}
	return append(out, r.Notes...)
}

// ToolReferences returns the Anthropic rendering: one tool_reference block
// per match and a "Tool loaded." text block; with no match, the NoMatchText.
// Names not found and notes follow as text blocks.
func (r *Result) ToolReferences() []ContentBlock {
	var out []ContentBlock
	if len(r.Matches) == 0 {
		out = append(out, ContentBlock{Type: "text", Text: r.NoMatchText()})
	} else {
		for _, m := range r.Matches {
			out = append(out, ContentBlock{Type: "tool_reference", ToolName: m.Name})
		}
		out = append(out, ContentBlock{Type: "text", Text: "Tool loaded."})
	}
	for _, t := range r.extraTexts() {
		out = append(out, ContentBlock{Type: "text", Text: t})
	}
	return out
}

// functionJSON is one tool in the functions rendering; the fields are in the
// order models see them.
type functionJSON struct {
	Description string          `json:"description"`
	Name        string          `json:"name"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Functions returns the functions rendering:
//
//	<functions>
//	<function>{"description":…,"name":…,"parameters":…}</function>
//	</functions>
//
// With no match it is the NoMatchText. Names not found and notes follow on
// their own lines. JSON escapes '<' and '>', so no description can close
// the block.
func (r *Result) Functions() string {
	var b strings.Builder
	if len(r.Matches) == 0 {
		b.WriteString(r.NoMatchText())
	} else {
		b.WriteString("<functions>\n")
		for _, m := range r.Matches {
			j, err := json.Marshal(functionJSON{m.Description, m.Name, m.Schema})
			if err != nil {
				panic("toolsearch: encoding a function: " + err.Error())
			}
			b.WriteString("<function>")
			b.Write(j)
			b.WriteString("</function>\n")
		}
		b.WriteString("</functions>")
	}
	for _, t := range r.extraTexts() {
		b.WriteString("\n")
		b.WriteString(t)
	}
	return b.String()
}

// Content returns the result rendered in format f as tool_result content
// blocks: FormatInline and FormatFunctions give one text block.
func (r *Result) Content(f Format) []ContentBlock {
	switch f {
	case FormatToolReference:
		return r.ToolReferences()
	case FormatFunctions:
		return []ContentBlock{{Type: "text", Text: r.Functions()}}
	}
	return []ContentBlock{{Type: "text", Text: string(r.JSON())}}
}

// ParseFormat returns the Format named "inline" (or "json"),
// "tool_reference" (or "anthropic") or "functions".
func ParseFormat(s string) (Format, error) {
	switch s {
	case "inline", "json":
		return FormatInline, nil
	case "tool_reference", "anthropic":
		return FormatToolReference, nil
	case "functions":
		return FormatFunctions, nil
	}
	return 0, fmt.Errorf("toolsearch: unknown format %q (want inline, tool_reference or functions)", s)
}

// Call answers a ToolSearch call: args are the raw JSON arguments as the
// model sent them. They are validated against the ToolSearch input schema;
// malformed JSON, a missing or non-string query, a max_results that is not
// an integer ≥ 1, unknown fields and a query over the limits (see Limits)
// give an error wrapping ErrInvalidQuery whose text tells the model what was
// wrong (send it back as an error tool_result). With the regex strategy the
// input is {"pattern", "max_results"} instead, and a pattern that is too
// long or does not compile is such an error too. Call never panics on any
// input.
func (s *Searcher) Call(args json.RawMessage) (*Result, error) {
	query, k, err := s.parseArgs(args)
	if err != nil {
		return nil, err
	}
	kk, note, err := s.limit(k)
	if err != nil {
		return nil, err
	}
	if err := s.checkQuery(query); err != nil {
		return nil, err
	}
	return s.search(query, kk, note)
}

const (
	usage      = `expected {"query": string, "max_results"?: integer ≥ 1}`
	regexUsage = `expected {"pattern": string, "max_results"?: integer ≥ 1}`
)

func (s *Searcher) parseArgs(args json.RawMessage) (query string, k int, err error) {
	_, schema := s.toolSearchInput()
	field, usage := "query", usage
	if schema != toolSearchSchema {
		field, usage = "pattern", regexUsage
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return "", 0, fmt.Errorf("%w: arguments are not valid JSON (%v); %s", ErrInvalidQuery, err, usage)
	}
	if _, err := d.Token(); err != io.EOF { // d.More misses a stray '}' or ']'
		return "", 0, fmt.Errorf("%w: arguments hold more than one JSON value, or text after it; %s", ErrInvalidQuery, usage)
	}
	s.inputOnce.Do(func() {
		sch, err := compileSchema(json.RawMessage(schema))
		if err != nil {
			panic("toolsearch: the ToolSearch schema does not compile: " + err.Error())
		}
		s.inputSchema = sch
	})
	if err := s.inputSchema.Validate(v); err != nil {
		return "", 0, fmt.Errorf("%w: %s; %s", ErrInvalidQuery, validationMessage(err), usage)
	}
	m := v.(map[string]any) // the schema requires an object
	query = m[field].(string)
	if n, ok := m["max_results"].(json.Number); ok {
		f, err := n.Float64()
		switch {
		case err != nil || f > math.MaxInt32:
			k = math.MaxInt32 // lowered to the cap, with a note
		default:
			k = int(f)
		}
	}
	return query, k, nil
}
