// Package tsopenai connects toolsearch to the OpenAI Go SDK
// (github.com/openai/openai-go/v3), for both of its APIs:
//
//   - Chat Completions has no deferred loading, so the mapping is the
//     inline one: ToolSearch is an ordinary function tool, its result is
//     the inline JSON (schemas included) in a role "tool" message, and the
//     discovered tools join the function tools of the next request (or,
//     with the Session's call bridge, stay behind the fixed CallTool tool).
//     NewChatSession makes its Session, at a text Format.
//   - The Responses API supports client-executed tool search: ToolSearch is
//     sent as a {"type":"tool_search","execution":"client"} tool, the model
//     answers with a tool_search_call item, and ResponsesSession.Handle
//     returns the tool_search_output item carrying the found tools as
//     function definitions with defer_loading. Discovered tools are also
//     sent in later requests' tools with defer_loading. NewResponsesSession
//     makes its Session, at Format toolsearch.FormatToolReference so that
//     Tools marks them.
//
// The conversation state is a ChatSession or a ResponsesSession, one per
// conversation: a *toolsearch.Session at the Format its mapping needs (a
// Format the mapping cannot carry is an error of the constructor), whose
// Tools, Handle and Resume speak the SDK's types.
//
// # Errors for the model
//
// The toolsearch adapters share one convention: an error reaches the model
// as toolsearch.ModelText(err), its text written for the model (without
// the Go package prefix of toolsearch's own errors; any other error's
// text unchanged).
// Neither OpenAI API has an error flag for tool output, so the text is the
// output itself: a ToolSearch call that cannot be answered gets it as the
// role "tool" message (Chat Completions) or, since a tool_search_output
// item holds tools and no text, as a user message after an empty
// tool_search_output (Responses). Send a call refused by
// toolsearch.Session.CheckCall the same way:
// openai.ToolMessage(toolsearch.ModelText(err), call.ID), or a
// function_call_output whose output is toolsearch.ModelText(err).
package tsopenai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/toolsearch/toolsearch"
)

// ErrSchema is returned (wrapped) for a tool whose input schema is not a
// JSON object, which the SDK's function parameters require.
var ErrSchema = errors.New("tsopenai: input schema is not a JSON object")

// ErrFormat is returned (wrapped) by NewChatSession and
// NewResponsesSession for SessionOptions whose Format the mapping cannot
// carry.
var ErrFormat = errors.New("tsopenai: the mapping cannot carry this Format")

// ErrHistory is returned (wrapped) by the Resume methods for a history
// that cannot be encoded.
var ErrHistory = errors.New("tsopenai: cannot read the history")

func parameters(d toolsearch.ToolDefinition) (map[string]any, error) {
	if len(d.InputSchema) == 0 {
		return map[string]any{"type": "object"}, nil
	}
	var m map[string]any
	if err := json.Unmarshal(d.InputSchema, &m); err != nil || m == nil {
		return nil, fmt.Errorf("tool %q: %w", d.Name, ErrSchema)
	}
	return m, nil
}

// sessionOptions returns a copy of opts (nil: the defaults) whose zero
// Format is def, or an error wrapping ErrFormat if its Format is not one
// of allowed.
func sessionOptions(opts *toolsearch.SessionOptions, def toolsearch.Format, allowed ...toolsearch.Format) (*toolsearch.SessionOptions, error) {
	var o toolsearch.SessionOptions
	if opts != nil {
		o = *opts
	}
	if o.Format == toolsearch.FormatInline { // the zero Format
		o.Format = def
	}
	for _, f := range allowed {
		if o.Format == f {
			return &o, nil
		}
	}
	return nil, fmt.Errorf("%w: %v (it needs %v)", ErrFormat, o.Format, allowed)
}

// convert returns s's tool definitions for the next request converted with
// f. A tool left out, because its lazy schema cannot be loaded or because f
// cannot convert it, has one error in skipped.
func convert[T any](s *toolsearch.Session, f func(toolsearch.ToolDefinition) (T, error)) (out []T, skipped []error) {
	defs, skipped := s.Tools()
	out = make([]T, 0, len(defs))
	for _, d := range defs {
		t, err := f(d)
		if err != nil {
			skipped = append(skipped, err)
			continue
		}
		out = append(out, t)
	}
	return out, skipped
}

// resume marks discovered, in s, the tools that history (any of the SDK's
// message types) shows ToolSearch returned.
func resume(s *toolsearch.Session, history any) (skipped []error, err error) {
	b, err := json.Marshal(history)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrHistory, err)
	}
	return s.Resume(b)
}

// ChatToolParam converts one tool definition into a Chat Completions
// function tool. DeferLoading is dropped: Chat Completions has none.
func ChatToolParam(d toolsearch.ToolDefinition) (openai.ChatCompletionToolUnionParam, error) {
	p, err := parameters(d)
	if err != nil {
		return openai.ChatCompletionToolUnionParam{}, err
	}
	f := shared.FunctionDefinitionParam{Name: d.Name, Parameters: p}
	if d.Description != "" {
		f.Description = openai.String(d.Description)
	}
	return openai.ChatCompletionFunctionTool(f), nil
}

