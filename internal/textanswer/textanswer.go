// Package textanswer holds what the framework adapters (eino and Genkit)
// share: their tool results are plain strings and their messages have no
// tool_reference blocks, so a Session is kept in a text format and a
// ToolSearch answer is one string.
package textanswer

import (
	"encoding/json"
	"strings"

	"github.com/toolsearch/toolsearch"
)

// NewSession returns a Session over reg with opts (nil: the defaults). A
// tool-reference format, which these frameworks cannot carry, is rendered
// inline instead.
func NewSession(reg *toolsearch.Registry, opts *toolsearch.SessionOptions) *toolsearch.Session {
	var o toolsearch.SessionOptions
	if opts != nil {
		o = *opts
	}
	if o.Format == toolsearch.FormatToolReference {
		o.Format = toolsearch.FormatInline
	}
	return toolsearch.NewSession(reg, &o)
}

// Answer answers a ToolSearch call with the text for the model: the result
// rendered in the Session's format (the text blocks that go in the tool
// result and those that follow it, joined by blank lines), or the error's
// text when the arguments cannot be answered. The Session records the
// tools it returned as discovered.
func Answer(s *toolsearch.Session, args json.RawMessage) string {
	res, err := s.Call(args)
	if err != nil {
		return err.Error()
	}
	content, after := res.Content(s.Format())
	texts := make([]string, 0, len(content)+len(after))
	for _, b := range append(content, after...) {
		if b.Type == "text" || b.Type == "" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n\n")
}
