// Package tsanthropic connects toolsearch to the Anthropic Go SDK
// (github.com/anthropics/anthropic-sdk-go/v2): it builds a request's tools
// from the conversation state, answers ToolSearch tool_use blocks with
// tool_reference results, and rebuilds the discovered set from a history of
// anthropic.MessageParam.
//
// The conversation state is a Session, one per conversation: a
// *toolsearch.Session at Format toolsearch.FormatToolReference, the one
// this mapping needs, so that discovered tools carry defer_loading and
// ToolSearch results are tool_reference blocks, which the API expands into
// the tools' definitions. NewSession sets that Format, and refuses another.
//
// # The message that answers a turn
//
// Session.Handle answers a ToolSearch tool_use block, and a ToolResults
// builds the user message that answers one assistant message's tool calls,
// as Claude Code sends it: every tool_result first, a ToolSearch result
// holding its tool_reference blocks (and its notes, which may quote the
// model), then the text that follows them ("Tool loaded."):
//
//	[{"type":"tool_result","tool_use_id":"toolu_01","content":[
//	   {"type":"tool_reference","tool_name":"mcp__slack__send_message"}]},
//	 {"type":"tool_result","tool_use_id":"toolu_02","content":[{"type":"text","text":"done"}]},
//	 {"type":"text","text":"Tool loaded."}]
//
// # Errors for the model
//
// The toolsearch adapters share one convention: an error reaches the model
// as toolsearch.ModelText(err), its text written for the model (without
// the Go package prefix of toolsearch's own errors; any other error's
// text unchanged), in a tool_result with is_error set. Session.Handle
// answers a ToolSearch call that cannot be answered that way; send a call
// refused by toolsearch.Session.CheckCall the same way:
// ToolResults.Add(anthropic.NewToolResultBlock(block.ID, toolsearch.ModelText(err), true)).
package tsanthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

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

// Session is the state of one conversation: a *toolsearch.Session (its
// methods are Session's, CheckCall, Snapshot, Announce and the others) at
// Format toolsearch.FormatToolReference, whose Tools, Handle and Resume
// speak the Anthropic SDK's types. Tools and Resume stand in for the
// toolsearch.Session methods of the same name, which stay reachable as
// s.Session.Tools and s.Session.Resume. Make it with NewSession.
type Session struct {
	*toolsearch.Session
}

// ErrFormat is returned (wrapped) by NewSession for SessionOptions whose
// Format this mapping cannot carry.
var ErrFormat = errors.New("tsanthropic: the Anthropic mapping needs Format toolsearch.FormatToolReference")

// NewSession returns the Session of a new conversation over reg, with
// opts (nil means the defaults; opts is copied). A zero Format is set to
// toolsearch.FormatToolReference, the mapping's; any other Format is an
// error wrapping ErrFormat. With opts.CallBridge, ToolSearch results are
// inline, as toolsearch.Session.Format says.
func NewSession(reg *toolsearch.Registry, opts *toolsearch.SessionOptions) (*Session, error) {
	var o toolsearch.SessionOptions
	if opts != nil {
		o = *opts
	}
	switch o.Format {
	case toolsearch.FormatInline: // the zero Format
		o.Format = toolsearch.FormatToolReference
	case toolsearch.FormatToolReference:
	default:
		return nil, fmt.Errorf("%w, not %v", ErrFormat, o.Format)
	}
	return &Session{toolsearch.NewSession(reg, &o)}, nil
}

// Tools returns the request tools for the next turn: the tools that are
// not deferred, ToolSearch, and the discovered tools with defer_loading
// (see toolsearch.Session.Tools). A tool whose lazy schema cannot be loaded
// is left out, and skipped holds one error per such tool: send the tools
// all the same.
func (s *Session) Tools() (tools []anthropic.ToolUnionParam, skipped []error) {
	defs, skipped := s.Session.Tools()
	tools = make([]anthropic.ToolUnionParam, 0, len(defs))
	for _, d := range defs {
		tools = append(tools, ToolParam(d))
	}
	return tools, skipped
}

// Answer is the answer to a ToolSearch call: the tool_result block (its
// references, then its notes: names not found, with suggestions, and what
// a limit cut) and the text blocks that follow the message's tool_result
// blocks ("Tool loaded."). Give it to ToolResults.AddAnswer, which puts
// each part in its place.
type Answer struct {
	ToolResult anthropic.ContentBlockParamUnion
	After      []anthropic.ContentBlockParamUnion
}

