package toolsearch

import (
	"encoding/json"
	"errors"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/toolsearch/toolsearch/internal/querywork"
	"github.com/toolsearch/toolsearch/internal/schema"
	"github.com/toolsearch/toolsearch/internal/text"
)

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
// refuses the call when:
//
//   - no tool of that name is available in the scope (ErrUnknownTool;
//     an out-of-scope tool is refused with the same words as a name that
//     does not exist, suggesting only in-scope names);
//   - the tool's server is pending or disconnected, or its lazy schema
//     cannot be loaded (ErrToolUnavailable);
//   - the arguments do not validate against the tool's input schema
//     (ErrInvalidArguments), or, for a deferred tool never discovered in
//     this conversation, ErrSchemaNotLoaded with the hint to call
//     ToolSearch with select:<name> and retry.
//
// What a call can cost is bounded, each refusal wrapping
// ErrInvalidArguments and ErrLimit: arguments longer than
// SessionOptions.MaxArgumentBytes are refused before they are decoded; a
// number with more than 100 digits or an exponent beyond ±400 before they
// are validated (the schema library would spend time in proportion to the
// exponent), naming where it is; arguments whose decoding could cost more
// than SessionOptions.MaxValidationWork (many small values) before they
// are decoded; and arguments whose decoding and validation together could
// cost more than it before validation runs (a CallTool call pays for its
// own decoding too). The
// validation messages quote at most a few hundred bytes each, ten at most.
// A name no tool has is refused without any work in proportion to its
// length, and quoted by its first 128 bytes.
//
// ToolCall.Arguments are the bytes that were validated, read the same way
// by any JSON reader: arguments with an object that gives a key twice, at
// any depth, are refused (ErrInvalidArguments, naming the key and where),
// since readers disagree on which value counts (a server keeping the
// first would act on a value the schema never saw); keys are compared as
// decoded ("a" and "\u0061" are one key). An invalid UTF-8 byte, or an
// escaped lone surrogate, is handed on as U+FFFD, as it was validated.
//
// The error's text is written for the model: send it back as an error tool
// result. A deferred tool that was never discovered may be called when its
// arguments validate. With CallBridge set, a call to CallTool
// {"name", "arguments"} is resolved to the tool it names, which is checked
// the same way (a CallTool call naming CallTool or ToolSearch is refused,
// and so are arguments that do not fit CallTool's schema). ToolSearch calls
// are answered by Call, not checked here. Validators are compiled once per
// tool definition and shared by every Session.
func (s *Session) CheckCall(name string, args json.RawMessage) (*ToolCall, error) {
	if n, limit := len(args), s.opts.MaxArgumentBytes; n > limit {
		return nil, refusal(text.Echo(name), ErrInvalidArguments, refuseArgsTooLong(text.Echo(name), n, limit), ErrLimit)
	}
	if s.opts.CallBridge && name == CallToolName {
		return s.resolveBridgeCall(args)
	}
	return s.checkCall(name, args, 0)
}

