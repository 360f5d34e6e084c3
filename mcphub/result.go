package mcphub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Result is the result of a tool call, as the MCP server sent it, in a
// form that no SDK owns: every content block (text, image, audio,
// resource_link, embedded resource) in order, the structured content and
// the isError flag. Its JSON encoding is MCP's CallToolResult, which an
// SDK adapter decodes into its own type (tsmcpsdk.CallToolResult,
// tsmcpgo.CallToolResult); _meta is not kept.
type Result struct {
	// Content holds the content blocks, in the server's order.
	Content []Content
	// StructuredContent is the structuredContent JSON value, if any.
	StructuredContent json.RawMessage
	// IsError is set when the server reports that the tool failed; the
	// content then describes the failure, for the model.
	IsError bool
}

// Content is one content block of a Result.
type Content struct {
	// Type is the block's MCP type: "text", "image", "audio",
	// "resource_link" or "resource".
	Type string
	// Text is the text of a "text" block, and empty for the others.
	Text string
	// JSON is the block as MCP encodes it, every field included.
	JSON json.RawMessage
}

// TextContent returns a "text" content block holding text.
func TextContent(text string) Content {
	b, _ := json.Marshal(struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{"text", text})
	return Content{Type: "text", Text: text, JSON: b}
}

// wireResult is MCP's CallToolResult, as far as Result keeps it.
type wireResult struct {
	Content           []json.RawMessage `json:"content"`
	StructuredContent json.RawMessage   `json:"structuredContent,omitempty"`
	IsError           bool              `json:"isError,omitempty"`
}

// MarshalJSON encodes r as MCP's CallToolResult.
func (r Result) MarshalJSON() ([]byte, error) {
	w := wireResult{Content: make([]json.RawMessage, len(r.Content)), StructuredContent: r.StructuredContent, IsError: r.IsError}
	for i, c := range r.Content {
		if len(c.JSON) == 0 {
			return nil, fmt.Errorf("mcphub: content block %d (%q) has no JSON", i, c.Type)
		}
		w.Content[i] = c.JSON
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes MCP's CallToolResult into r.
func (r *Result) UnmarshalJSON(b []byte) error {
	var w wireResult
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	out := Result{IsError: w.IsError, Content: make([]Content, 0, len(w.Content))}
	if s := bytes.TrimSpace(w.StructuredContent); len(s) > 0 && string(s) != "null" {
		out.StructuredContent = s
	}
	for i, raw := range w.Content {
		var head struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return fmt.Errorf("content block %d: %w", i, err)
		}
		c := Content{Type: head.Type, JSON: raw}
		if head.Type == "text" {
			c.Text = head.Text
		}
		out.Content = append(out.Content, c)
	}
	*r = out
	return nil
}

// Text returns r as one text, for agent frameworks whose tool output is a
// string (the CallTool options of the eino and Genkit adapters of this
// project):
//
//   - the content blocks in order, one per line: a text block as its
//     text, any other block (image, audio, resource link, embedded
//     resource) as its MCP JSON encoding, so that nothing is dropped;
//   - no content at all: the structured content as JSON, or "" without
//     it.
//
// A result with IsError set gives the same text: the server wrote it for
// the model, and those frameworks have no error flag.
func (r *Result) Text() string {
	if r == nil {
		return ""
	}
	if len(r.Content) == 0 {
		return string(r.StructuredContent)
	}
	var b strings.Builder
	for i, c := range r.Content {
		if i > 0 {
			b.WriteByte('\n')
		}
		if c.Type == "text" {
			b.WriteString(c.Text)
		} else {
			b.Write(c.JSON)
		}
	}
	return b.String()
}
