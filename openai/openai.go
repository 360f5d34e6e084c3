// Package tsopenai connects toolsearch to the OpenAI Go SDK
// (github.com/openai/openai-go/v3), for both of its APIs:
//
//   - Chat Completions has no deferred loading, so the mapping is the
//     inline one: ToolSearch is an ordinary function tool, its result is
//     the inline JSON (schemas included) in a role "tool" message, and the
//     discovered tools join the function tools of the next request (or,
//     with the Session's call bridge, stay behind the fixed CallTool tool).
//     Create the Session with Format toolsearch.FormatInline.
//   - The Responses API supports client-executed tool search: ToolSearch is
//     sent as a {"type":"tool_search","execution":"client"} tool, the model
//     answers with a tool_search_call item, and HandleToolSearchCall returns
//     the tool_search_output item carrying the found tools as function
//     definitions with defer_loading. Discovered tools are also sent in
//     later requests' tools with defer_loading. Create the Session with
//     Format toolsearch.FormatToolReference so that Tools marks them.
//
// The conversation state is a *toolsearch.Session, one per conversation.
//
// # Errors for the model
//
// The toolsearch adapters share one convention: a text for the model is
// sent as the error's text exactly as toolsearch wrote it, with no prefix.
// Neither OpenAI API has an error flag for tool output, so the text is the
// output itself: a ToolSearch call that cannot be answered gets it as the
// role "tool" message (Chat Completions) or, since a tool_search_output
// item holds tools and no text, as a user message after an empty
// tool_search_output (Responses). Send a call refused by
// toolsearch.Session.CheckCall the same way: openai.ToolMessage(err.Error(),
// call.ID), or a function_call_output whose output is err.Error().
package tsopenai

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/toolsearch/toolsearch"
)

// ErrSchema is returned (wrapped) for a tool whose input schema is not a
// JSON object, which the SDK's function parameters require.
var ErrSchema = errors.New("tsopenai: input schema is not a JSON object")

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

// convert returns s's tool definitions for the next request converted with
// f; those f cannot convert are left out and named in the error.
func convert[T any](s *toolsearch.Session, f func(toolsearch.ToolDefinition) (T, error)) ([]T, error) {
	defs, err := s.Tools()
	errs := []error{err}
	out := make([]T, 0, len(defs))
	for _, d := range defs {
		t, err := f(d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, t)
	}
	return out, errors.Join(errs...)
}

// search answers a ToolSearch call on s, recording the tools it returns as
// discovered. An error's text is written for the model.
func search(s *toolsearch.Session, args json.RawMessage) (*toolsearch.Result, error) {
	return s.Search(args)
}

// ChatTools returns the Chat Completions tools for the next turn of s: the
// tools that are not deferred, ToolSearch, and the discovered tools (see
// toolsearch.Session.Tools). Tools that cannot be converted are left out
// and named in the error; the others are returned.
func ChatTools(s *toolsearch.Session) ([]openai.ChatCompletionToolUnionParam, error) {
	return convert(s, ChatToolParam)
}

// HandleChatToolCall answers call if it is a ToolSearch call: it runs the
// search on s (recording the tools found as discovered) and returns the
// role "tool" message to send back, whose content is the inline result
// (the tools' names, descriptions and schemas as JSON). For arguments the
// search cannot answer, the content is the error's text, which tells the
// model what was wrong. ok is false, and nothing is done, for any other
// call.
func HandleChatToolCall(s *toolsearch.Session, call openai.ChatCompletionMessageToolCallUnion) (msg openai.ChatCompletionMessageParamUnion, ok bool) {
	if call.Type != "function" || call.Function.Name != toolsearch.ToolSearchName {
		return openai.ChatCompletionMessageParamUnion{}, false
	}
	res, err := search(s, json.RawMessage(call.Function.Arguments))
	if err != nil {
		return openai.ToolMessage(err.Error(), call.ID), true
	}
	return openai.ToolMessage(string(res.JSON()), call.ID), true
}

// ErrHistory is returned (wrapped) by the Resume functions for a history
// that cannot be encoded.
var ErrHistory = errors.New("tsopenai: cannot read the history")

// ResumeChat rebuilds s's discovered set from a Chat Completions history:
// every inline ToolSearch result in a role "tool" message marks its tools
// discovered.
func ResumeChat(s *toolsearch.Session, history []openai.ChatCompletionMessageParamUnion) error {
	b, err := json.Marshal(history)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrHistory, err)
	}
	return s.Resume(b)
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

// ResponsesTools returns the Responses API tools for the next turn of s:
// ToolSearch becomes a client-executed tool_search tool (same description
// and parameters), every other definition a function tool, the discovered
// ones with defer_loading. Tools that cannot be converted are left out and
// named in the error; the others are returned.
func ResponsesTools(s *toolsearch.Session) ([]responses.ToolUnionParam, error) {
	return convert(s, responsesTool)
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

// HandleToolSearchCall answers item if it is a client-executed
// tool_search_call: it runs the search on s (recording the tools found as
// discovered) and returns the input items for the next request: the call,
// replayed (drop it when chaining with previous_response_id), and the
// tool_search_output holding each tool found as a function definition
// with defer_loading. For arguments the search cannot answer, the output
// lists no tools and a third item, a user message, holds the error's text,
// which tells the model what was wrong. ok is false, and nothing is done,
// for any other item. err reports tools that could not be converted; the
// items are valid all the same (the output then lists fewer tools), so the
// turn can go on.
func HandleToolSearchCall(s *toolsearch.Session, item responses.ResponseOutputItemUnion) (items []responses.ResponseInputItemUnionParam, ok bool, err error) {
	if item.Type != "tool_search_call" {
		return nil, false, nil
	}
	call := item.AsToolSearchCall()
	if call.Execution != "" && call.Execution != "client" {
		return nil, false, nil
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
	items = []responses.ResponseInputItemUnionParam{{OfToolSearchCall: replay}, {OfToolSearchOutput: out}}
	args, err := json.Marshal(call.Arguments)
	if err != nil {
		return items, true, fmt.Errorf("tsopenai: tool_search_call %q: encoding its arguments: %w", call.CallID, err)
	}
	res, err := search(s, args)
	if err != nil {
		return append(items, responses.ResponseInputItemParamOfMessage(err.Error(), responses.EasyInputMessageRoleUser)), true, nil
	}
	var errs []error
	for _, m := range res.Matches {
		f, err := FunctionToolParam(toolsearch.ToolDefinition{Name: m.Name, Description: m.Description, InputSchema: m.Schema, DeferLoading: true})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out.Tools = append(out.Tools, responses.ResponseToolSearchOutputItemParamToolUnion{OfFunction: f})
	}
	return items, true, errors.Join(errs...)
}

// ResumeResponses rebuilds s's discovered set from a Responses API input
// history: the function tools in every tool_search_output item, and every
// inline ToolSearch result in a function_call_output, mark their tools
// discovered.
func ResumeResponses(s *toolsearch.Session, history []responses.ResponseInputItemUnionParam) error {
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
	var errs []error
	if len(names) > 0 {
		errs = append(errs, s.AddDiscovered(names...))
	}
	b, err := json.Marshal(history)
	if err != nil {
		return errors.Join(append(errs, fmt.Errorf("%w: %v", ErrHistory, err))...)
	}
	errs = append(errs, s.Resume(b))
	return errors.Join(errs...)
}
