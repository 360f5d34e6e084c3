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

// ChatTools returns the Chat Completions tools for the next turn of s: the
// tools that are not deferred, ToolSearch, and the discovered tools (see
// toolsearch.Session.Tools). A tool whose lazy schema cannot be loaded or
// that cannot be converted is left out, and skipped holds one error per
// such tool: send the tools all the same.
func ChatTools(s *toolsearch.Session) (tools []openai.ChatCompletionToolUnionParam, skipped []error) {
	return convert(s, ChatToolParam)
}

// HandleChatToolCall answers call if it is a ToolSearch call: it runs the
// search with toolsearch.Session.Call (recording the tools found as
// discovered) and returns the
// role "tool" message to send back, whose content is the inline result
// (the tools' names, descriptions and schemas as JSON). For arguments the
// search cannot answer, the content is the error's text, which tells the
// model what was wrong. ok is false, and nothing is done, for any other
// call.
func HandleChatToolCall(s *toolsearch.Session, call openai.ChatCompletionMessageToolCallUnion) (msg openai.ChatCompletionMessageParamUnion, ok bool) {
	if call.Type != "function" || call.Function.Name != toolsearch.ToolSearchName {
		return openai.ChatCompletionMessageParamUnion{}, false
	}
	res, err := s.Call(json.RawMessage(call.Function.Arguments))
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
// discovered (see toolsearch.Session.Resume). A history that cannot be read
// is an error, and nothing is added; a name that is not a valid tool name
// is skipped, with one error per name in skipped, and the others are added.
func ResumeChat(s *toolsearch.Session, history []openai.ChatCompletionMessageParamUnion) (skipped []error, err error) {
	b, err := json.Marshal(history)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrHistory, err)
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
// ones with defer_loading. A tool whose lazy schema cannot be loaded or
// that cannot be converted is left out, and skipped holds one error per
// such tool: send the tools all the same.
func ResponsesTools(s *toolsearch.Session) (tools []responses.ToolUnionParam, skipped []error) {
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
// tool_search_call: it runs the search with toolsearch.Session.Call
// (recording the tools found as discovered) and returns the input items for
// the next request: the call,
// replayed (drop it when chaining with previous_response_id), and the
// tool_search_output holding each tool found as a function definition
// with defer_loading. For arguments the search cannot answer, the output
// lists no tools and a third item, a user message, holds the error's text,
// which tells the model what was wrong. ok is false, and nothing is done,
// for any other item. A tool found that cannot be converted is left out of
// the output, and skipped holds one error per such tool (or, for an item
// built in Go whose arguments cannot be encoded as JSON, that error: the
// output then lists no tools); send the items all the same.
func HandleToolSearchCall(s *toolsearch.Session, item responses.ResponseOutputItemUnion) (items []responses.ResponseInputItemUnionParam, ok bool, skipped []error) {
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
		return items, true, []error{fmt.Errorf("tsopenai: tool_search_call %q: encoding its arguments: %w", call.CallID, err)}
	}
	res, err := s.Call(args)
	if err != nil {
		return append(items, responses.ResponseInputItemParamOfMessage(err.Error(), responses.EasyInputMessageRoleUser)), true, nil
	}
	for _, m := range res.Matches {
		f, err := FunctionToolParam(toolsearch.ToolDefinition{Name: m.Name, Description: m.Description, InputSchema: m.Schema, DeferLoading: true})
		if err != nil {
			skipped = append(skipped, err)
			continue
		}
		out.Tools = append(out.Tools, responses.ResponseToolSearchOutputItemParamToolUnion{OfFunction: f})
	}
	return items, true, skipped
}

// ResumeResponses rebuilds s's discovered set from a Responses API input
// history: the function tools in every tool_search_output item, and every
// inline ToolSearch result in a function_call_output, mark their tools
// discovered. Errors and skipped names are as for ResumeChat.
func ResumeResponses(s *toolsearch.Session, history []responses.ResponseInputItemUnionParam) (skipped []error, err error) {
	b, err := json.Marshal(history)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrHistory, err)
	}
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
	skipped, err = s.Resume(b)
	if err != nil {
		return nil, err
	}
	return append(skipped, s.AddDiscovered(names...)...), nil
}
