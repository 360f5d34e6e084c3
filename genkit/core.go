package tsgenkit

// Every call this package makes into the toolsearch Registry and Session
// API is in this file, so that a change of that API is a change here.

import (
	"encoding/json"
	"strings"

	"github.com/toolsearch/toolsearch"
)

// newRegistry returns a registry holding tools.
func newRegistry(tools []toolsearch.Tool) (*toolsearch.Registry, error) {
	return toolsearch.NewRegistry(nil, tools...)
}

// register adds tools to reg.
func register(reg *toolsearch.Registry, tools []toolsearch.Tool) error {
	return reg.Register(tools...)
}

// registryTools returns reg's tools in pool order.
func registryTools(reg *toolsearch.Registry) []toolsearch.Tool {
	var out []toolsearch.Tool
	for t := range reg.Tools() {
		out = append(out, t)
	}
	return out
}

// newSession returns a Session over reg. Genkit's messages have no
// tool_reference blocks, so a tool-reference format is rendered inline.
func newSession(reg *toolsearch.Registry, opts *toolsearch.SessionOptions) *toolsearch.Session {
	var o toolsearch.SessionOptions
	if opts != nil {
		o = *opts
	}
	if o.Format == toolsearch.FormatToolReference {
		o.Format = toolsearch.FormatInline
	}
	return toolsearch.NewSession(reg, &o)
}

// sessionTools returns the definitions to send with the next model call:
// the tools that are not deferred, ToolSearch (and CallTool with the call
// bridge), and the discovered tools. A tool whose lazy schema cannot be
// loaded is left out; skipped says which.
func sessionTools(s *toolsearch.Session) (defs []toolsearch.ToolDefinition, skipped []error) {
	return s.Tools()
}

// systemPrompt returns the system-prompt section about the deferred tools.
func systemPrompt(s *toolsearch.Session) string {
	return s.SystemPromptSection()
}

// resume marks discovered the tools that history (messages encoded as
// JSON, the OpenAI Chat shape) shows as found by ToolSearch. err is an
// unreadable history (nothing is added); skipped names the names that are
// not valid tool names (the others are added).
func resume(s *toolsearch.Session, history json.RawMessage) (skipped []error, err error) {
	return s.Resume(history)
}

// answerToolSearch answers a ToolSearch call with the text for the model:
// the result rendered for Genkit (inline JSON, or the functions block when
// the Session uses it), or the error's text when the arguments cannot be
// answered. The Session records the tools it returned as discovered.
func answerToolSearch(s *toolsearch.Session, args json.RawMessage) string {
	res, err := s.Call(args)
	if err != nil {
		return err.Error()
	}
	content, after := res.Content(s.Format())
	return joinText(append(content, after...))
}

// checkCall checks a call to a tool (or to CallTool) before it runs.
func checkCall(s *toolsearch.Session, name string, args json.RawMessage) (*toolsearch.ToolCall, error) {
	return s.CheckCall(name, args)
}

// joinText joins the text blocks of a rendered result.
func joinText(content []toolsearch.ContentBlock) string {
	texts := make([]string, 0, len(content))
	for _, b := range content {
		if b.Type == "text" || b.Type == "" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n\n")
}
