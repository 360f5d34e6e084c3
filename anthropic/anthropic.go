// Package tsanthropic connects toolsearch to the Anthropic Go SDK
// (github.com/anthropics/anthropic-sdk-go/v2): it builds a request's tools
// from the conversation state, answers ToolSearch tool_use blocks with
// tool_reference results, and rebuilds the discovered set from a history of
// anthropic.MessageParam.
//
// The conversation state is a *toolsearch.Session, one per conversation;
// create it with Format toolsearch.FormatToolReference so that discovered
// tools carry defer_loading and ToolSearch results are tool_reference
// blocks, which the API expands into the tools' definitions.
//
// # Errors for the model
//
// The toolsearch adapters share one convention: a text for the model is
// sent as the error's text exactly as toolsearch wrote it, with no prefix,
// in a tool_result with is_error set. HandleToolUse answers a ToolSearch
// call that cannot be answered that way; send a call refused by
// toolsearch.Session.CheckCall the same way:
// anthropic.NewToolResultBlock(block.ID, err.Error(), true).
package tsanthropic

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/toolsearch/toolsearch"
)

// ToolParam converts one tool definition into an anthropic.ToolUnionParam:
// name, description, the input schema sent byte for byte as given, and
// defer_loading when d.DeferLoading is set.
func ToolParam(d toolsearch.ToolDefinition) anthropic.ToolUnionParam {
	schema := d.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	t := &anthropic.ToolParam{
		Name:        d.Name,
		InputSchema: param.Override[anthropic.ToolInputSchemaParam](schema),
	}
	if d.Description != "" {
		t.Description = anthropic.String(d.Description)
	}
	if d.DeferLoading {
		t.DeferLoading = anthropic.Bool(true)
	}
	return anthropic.ToolUnionParam{OfTool: t}
}

// Tools returns the request tools for the next turn of s: the tools that
// are not deferred, ToolSearch, and the discovered tools with
// defer_loading (see toolsearch.Session.Tools). A tool whose lazy schema
// cannot be loaded is left out, and skipped holds one error per such tool:
// send the tools all the same.
func Tools(s *toolsearch.Session) (tools []anthropic.ToolUnionParam, skipped []error) {
	defs, skipped := s.Tools()
	tools = make([]anthropic.ToolUnionParam, 0, len(defs))
	for _, d := range defs {
		tools = append(tools, ToolParam(d))
	}
	return tools, skipped
}

// ToolResult converts content blocks rendered by toolsearch (text and
// tool_reference) into a tool_result block answering toolUseID.
func ToolResult(toolUseID string, content []toolsearch.ContentBlock, isError bool) anthropic.ContentBlockParamUnion {
	r := &anthropic.ToolResultBlockParam{ToolUseID: toolUseID}
	for _, b := range content {
		switch b.Type {
		case "tool_reference":
			r.Content = append(r.Content, anthropic.ToolResultBlockParamContentUnion{
				OfToolReference: &anthropic.ToolReferenceBlockParam{ToolName: b.ToolName}})
		default:
			r.Content = append(r.Content, anthropic.ToolResultBlockParamContentUnion{
				OfText: &anthropic.TextBlockParam{Text: b.Text}})
		}
	}
	if isError {
		r.IsError = anthropic.Bool(true)
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: r}
}

// HandleToolUse answers block if it is a ToolSearch call: it runs the
// search with toolsearch.Session.Call (recording the tools found as
// discovered) and returns the tool_result to send back, whose content is
// the result rendered in s.Format(): with FormatToolReference one
// tool_reference per tool and a "Tool loaded." text. For arguments the
// search cannot answer, the tool_result has is_error set and the error's
// text, which tells the model what was wrong. ok is false, and nothing is
// done, for any other tool.
func HandleToolUse(s *toolsearch.Session, block anthropic.ToolUseBlock) (result anthropic.ContentBlockParamUnion, ok bool) {
	if block.Name != toolsearch.ToolSearchName {
		return anthropic.ContentBlockParamUnion{}, false
	}
	res, err := s.Call(block.Input)
	if err != nil {
		return ToolResult(block.ID, []toolsearch.ContentBlock{{Type: "text", Text: err.Error()}}, true), true
	}
	return ToolResult(block.ID, res.Content(s.Format()), false), true
}

// ErrHistory is returned (wrapped) by Resume for a history that cannot be
// encoded.
var ErrHistory = errors.New("tsanthropic: cannot read the history")

// Resume rebuilds s's discovered set from a conversation history, as sent
// in MessageNewParams.Messages: every tool_reference in a tool_result, and
// every inline ToolSearch result, marks its tools discovered (see
// toolsearch.Session.Resume). A history that cannot be read is an error,
// and nothing is added; a name that is not a valid tool name is skipped,
// with one error per name in skipped, and the others are added.
func Resume(s *toolsearch.Session, history []anthropic.MessageParam) (skipped []error, err error) {
	b, err := json.Marshal(history)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrHistory, err)
	}
	return s.Resume(b)
}
