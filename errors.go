package toolsearch

import (
	"errors"
	"fmt"
)

// The errors of the package. Each is returned wrapped, with what went wrong
// and, for a tool, its name; test them with errors.Is. Only these sentinels
// carry the "toolsearch: " prefix, so no message repeats it.
var (
	// ErrInvalidName: a tool name or alias is empty, longer than 128 bytes
	// or has a character outside [A-Za-z0-9_.-].
	ErrInvalidName = errors.New("toolsearch: invalid tool name")
	// ErrDuplicateTool: a name (or alias) is already taken.
	ErrDuplicateTool = errors.New("toolsearch: duplicate tool name")
	// ErrInvalidSchema: an input schema is not valid JSON, not a JSON
	// object, not a valid JSON Schema, refers to an external document, or
	// is over a limit (then ErrLimit is wrapped too).
	ErrInvalidSchema = errors.New("toolsearch: invalid input schema")
	// ErrInvalidMeta: an MCP tool's _meta gives a key the package reads
	// ("anthropic/alwaysLoad", "anthropic/searchHint") a value of the wrong
	// type (see NewMCPTool).
	ErrInvalidMeta = errors.New("toolsearch: invalid _meta")
	// ErrServerMismatch: a tool given to Registry.SetServerTools names
	// another server in its Server field.
	ErrServerMismatch = errors.New("toolsearch: tool of another server")
	// ErrLimit: a limit of RegistryOptions, SearchOptions or SessionOptions
	// was exceeded. It is wrapped together with ErrInvalidSchema for a
	// schema, with ErrInvalidQuery for a query and with ErrInvalidArguments
	// for a tool call's arguments.
	ErrLimit = errors.New("toolsearch: limit exceeded")
	// ErrInvalidOption: a name given to ParseStrategy, or a text given to
	// Format.UnmarshalText or ToolSearchMode.UnmarshalText, is not one the
	// package knows; or a Strategy's input schema does not compile.
	ErrInvalidOption = errors.New("toolsearch: invalid option")
	// ErrInvalidQuery: ToolSearch input that cannot be answered (malformed
	// arguments, a bad max_results, a query over a limit, a pattern the
	// strategy refuses). The error's text is written for the model.
	ErrInvalidQuery = errors.New("toolsearch: invalid ToolSearch input")
	// ErrInvalidHistory: a history given to Session.Resume is not JSON or
	// not in a shape it reads.
	ErrInvalidHistory = errors.New("toolsearch: invalid history")

	// The call guard's refusals (Session.CheckCall). Their error's text is
	// written for the model.

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

// modelError is an error whose text is written for the model: a sentence
// with no Go prefix, to send back as an error tool result as it is. It
// wraps the sentinels that classify it (and the error it reports, if any).
type modelError struct {
	tool string // the tool called, for the call guard's refusals
	text string
	is   []error
}

func (e *modelError) Error() string   { return e.text }
func (e *modelError) Unwrap() []error { return e.is }

// invalidQuery returns the error for ToolSearch input that cannot be
// answered; text says what is wrong. also are more errors it wraps.
func invalidQuery(text string, also ...error) error {
	return &modelError{text: invalidInputPrefix + text, is: append([]error{ErrInvalidQuery}, also...)}
}

// overLimit returns the error for a query over a limit.
func overLimit(text string) error { return invalidQuery(text, ErrLimit) }

// refusal returns the call guard's error for a call to tool; also are
// more errors it wraps.
func refusal(tool string, sentinel error, text string, also ...error) error {
	return &modelError{tool: tool, text: text, is: append([]error{sentinel}, also...)}
}

// wrapped is err that also matches also, without adding its text.
type wrapped struct{ err, also error }

func (e *wrapped) Error() string   { return e.err.Error() }
func (e *wrapped) Unwrap() []error { return []error{e.err, e.also} }

const invalidInputPrefix = "Invalid ToolSearch input: "
