package toolsearch

import (
	"errors"
	"fmt"
)

// Errors returned by the Registry, wrapped with the tool's name; test them
// with errors.Is.
var (
	// ErrInvalidName: a name is empty, longer than MaxNameLength or has a
	// character outside [A-Za-z0-9_.-].
	ErrInvalidName = errors.New("toolsearch: invalid tool name")
	// ErrDuplicateTool: a name (or alias) is already taken.
	ErrDuplicateTool = errors.New("toolsearch: duplicate tool name")
	// ErrInvalidSchema: an input schema is not valid JSON, not a JSON
	// object, not a valid JSON Schema, or refers to an external document.
	ErrInvalidSchema = errors.New("toolsearch: invalid input schema")
	// ErrNoSuchTool: a name given to Remove is not registered.
	ErrNoSuchTool = errors.New("toolsearch: no such tool")
)

// ErrInvalidQuery is returned (wrapped) for ToolSearch input that cannot be
// answered: malformed arguments or a bad max_results.
var ErrInvalidQuery = errors.New("toolsearch: invalid ToolSearch input")

// ErrLimit is wrapped by every error that reports a limit of Limits
// exceeded, together with ErrInvalidQuery for a query and ErrInvalidSchema
// for a schema.
var ErrLimit = errors.New("toolsearch: limit exceeded")

// ErrUnknownStrategy is returned (wrapped) by ParseStrategy for a name it
// does not know.
var ErrUnknownStrategy = errors.New("toolsearch: unknown strategy")

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

// ErrInvalidHistory is returned (wrapped) for a history that is not JSON
// or not in a shape DiscoveredInHistory reads.
var ErrInvalidHistory = errors.New("toolsearch: invalid history")