// ChatSession is the state of one Chat Completions conversation: a
// *toolsearch.Session (its methods are Session's, CheckCall, Snapshot,
// Announce and the others) at a text Format, whose Tools, Handle and
// Resume speak the SDK's types. Tools and Resume stand in for the
// toolsearch.Session methods of the same name, which stay reachable as
// s.Session.Tools and s.Session.Resume. Make it with NewChatSession.
type ChatSession struct {
	*toolsearch.Session
}

// NewChatSession returns the Session of a new Chat Completions
// conversation over reg, with opts (nil means the defaults; opts is
// copied). Chat Completions has no deferred loading: the Format is
// toolsearch.FormatInline (the zero Format: the result as JSON, schemas
// included) or toolsearch.FormatFunctions; FormatToolReference is an error
// wrapping ErrFormat.
func NewChatSession(reg *toolsearch.Registry, opts *toolsearch.SessionOptions) (*ChatSession, error) {
	o, err := sessionOptions(opts, toolsearch.FormatInline, toolsearch.FormatInline, toolsearch.FormatFunctions)
	if err != nil {
		return nil, err
	}
	return &ChatSession{toolsearch.NewSession(reg, o)}, nil
}

// Tools returns the Chat Completions tools for the next turn: the tools
// that are not deferred, ToolSearch, and the discovered tools (see
// toolsearch.Session.Tools). A tool whose lazy schema cannot be loaded or
// that cannot be converted is left out, and skipped holds one error per
// such tool: send the tools all the same.
func (s *ChatSession) Tools() (tools []openai.ChatCompletionToolUnionParam, skipped []error) {
	return convert(s.Session, ChatToolParam)
}

// Handle answers call if it is a ToolSearch call: it runs the search with
// toolsearch.Session.CallContext (ctx bounds a strategy that makes a
// network call; the tools found are recorded as discovered) and returns
// the role "tool" message to send back, whose content is the result in the
// Session's Format (inline: the tools' names, descriptions and schemas as
// JSON). For arguments the search cannot answer, the content is the
// error's text, which tells the model what was wrong. ok is false, and
// nothing is done, for any other call.
func (s *ChatSession) Handle(ctx context.Context, call openai.ChatCompletionMessageToolCallUnion) (msg openai.ChatCompletionMessageParamUnion, ok bool) {
	if call.Type != "function" || call.Function.Name != toolsearch.ToolSearchName {
		return openai.ChatCompletionMessageParamUnion{}, false
	}
	res, err := s.CallContext(ctx, json.RawMessage(call.Function.Arguments))
	if err != nil {
		return openai.ToolMessage(toolsearch.ModelText(err), call.ID), true
	}
	content, after := res.Content(s.Format())
	texts := make([]string, 0, len(content)+len(after))
	for _, b := range append(content, after...) {
		texts = append(texts, b.Text)
	}
	return openai.ToolMessage(strings.Join(texts, "\n\n"), call.ID), true
}

// Resume rebuilds s's discovered set from a Chat Completions history:
// every inline ToolSearch result in a role "tool" message marks its tools
// discovered (see toolsearch.Session.Resume). A history that cannot be read
// is an error, and nothing is added; a name that is not a valid tool name
// is skipped, with one error per name in skipped, and the others are added.
func (s *ChatSession) Resume(history []openai.ChatCompletionMessageParamUnion) (skipped []error, err error) {
	return resume(s.Session, history)
}

// FunctionToolParam converts one tool definition into a Responses function
// tool, with defer_loading when d.DeferLoading is set. Strict is false: MCP
// schemas rarely meet strict mode's rules.
func FunctionToolParam(d toolsearch.ToolDefinition) (*responses.FunctionToolParam, error) {
	p, err := parameters(d)
	if err != nil {
		return nil, err
	}
	f := &responses.FunctionToolParam{Name: d.Name, Parameters: p, Strict: param.NewOpt(false)}
	if d.Description != "" {
		f.Description = param.NewOpt(d.Description)
	}
	if d.DeferLoading {
		f.DeferLoading = param.NewOpt(true)
	}
	return f, nil
}

// ResponsesSession is the state of one Responses API conversation: a
// *toolsearch.Session at Format toolsearch.FormatToolReference, whose
// Tools, Handle and Resume speak the SDK's types (see ChatSession). Make it
// with NewResponsesSession.
type ResponsesSession struct {
	*toolsearch.Session
}

// NewResponsesSession returns the Session of a new Responses API
// conversation over reg, with opts (nil means the defaults; opts is
// copied). A zero Format is set to toolsearch.FormatToolReference, which
// marks the discovered tools defer_loading; any other Format is an error
// wrapping ErrFormat.
func NewResponsesSession(reg *toolsearch.Registry, opts *toolsearch.SessionOptions) (*ResponsesSession, error) {
	o, err := sessionOptions(opts, toolsearch.FormatToolReference, toolsearch.FormatToolReference)
	if err != nil {
		return nil, err
	}
	return &ResponsesSession{toolsearch.NewSession(reg, o)}, nil
}

