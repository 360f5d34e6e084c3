package toolsearch

import (
	"fmt"
	"strings"
)

// The errors of the package. Each is returned wrapped, with what went wrong
// and, for a tool, its name; test them with errors.Is. Only these sentinels
// carry the "toolsearch: " prefix, so no message repeats it, and every
// error of the package also knows its text without it (ModelText).
var (
	// ErrInvalidName: a tool name or alias is empty, longer than 128 bytes
	// or has a character outside [A-Za-z0-9_.-].
	ErrInvalidName = newSentinel("invalid tool name")
	// ErrDuplicateTool: a name (or alias) is already taken.
	ErrDuplicateTool = newSentinel("duplicate tool name")
	// ErrInvalidSchema: an input schema is not valid JSON, not a JSON
	// object, not a valid JSON Schema, refers to an external document, or
	// is over a limit (then ErrLimit is wrapped too).
	ErrInvalidSchema = newSentinel("invalid input schema")
	// ErrInvalidMeta: an MCP tool's _meta gives a key the package reads
	// ("anthropic/alwaysLoad", "anthropic/searchHint") a value of the wrong
	// type (see NewMCPTool).
	ErrInvalidMeta = newSentinel("invalid _meta")
	// ErrServerMismatch: a tool given to Registry.SetServerTools names
	// another server in its Server field.
	ErrServerMismatch = newSentinel("tool of another server")
	// ErrLimit: a limit of RegistryOptions, SearchOptions or SessionOptions
	// was exceeded. It is wrapped together with ErrInvalidSchema for a
	// schema, with ErrInvalidQuery for a query and with ErrInvalidArguments
	// for a tool call's arguments.
	ErrLimit = newSentinel("limit exceeded")
	// ErrInvalidOption: a name given to ParseStrategy, or a text given to
	// Format.UnmarshalText or ToolSearchMode.UnmarshalText, is not one the
	// package knows; or a Strategy's input schema does not compile.
	ErrInvalidOption = newSentinel("invalid option")
	// ErrInvalidQuery: ToolSearch input that cannot be answered (malformed
	// arguments, a bad max_results, a query over a limit, a pattern the
	// strategy refuses). The error's text is written for the model.
	ErrInvalidQuery = newSentinel("invalid ToolSearch input")
	// ErrInvalidHistory: a history given to Session.Resume is not JSON or
	// not in a shape it reads.
	ErrInvalidHistory = newSentinel("invalid history")

	// The call guard's refusals (Session.CheckCall). Their error's text is
	// written for the model.

	// ErrUnknownTool: no tool of that name is in the conversation's scope.
	// A tool outside the scope gets exactly this error, so a refusal never
	// reveals that it exists.
	ErrUnknownTool = newSentinel("unknown tool")
	// ErrToolUnavailable: the tool is in scope but cannot be called now:
	// its MCP server is pending or disconnected, or its lazy schema could
	// not be loaded.
	ErrToolUnavailable = newSentinel("tool unavailable")
	// ErrInvalidArguments: the arguments are not JSON or do not validate
	// against the tool's input schema.
	ErrInvalidArguments = newSentinel("invalid tool arguments")
	// ErrSchemaNotLoaded: the tool is deferred and was never discovered in
	// this conversation, and its arguments do not validate: the model
	// guessed them. The message tells it to load the tool with ToolSearch
	// select:<name> first. It wraps ErrInvalidArguments.
	ErrSchemaNotLoaded = errorf(ErrInvalidArguments, "schema not loaded")
)

// ModelText returns the text of err written for the model, to send back as
// an error tool result: the text of an error of Searcher.Call,
// Searcher.Search, Session.Call or Session.CheckCall as it is (see their
// documentation); for the other errors of the package (a tool refused, a
// lazy schema that failed to load), their text without the Go package
// prefix; and any other error's text unchanged, so that a user's or an MCP
// server's own words are never rewritten. An error of the package that
// another error wraps with words of its own (fmt.Errorf with %w) is
// quoted whole, as the wrapping error says it. ModelText(nil) is "".
func ModelText(err error) string {
	switch e := err.(type) {
	case nil:
		return ""
	case interface{ modelText() string }:
		return e.modelText()
	case interface{ Unwrap() []error }: // errors.Join
		errs := e.Unwrap()
		texts, models := make([]string, len(errs)), make([]string, len(errs))
		for i, x := range errs {
			texts[i], models[i] = x.Error(), ModelText(x)
		}
		if strings.Join(texts, "\n") == err.Error() {
			return strings.Join(models, "\n")
		}
	}
	return err.Error()
}

// sentinel is an error the package's errors wrap: its text is the
// package's name and what it is; its text for the model, what it is.
type sentinel struct{ what string }

func newSentinel(what string) error { return &sentinel{what} }

func (e *sentinel) Error() string     { return "toolsearch: " + e.what }
func (e *sentinel) modelText() string { return e.what }

// fault is an error of the package: its text, the same for the model
// (without the package prefix), and the error it wraps.
type fault struct {
	text, model string
	err         error
}

func (e *fault) Error() string     { return e.text }
func (e *fault) Unwrap() error     { return e.err }
func (e *fault) modelText() string { return e.model }

// errorf returns the error "<sentinel>: <what>", wrapping sentinel; what
// is format and args as fmt.Sprintf makes it.
func errorf(sentinel error, format string, args ...any) error {
	what := fmt.Sprintf(format, args...)
	return &fault{text: sentinel.Error() + ": " + what, model: ModelText(sentinel) + ": " + what, err: sentinel}
}

// wrapf returns the error "<context>: <err>", wrapping err; context is
// format and args as fmt.Sprintf makes it.
func wrapf(err error, format string, args ...any) error {
	context := fmt.Sprintf(format, args...)
	return &fault{text: context + ": " + err.Error(), model: context + ": " + ModelText(err), err: err}
}

// modelError is an error whose text is written for the model: a sentence
// with no Go prefix, to send back as an error tool result as it is. It
// wraps the sentinels that classify it (and the error it reports, if any).
type modelError struct {
	tool string // the tool called, for the call guard's refusals
	text string
	is   []error
}

func (e *modelError) Error() string     { return e.text }
func (e *modelError) Unwrap() []error   { return e.is }
func (e *modelError) modelText() string { return e.text }

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

func (e *wrapped) Error() string     { return e.err.Error() }
func (e *wrapped) Unwrap() []error   { return []error{e.err, e.also} }
func (e *wrapped) modelText() string { return ModelText(e.err) }

const invalidInputPrefix = "Invalid ToolSearch input: "
