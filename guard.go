package toolsearch

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
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

// callToolDescription is the bridge's description. It never changes, so
// that a tool list holding it stays byte-identical.
const callToolDescription = `Calls a tool that ToolSearch returned. Tools found with ToolSearch are not added to your tool list: call them through this tool, with "name" set to the tool's exact name and "arguments" to an object that follows the schema ToolSearch returned for it.`

// callToolSchema is the bridge's input schema.
const callToolSchema = `{"type":"object","properties":{"name":{"type":"string","description":"The exact name of a tool returned by ToolSearch"},"arguments":{"type":"object","description":"The tool's arguments, following its schema"}},"required":["name","arguments"],"additionalProperties":false}`

const bridgeUsage = `expected {"name": string, "arguments": object}`

// CallToolDefinition returns the definition of the call bridge tool,
// CallTool {name, arguments}. It is the same on every call.
func CallToolDefinition() ToolDefinition {
	return ToolDefinition{
		Name:        CallToolName,
		Description: callToolDescription,
		InputSchema: json.RawMessage(callToolSchema),
	}
}

var bridgeSchema = sync.OnceValue(func() *jsonschema.Schema {
	s, err := compileSchema(json.RawMessage(callToolSchema))
	if err != nil {
		panic("toolsearch: the CallTool schema does not compile: " + err.Error())
	}
	return s
})

// ResolveBridgeCall resolves a call to the CallTool bridge (args are its
// raw arguments, {"name": …, "arguments": {…}}) to the tool it names and
// that tool's validated arguments, for the application to run. Arguments
// that do not fit the bridge's schema give a *CallError wrapping
// ErrInvalidArguments; the named tool is then checked as by CheckCall
// (a bridge call naming CallTool or ToolSearch is refused). It works
// whether or not CallBridge is set.
func (s *Session) ResolveBridgeCall(args json.RawMessage) (*ToolCall, error) {
	inst, _, err := decodeArgs(args)
	if err != nil {
		return nil, &CallError{Tool: CallToolName, Err: ErrInvalidArguments,
			Message: fmt.Sprintf("The arguments for %s are not valid JSON: %v; %s.", CallToolName, err, bridgeUsage)}
	}
	if err := bridgeSchema().Validate(inst); err != nil {
		return nil, &CallError{Tool: CallToolName, Err: ErrInvalidArguments,
			Message: fmt.Sprintf("The arguments for %s do not match its schema: %s; %s.", CallToolName, validationMessage(err), bridgeUsage)}
	}
	var call struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(args, &call); err != nil { // validated above
		return nil, &CallError{Tool: CallToolName, Err: ErrInvalidArguments, Message: err.Error()}
	}
	switch call.Name {
	case CallToolName:
		return nil, &CallError{Tool: call.Name, Err: ErrUnknownTool, Message: CallToolName + " cannot call itself."}
	case ToolSearchName:
		return nil, &CallError{Tool: call.Name, Err: ErrUnknownTool,
			Message: ToolSearchName + " is in your tool list: call it directly, not through " + CallToolName + "."}
	}
	return s.checkCall(call.Name, call.Arguments)
}