// Tools returns the Responses API tools for the next turn: ToolSearch
// becomes a client-executed tool_search tool (same description and
// parameters), every other definition a function tool, the discovered ones
// with defer_loading. A tool whose lazy schema cannot be loaded or that
// cannot be converted is left out, and skipped holds one error per such
// tool: send the tools all the same.
func (s *ResponsesSession) Tools() (tools []responses.ToolUnionParam, skipped []error) {
	return convert(s.Session, responsesTool)
}

func responsesTool(d toolsearch.ToolDefinition) (responses.ToolUnionParam, error) {
	if d.Name == toolsearch.ToolSearchName {
		p, err := parameters(d)
		if err != nil {
			return responses.ToolUnionParam{}, err
		}
		return responses.ToolUnionParam{OfToolSearch: &responses.ToolSearchToolParam{
			Description: param.NewOpt(d.Description),
			Parameters:  p,
			Execution:   responses.ToolSearchToolExecutionClient,
		}}, nil
	}
	f, err := FunctionToolParam(d)
	if err != nil {
		return responses.ToolUnionParam{}, err
	}
	return responses.ToolUnionParam{OfFunction: f}, nil
}

// ResponsesAnswer is the answer to a tool_search_call: the input items for
// the next request, and the tools found that could not be converted.
type ResponsesAnswer struct {
	// Items are the call, replayed (drop it when chaining with
	// previous_response_id), and the tool_search_output; for arguments
	// the search cannot answer, a third item, a user message with the
	// error's text.
	Items []responses.ResponseInputItemUnionParam
	// Skipped holds one error per tool found that could not be
	// converted, and left out of the output (or, for an item built in Go
	// whose arguments cannot be encoded as JSON, that error: the output
	// then lists no tools). Send the items all the same.
	Skipped []error
}

// Handle answers item if it is a client-executed tool_search_call: it
// runs the search with toolsearch.Session.CallContext (ctx bounds a
// strategy that makes a network call; the tools found are recorded as
// discovered) and returns the answer, whose tool_search_output holds each
// tool found as a function definition with defer_loading. For arguments
// the search cannot answer, the output lists no tools and a user message
// holds the error's text, which tells the model what was wrong. ok is
// false, and nothing is done, for any other item.
func (s *ResponsesSession) Handle(ctx context.Context, item responses.ResponseOutputItemUnion) (a ResponsesAnswer, ok bool) {
	if item.Type != "tool_search_call" {
		return ResponsesAnswer{}, false
	}
	call := item.AsToolSearchCall()
	if call.Execution != "" && call.Execution != "client" {
		return ResponsesAnswer{}, false
	}
	replay := &responses.ResponseInputItemToolSearchCallParam{
		Arguments: call.Arguments,
		CallID:    param.NewOpt(call.CallID),
		Execution: "client",
		Status:    "completed",
	}
	if call.ID != "" {
		replay.ID = param.NewOpt(call.ID)
	}
	out := &responses.ResponseToolSearchOutputItemParam{
		Tools:     []responses.ResponseToolSearchOutputItemParamToolUnion{},
		CallID:    param.NewOpt(call.CallID),
		Execution: responses.ResponseToolSearchOutputItemParamExecutionClient,
		Status:    responses.ResponseToolSearchOutputItemParamStatusCompleted,
	}
	a.Items = []responses.ResponseInputItemUnionParam{{OfToolSearchCall: replay}, {OfToolSearchOutput: out}}
	args, err := json.Marshal(call.Arguments)
	if err != nil {
		a.Skipped = []error{fmt.Errorf("tool_search_call %q: encoding its arguments: %w", call.CallID, err)}
		return a, true
	}
	res, err := s.CallContext(ctx, args)
	if err != nil {
		a.Items = append(a.Items, responses.ResponseInputItemParamOfMessage(toolsearch.ModelText(err), responses.EasyInputMessageRoleUser))
		return a, true
	}
	for _, m := range res.Matches {
		f, err := FunctionToolParam(toolsearch.ToolDefinition{Name: m.Name, Description: m.Description, InputSchema: m.Schema, DeferLoading: true})
		if err != nil {
			a.Skipped = append(a.Skipped, err)
			continue
		}
		out.Tools = append(out.Tools, responses.ResponseToolSearchOutputItemParamToolUnion{OfFunction: f})
	}
	return a, true
}

// Resume rebuilds s's discovered set from a Responses API input history:
// the function tools in every tool_search_output item, and every inline
// ToolSearch result in a function_call_output, mark their tools
// discovered. Errors and skipped names are as for ChatSession.Resume.
func (s *ResponsesSession) Resume(history []responses.ResponseInputItemUnionParam) (skipped []error, err error) {
	var names []string
	for _, it := range history {
		if out := it.OfToolSearchOutput; out != nil {
			for _, t := range out.Tools {
				if t.OfFunction != nil {
					names = append(names, t.OfFunction.Name)
				}
			}
		}
	}
	skipped, err = resume(s.Session, history)
	if err != nil {
		return nil, err
	}
	return append(skipped, s.AddDiscovered(names...)...), nil
}
