// Package tsanthropic connects toolsearch to the Anthropic Go SDK
// (github.com/anthropics/anthropic-sdk-go/v2): it builds a request's tools
// from the conversation state, answers ToolSearch tool_use blocks with
// tool_reference results, and rebuilds the discovered set from a history of
// anthropic.MessageParam.
//
// The conversation state is a Conversation, which *toolsearch.Session
// implements; create it with Format toolsearch.FormatToolReference so that
// discovered tools carry defer_loading and ToolSearch results are
// tool_reference blocks, which the API expands into the tools' definitions.
package tsanthropic

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/toolsearch/toolsearch"
)

// Conversation is the per-conversation state the adapter works on.
// *toolsearch.Session implements it.
type Conversation interface {
	// Tools returns the tool definitions for the next request.
	Tools() ([]toolsearch.ToolDefinition, error)
	// HandleToolSearch answers a ToolSearch call given its raw arguments
	// and records what it returned as discovered.
	HandleToolSearch(args json.RawMessage) (content []toolsearch.ContentBlock, isError bool)
	// Resume adds the tools a history (raw JSON messages) shows as
	// discovered.
	Resume(history json.RawMessage) error
}

var _ Conversation = (*toolsearch.Session)(nil)

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

// Tools returns the request tools for the next turn of c: the tools that
// are not deferred, ToolSearch, and the discovered tools with
// defer_loading (see toolsearch.Session.Tools). An error names tools that
// were left out (their lazy schemas failed); the others are returned.
func Tools(c Conversation) ([]anthropic.ToolUnionParam, error) {
	defs, err := c.Tools()
	out := make([]anthropic.ToolUnionParam, 0, len(defs))
	for _, d := range defs {
		out = append(out, ToolParam(d))
	}
	return out, err
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
// search on c (recording the tools found as discovered) and returns the
// tool_result to send back, which with FormatToolReference holds one
// tool_reference per tool and a "Tool loaded." text. Arguments the search
// cannot answer give an error tool_result that tells the model what was
// wrong. ok is false, and nothing is done, for any other tool.
func HandleToolUse(c Conversation, block anthropic.ToolUseBlock) (result anthropic.ContentBlockParamUnion, ok bool) {
	if block.Name != toolsearch.ToolSearchName {
		return anthropic.ContentBlockParamUnion{}, false
	}
	content, isError := c.HandleToolSearch(block.Input)
	return ToolResult(block.ID, content, isError), true
}

// ErrHistory is returned (wrapped) by Resume for a history that cannot be
// encoded.
var ErrHistory = errors.New("tsanthropic: cannot read the history")

// Resume rebuilds c's discovered set from a conversation history, as sent
// in MessageNewParams.Messages: every tool_reference in a tool_result, and
// every inline ToolSearch result, marks its tools discovered.
func Resume(c Conversation, history []anthropic.MessageParam) error {
	b, err := json.Marshal(history)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrHistory, err)
	}
	return c.Resume(b)
}
