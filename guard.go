package toolsearch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Errors of the call guard (Session.CheckCall), carried by a *CallError;
// test them with errors.Is.
var (
	// ErrUnknownTool: no tool of that name is in the conversation's scope.
	// A tool outside the scope gets exactly this error, so a refusal never
	// reveals that it exists.
	ErrUnknownTool = errors.New("toolsearch: unknown tool")
	// ErrToolUnavailable: the tool is in scope but cannot be called now:
	// its MCP server is pending or disconnected, or its lazy schema could
	// not be loaded.
	ErrToolUnavailable = errors.New("toolsearch: tool unavailable")
	// ErrInvalidArguments: the arguments are not JSON or do not validate
	// against the tool's input schema.
	ErrInvalidArguments = errors.New("toolsearch: invalid tool arguments")
	// ErrSchemaNotLoaded: the tool is deferred and was never discovered in
	// this conversation, and its arguments do not validate: the model
	// guessed them. The message tells it to load the tool with ToolSearch
	// select:<name> first. It wraps ErrInvalidArguments.
	ErrSchemaNotLoaded = fmt.Errorf("%w: schema not loaded", ErrInvalidArguments)
)

// CallError is a refused tool call. Its Error text is written for the
// model: send it back as an error tool_result.
type CallError struct {
	// Tool is the name the model called.
	Tool string
	// Err is one of ErrUnknownTool, ErrToolUnavailable, ErrInvalidArguments
	// or ErrSchemaNotLoaded.
	Err error
	// Message is the text for the model.
	Message string
}

// Error returns the message for the model.
func (e *CallError) Error() string { return e.Message }

// Unwrap returns the sentinel error.
func (e *CallError) Unwrap() error { return e.Err }

// ToolCall is a checked tool call, ready for the application to run.
type ToolCall struct {
	// Tool is a copy of the registered tool.
	Tool Tool
	// Arguments are the call's arguments as compact JSON; {} when the
	// model sent none.
	Arguments json.RawMessage
}

// CheckCall checks a call to tool name with arguments args (raw JSON, as
// the model sent them; empty means {}) before the application runs it. It
// returns a *CallError when:
//
//   - no tool of that name is available in the scope (ErrUnknownTool;
//     an out-of-scope tool is refused with the same words as a name that
//     does not exist, suggesting only in-scope names);
//   - the tool's server is pending or disconnected (ErrToolUnavailable);
//   - the arguments do not validate against the tool's input schema
//     (ErrInvalidArguments), or, for a deferred tool never discovered in
//     this conversation, ErrSchemaNotLoaded with the hint to call
//     ToolSearch with select:<name> and retry.
//
// A deferred tool that was never discovered may be called when its
// arguments validate. With CallBridge set, a call to CallTool is resolved
// to the tool it names (see ResolveBridgeCall). ToolSearch calls are not
// checked here: answer them with HandleToolSearch. Validators are
// compiled once per tool definition and shared by every Session.
func (s *Session) CheckCall(name string, args json.RawMessage) (*ToolCall, error) {
	if s.opts.CallBridge && name == CallToolName {
		return s.ResolveBridgeCall(args)
	}
	return s.checkCall(name, args)
}

func (s *Session) checkCall(name string, args json.RawMessage) (*ToolCall, error) {
	snap := s.reg.load()
	if name == ToolSearchName && s.searchOn(snap) {
		return nil, &CallError{Tool: name, Err: ErrUnknownTool,
			Message: "ToolSearch is answered by Session.HandleToolSearch, not run as an application tool."}
	}
	e := snap.named(name)
	if e == nil || !s.in(e) {
		if t, ok := s.reg.Lookup(name); ok && s.opts.Scope.Allows(&t) && t.Server != "" {
			st := s.reg.ServerStatus(t.Server)
			why := "is disconnected"
			if st == ServerPending {
				why = "is still connecting; try again shortly"
			}
			return nil, &CallError{Tool: name, Err: ErrToolUnavailable,
				Message: fmt.Sprintf("Tool %s is not available: its MCP server %s %s.", name, t.Server, why)}
		}
		msg := "No tool named " + name + " is available."
		if sug := snap.suggest(name, s.in); len(sug) > 0 {
			msg += " Did you mean " + strings.Join(sug, ", ") + "?"
		}
		return nil, &CallError{Tool: name, Err: ErrUnknownTool, Message: msg}
	}
	v, err := e.compiledSchema()
	if err != nil {
		return nil, &CallError{Tool: name, Err: ErrToolUnavailable,
			Message: fmt.Sprintf("Tool %s cannot be called: %v.", name, err)}
	}
	inst, compact, err := decodeArgs(args)
	if err != nil {
		return nil, &CallError{Tool: name, Err: ErrInvalidArguments,
			Message: fmt.Sprintf("The arguments for %s are not valid JSON: %v.", name, err)}
	}
	if err := v.Validate(inst); err != nil {
		why := validationMessage(err)
		if e.deferred && s.searchOn(snap) && !s.IsDiscovered(name) {
			return nil, &CallError{Tool: name, Err: ErrSchemaNotLoaded,
				Message: fmt.Sprintf("The arguments for %s do not match its schema (%s). This tool's schema was not loaded: call ToolSearch with select:%s, then retry.", name, why, name)}
		}
		return nil, &CallError{Tool: name, Err: ErrInvalidArguments,
			Message: fmt.Sprintf("The arguments for %s do not match its schema: %s.", name, why)}
	}
	return &ToolCall{Tool: e.copyTool(), Arguments: compact}, nil
}

// compiledSchema returns the tool's input schema compiled for validation,
// compiled once per entry (so once per tool definition, for every
// Session).
func (e *entry) compiledSchema() (*jsonschema.Schema, error) {
	l := e.lazy()
	l.validatorOnce.Do(func() {
		raw, err := e.loadSchema()
		if err != nil {
			l.validatorErr = err
			return
		}
		l.validator, l.validatorErr = compileSchema(raw)
	})
	return l.validator, l.validatorErr
}

// decodeArgs decodes one JSON value for validation (numbers kept exact)
// and returns it with its compact form. Empty input means {}.
func decodeArgs(args json.RawMessage) (any, json.RawMessage, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		return map[string]any{}, json.RawMessage(`{}`), nil
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, args); err != nil { // also refuses trailing data
		return nil, nil, err
	}
	return v, buf.Bytes(), nil
}
