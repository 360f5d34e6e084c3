package mcphub

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolsearch/toolsearch"
)

// CallTool calls the registry tool named name (mcp__<server>__<tool>) on
// the session of its server, whichever adapter attached it, under the
// tool's raw MCP name, with args, the raw JSON arguments the model sent
// (empty means none). The Result keeps every content block, the
// structured content and isError. A name that is not a tool of an attached
// server is an error wrapping toolsearch.ErrUnknownTool. A call that finds
// the session gone returns once the server has been marked disconnected.
// Check the call with toolsearch.Session.CheckCall first and pass its
// ToolCall.Arguments: CallTool does not validate args, and those are the
// bytes CheckCall validated (arguments a server could read otherwise, such
// as a key given twice, are refused there).
func (h *Hub) CallTool(ctx context.Context, name string, args json.RawMessage) (*Result, error) {
	t, ok := h.reg.Lookup(name)
	if !ok || t.Server == "" {
		return nil, &unknownTool{name, "not a tool of an MCP server"}
	}
	l, conn := h.lookup(t.Server)
	if conn == nil {
		return nil, &unknownTool{name, fmt.Sprintf("server %q is not attached", t.Server)}
	}
	res, err := conn.CallTool(ctx, t.MCPName, args)
	if err != nil {
		if l.ctx.Err() != nil {
			<-l.done // the session is gone: the server is marked disconnected by now
		}
		return nil, fmt.Errorf("call %q: %w", name, err)
	}
	if res == nil {
		res = &Result{}
	}
	return res, nil
}

// unknownTool is CallTool's error for a name no attached server owns. It
// wraps toolsearch.ErrUnknownTool, and its text says so without the Go
// package prefix (call "x": unknown tool: why): an adapter's ErrorResult
// sends it to the model as it is.
type unknownTool struct{ name, why string }

func (e *unknownTool) Error() string {
	return fmt.Sprintf("call %q: %s: %s", e.name, toolsearch.ModelText(toolsearch.ErrUnknownTool), e.why)
}

func (e *unknownTool) Unwrap() error { return toolsearch.ErrUnknownTool }

// CallToolText calls the tool as CallTool does and returns its result as
// one text (see Result.Text), for agent frameworks whose tool output is a
// string: it fits the CallTool options of the eino and Genkit adapters of
// this project.
func (h *Hub) CallToolText(ctx context.Context, name string, args json.RawMessage) (string, error) {
	res, err := h.CallTool(ctx, name, args)
	if err != nil {
		return "", err
	}
	return res.Text(), nil
}