// Handle answers block if it is a ToolSearch call: it runs the search
// with toolsearch.Session.CallContext (ctx bounds a strategy that makes a
// network call; the tools found are recorded as discovered) and returns
// the answer, whose tool_result holds the result rendered in the Session's
// Format (one tool_reference block per tool found, or the no-match text).
// For arguments the search cannot answer, the tool_result has is_error set
// and the error's text, which tells the model what was wrong, and nothing
// follows it. ok is false, and nothing is done, for any other tool: run
// it and Add its tool_result.
func (s *Session) Handle(ctx context.Context, block anthropic.ToolUseBlock) (a Answer, ok bool) {
	if block.Name != toolsearch.ToolSearchName {
		return Answer{}, false
	}
	res, err := s.CallContext(ctx, block.Input)
	if err != nil {
		return Answer{ToolResult: toolResult(block.ID, []toolsearch.ContentBlock{{Type: "text", Text: toolsearch.ModelText(err)}}, true)}, true
	}
	content, after := res.Content(s.Format())
	a.ToolResult = toolResult(block.ID, content, false)
	for _, b := range after {
		a.After = append(a.After, anthropic.NewTextBlock(b.Text))
	}
	return a, true
}

// toolResult converts content blocks rendered by toolsearch (text and
// tool_reference) into a tool_result block answering toolUseID.
func toolResult(toolUseID string, content []toolsearch.ContentBlock, isError bool) anthropic.ContentBlockParamUnion {
	r := &anthropic.ToolResultBlockParam{ToolUseID: toolUseID, Content: make([]anthropic.ToolResultBlockParamContentUnion, 0, len(content))}
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

// ToolResults builds the user message that answers the tool calls of one
// assistant message. Its content is, in this order:
//
//  1. every tool_result block: the answers to the ToolSearch calls (see
//     AddAnswer) and the application's own (see Add), in the order added;
//  2. the text blocks that follow the ToolSearch results ("Tool
//     loaded."), each text once: with two ToolSearch calls, "Tool loaded."
//     is sent once;
//  3. any other block the application added (an announcement, say).
//
// The API wants the tool_result blocks before any other block of the
// message, and Claude Code sends ToolSearch results this way: with
// toolsearch.FormatToolReference, a tool_result holds the tool_reference
// blocks (Claude Code sends no notes), and "Tool loaded." follows it in the
// same message.
//
// The zero value is an empty message, ready to use; use one ToolResults
// for each assistant message. It is safe for concurrent use: tools may be
// run in parallel and added as they finish.
type ToolResults struct {
	mu      sync.Mutex
	results []anthropic.ContentBlockParamUnion // tool_result blocks
	texts   []anthropic.ContentBlockParamUnion // after the ToolSearch results
	seen    map[string]bool                    // texts already in texts
	others  []anthropic.ContentBlockParamUnion // the application's other blocks
}

// AddAnswer adds the answer to a ToolSearch call (see Session.Handle): its
// tool_result joins the tool results, in the order added, and its texts
// join those that follow the tool results, each text once: with two
// ToolSearch calls, "Tool loaded." is sent once.
func (r *ToolResults) AddAnswer(a Answer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.results = append(r.results, a.ToolResult)
	for _, b := range a.After {
		text := ""
		if b.OfText != nil {
			text = b.OfText.Text
		}
		if r.seen == nil {
			r.seen = map[string]bool{}
		}
		if !r.seen[text] {
			r.seen[text] = true
			r.texts = append(r.texts, b)
		}
	}
}

// Add adds blocks the application built: a tool_result joins the tool
// results, in the order added, and any other block goes at the end of the
// message, after the texts of the ToolSearch results. Answer a call
// refused by toolsearch.Session.CheckCall with
// Add(anthropic.NewToolResultBlock(id, toolsearch.ModelText(err), true)).
func (r *ToolResults) Add(blocks ...anthropic.ContentBlockParamUnion) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range blocks {
		if b.OfToolResult != nil {
			r.results = append(r.results, b)
		} else {
			r.others = append(r.others, b)
		}
	}
}

// Message returns the user message: the tool_result blocks, then the
// texts that follow the ToolSearch results, then the other blocks added.
// ok is false, and the message empty, when nothing was added. The
// message's content is the caller's.
func (r *ToolResults) Message() (msg anthropic.MessageParam, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.results) + len(r.texts) + len(r.others)
	if n == 0 {
		return anthropic.MessageParam{}, false
	}
	content := make([]anthropic.ContentBlockParamUnion, 0, n)
	content = append(append(append(content, r.results...), r.texts...), r.others...)
	return anthropic.NewUserMessage(content...), true
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
func (s *Session) Resume(history []anthropic.MessageParam) (skipped []error, err error) {
	b, err := json.Marshal(history)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrHistory, err)
	}
	return s.Session.Resume(b)
}
