package toolsearch

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// CallToolName is the name of the call bridge tool (see
// SessionOptions.CallBridge).
const CallToolName = "CallTool"

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
