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
// The conversation state is a Conversation, which *toolsearch.Session
// implements.
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

// Conversation is the per-conversation state the adapter works on.
// *toolsearch.Session implements it.
type Conversation interface {
	// Tools returns the tool definitions for the next request.
	Tools() ([]toolsearch.ToolDefinition, error)
	// Search answers a ToolSearch call given its raw arguments and records
	// the tools it returned as discovered.
	Search(args json.RawMessage) (*toolsearch.Result, error)
	// AddDiscovered records tools as discovered.
	AddDiscovered(names ...string) error
	// Resume adds the tools a history (raw JSON messages or items) shows
	// as discovered.
	Resume(history json.RawMessage) error
}

var _ Conversation = (*toolsearch.Session)(nil)

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

// ChatTools returns the Chat Completions tools for the next turn of c: the
// tools that are not deferred, ToolSearch, and the discovered tools (see
// toolsearch.Session.Tools). Tools that cannot be converted are left out
// and named in the error; the others are returned.
func ChatTools(c Conversation) ([]openai.ChatCompletionToolUnionParam, error) {
	defs, err := c.Tools()
	errs := []error{err}
	out := make([]openai.ChatCompletionToolUnionParam, 0, len(defs))
	for _, d := range defs {
		t, err := ChatToolParam(d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, t)
	}
	return out, errors.Join(errs...)
}

// resultText is the inline rendering of a search, or the error for the
// model.
func resultText(c Conversation, args string) string {
	res, err := c.Search(json.RawMessage(args))
	if err != nil {
		return "Error: " + err.Error()
	}
	return string(res.JSON())
}

// HandleChatToolCall answers call if it is a ToolSearch call: it runs the
// search on c (recording the tools found as discovered) and returns the
// role "tool" message to send back, whose content is the inline result
// (the tools' names, descriptions and schemas as JSON). Arguments the
// search cannot answer give a message starting "Error: " that says what
// was wrong. ok is false, and nothing is done, for any other call.
func HandleChatToolCall(c Conversation, call openai.ChatCompletionMessageToolCallUnion) (msg openai.ChatCompletionMessageParamUnion, ok bool) {
	if call.Type != "function" || call.Function.Name != toolsearch.ToolSearchName {
		return openai.ChatCompletionMessageParamUnion{}, false
	}
	return openai.ToolMessage(resultText(c, call.Function.Arguments), call.ID), true
}

// ErrHistory is returned (wrapped) by the Resume functions for a history
// that cannot be encoded.
var ErrHistory = errors.New("tsopenai: cannot read the history")

// ResumeChat rebuilds c's discovered set from a Chat Completions history:
// every inline ToolSearch result in a role "tool" message marks its tools
// discovered.
func ResumeChat(c Conversation, history []openai.ChatCompletionMessageParamUnion) error {
	b, err := json.Marshal(history)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrHistory, err)
	}
	return c.Resume(b)
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

// ResponsesTools returns the Responses API tools for the next turn of c:
// ToolSearch becomes a client-executed tool_search tool (same description
// and parameters), every other definition a function tool, the discovered
// ones with defer_loading. Tools that cannot be converted are left out and
// named in the error; the others are returned.
func ResponsesTools(c Conversation) ([]responses.ToolUnionParam, error) {
	defs, err := c.Tools()
	errs := []error{err}
	out := make([]responses.ToolUnionParam, 0, len(defs))
	for _, d := range defs {
		if d.Name == toolsearch.ToolSearchName {
			p, err := parameters(d)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			out = append(out, responses.ToolUnionParam{OfToolSearch: &responses.ToolSearchToolParam{
				Description: param.NewOpt(d.Description),
				Parameters:  p,
				Execution:   responses.ToolSearchToolExecutionClient,
			}})
			continue
		}
		f, err := FunctionToolParam(d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, responses.ToolUnionParam{OfFunction: f})
	}
	return out, errors.Join(errs...)
}

// HandleToolSearchCall answers item if it is a client-executed
// tool_search_call: it runs the search on c (recording the tools found as
// discovered) and returns two input items for the next request: the call,
// replayed (drop it when chaining with previous_response_id), and the
// tool_search_output holding each tool found as a function definition
// with defer_loading. ok is false, and nothing is done, for any other
// item. err reports arguments the search could not answer or tools that
// could not be converted; the items are valid all the same (the output
// then lists no tools or fewer tools), so the turn can go on.
func HandleToolSearchCall(c Conversation, item responses.ResponseOutputItemUnion) (items []responses.ResponseInputItemUnionParam, ok bool, err error) {
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
	res, err := c.Search(args)
	if err != nil {
		return items, true, err
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

// ResumeResponses rebuilds c's discovered set from a Responses API input
// history: the function tools in every tool_search_output item, and every
// inline ToolSearch result in a function_call_output, mark their tools
// discovered.
func ResumeResponses(c Conversation, history []responses.ResponseInputItemUnionParam) error {
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
		errs = append(errs, c.AddDiscovered(names...))
	}
	b, err := json.Marshal(history)
	if err != nil {
		return errors.Join(append(errs, fmt.Errorf("%w: %v", ErrHistory, err))...)
	}
	errs = append(errs, c.Resume(b))
	return errors.Join(errs...)
}