// checkCall checks a call to name with args, spent units of
// MaxValidationWork having been used already (decoding a CallTool call).
func (s *Session) checkCall(name string, args json.RawMessage, spent int) (*ToolCall, error) {
	if len(name) > maxNameLength {
		// No tool has such a name: refused before any work in proportion
		// to its length (a lookup, close names).
		return nil, refusal(text.Echo(name), ErrUnknownTool, refuseNameTooLong(name))
	}
	snap := s.reg.load()
	if name == ToolSearchName && s.searchOn(snap) {
		return nil, refusal(name, ErrUnknownTool, refuseToolSearch())
	}
	e := snap.named(name)
	if e == nil || !s.in(e) {
		if t, ok := s.reg.Lookup(name); ok && t.Server != "" && s.in(&entry{tool: t, deferred: t.Deferred()}) {
			pending := s.reg.ServerStatus(t.Server) == ServerPending
			return nil, refusal(name, ErrToolUnavailable, refuseUnavailable(name, t.Server, pending))
		}
		sug, _ := snap.suggest(name, s.in, querywork.New(s.opts.Search.MaxQueryWork))
		return nil, refusal(name, ErrUnknownTool, refuseUnknown(name, sug))
	}
	v, err := e.compiledSchema()
	if err != nil {
		return nil, refusal(name, ErrToolUnavailable, refuseNoSchema(name, err))
	}
	// Decoding is charged first, from the raw bytes: many small values
	// cost more to decode than any schema asks of them.
	spent += schema.DecodeWork(args)
	if spent > s.opts.MaxValidationWork {
		return nil, refusal(name, ErrInvalidArguments, refuseArgsWork(name), ErrLimit)
	}
	inst, compact, err := schema.DecodeArgs(args)
	var dup *schema.DuplicateKeyError
	switch {
	case errors.As(err, &dup):
		return nil, refusal(name, ErrInvalidArguments, refuseArgsDuplicate(name, dup.Error()))
	case err != nil:
		return nil, refusal(name, ErrInvalidArguments, refuseArgsNotJSON(name, err))
	}
	if err := schema.CheckNumbers(inst); err != nil {
		return nil, refusal(name, ErrInvalidArguments, refuseArgsBounds(name, err), ErrLimit)
	}
	switch err := v.Work(inst, s.opts.MaxValidationWork-spent); {
	case errors.Is(err, schema.ErrTooMuchWork):
		return nil, refusal(name, ErrInvalidArguments, refuseArgsWork(name), ErrLimit)
	case err != nil:
		return nil, refusal(name, ErrInvalidArguments, refuseArgsBounds(name, err), ErrLimit)
	}
	if err := v.Validate(inst); err != nil {
		why := schema.Message(err)
		if e.deferred && s.searchOn(snap) && !s.isDiscovered(name) {
			return nil, refusal(name, ErrSchemaNotLoaded, refuseArgsNotLoaded(name, why))
		}
		return nil, refusal(name, ErrInvalidArguments, refuseArgs(name, why))
	}
	return &ToolCall{Tool: e.copyTool(), Arguments: compact}, nil
}

var bridgeSchema = sync.OnceValue(func() *jsonschema.Schema {
	s, err := compileSchema(json.RawMessage(callToolSchema))
	if err != nil {
		panic("toolsearch: the CallTool schema does not compile: " + err.Error())
	}
	return s
})

// resolveBridgeCall resolves a call to the CallTool bridge (args are its
// raw arguments, {"name": …, "arguments": {…}}) to the tool it names and
// that tool's validated arguments, checked as by CheckCall.
func (s *Session) resolveBridgeCall(args json.RawMessage) (*ToolCall, error) {
	spent := schema.DecodeWork(args)
	if spent > s.opts.MaxValidationWork {
		return nil, refusal(CallToolName, ErrInvalidArguments, refuseArgsWork(CallToolName), ErrLimit)
	}
	inst, compact, err := schema.DecodeArgs(args)
	var dup *schema.DuplicateKeyError
	switch {
	case errors.As(err, &dup):
		return nil, refusal(CallToolName, ErrInvalidArguments, refuseArgsDuplicate(CallToolName, dup.Error()))
	case err != nil:
		return nil, refusal(CallToolName, ErrInvalidArguments, refuseBridgeNotJSON(err))
	}
	if err := schema.CheckNumbers(inst); err != nil {
		return nil, refusal(CallToolName, ErrInvalidArguments, refuseArgsBounds(CallToolName, err), ErrLimit)
	}
	if err := bridgeSchema().Validate(inst); err != nil {
		return nil, refusal(CallToolName, ErrInvalidArguments, refuseBridgeArgs(schema.Message(err)))
	}
	// The name and arguments are read from the validated reading: exact
	// keys (a struct would also take "NAME"), no key given twice.
	var members map[string]json.RawMessage
	if err := json.Unmarshal(compact, &members); err != nil { // validated above
		return nil, refusal(CallToolName, ErrInvalidArguments, refuseBridgeNotJSON(err))
	}
	call := struct {
		Name      string
		Arguments json.RawMessage
	}{inst.(map[string]any)["name"].(string), members["arguments"]}
	switch call.Name {
	case CallToolName:
		return nil, refusal(call.Name, ErrUnknownTool, refuseBridgeSelf())
	case ToolSearchName:
		return nil, refusal(call.Name, ErrUnknownTool, refuseBridgeToolSearch())
	}
	return s.checkCall(call.Name, call.Arguments, spent)
}
