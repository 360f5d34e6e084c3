package toolsearch

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Point 9: with the bridge on, Tools() stays byte-identical while the model
// discovers tools, and a CallTool call resolves to the tool and its
// validated arguments.
func TestBridgeToolsStable(t *testing.T) {
	reg := smallRegistry(t)
	s := NewSession(reg, &SessionOptions{CallBridge: true, Format: FormatToolReference})
	first := toolsJSON(t, s)
	assert.Equal(t, []string{"Read", "mcp__jira__create_ticket", "ToolSearch", "CallTool"}, toolNames(mustTools(t, s)))
	for _, q := range []string{"+slack send", "select:WebFetch", "github issue"} {
		content, after, isErr := handle(s, json.RawMessage(`{"query":"`+q+`"}`))
		require.False(t, isErr)
		require.Len(t, content, 1)
		require.Empty(t, after, "inline: nothing follows the tool result")
		assert.Contains(t, content[0].Text, `"schema":`, "bridge results are inline, with schemas")
		s.Announce()
		assert.Equal(t, string(first), string(toolsJSON(t, s)), "Tools() after %q", q)
	}
	assert.Contains(t, discovered(s), "WebFetch", "discoveries are still recorded")
	assert.Equal(t, callToolDefinition(), callToolDefinition())
}

func TestCheckCallResolvesCallTool(t *testing.T) {
	cases := []struct {
		name     string
		args     string
		wantTool string
		wantArgs string
		wantErr  error
		wantMsg  string
	}{
		{name: "valid", args: `{"name":"mcp__slack__send_message","arguments":{"channel_id":"C1","text":"hi"}}`,
			wantTool: "mcp__slack__send_message", wantArgs: `{"channel_id":"C1","text":"hi"}`},
		{name: "loaded tool through the bridge", args: `{"name":"Read","arguments":{"file_path":"/x"}}`,
			wantTool: "Read", wantArgs: `{"file_path":"/x"}`},
		{name: "inner arguments invalid, tool never loaded", args: `{"name":"mcp__slack__send_message","arguments":{"text":"hi"}}`,
			wantErr: ErrSchemaNotLoaded, wantMsg: "select:mcp__slack__send_message"},
		{name: "missing arguments", args: `{"name":"Read"}`, wantErr: ErrInvalidArguments,
			wantMsg: `The arguments for CallTool do not match its schema: missing properties: 'arguments'; expected {"name": string, "arguments": object}.`},
		{name: "arguments not an object", args: `{"name":"Read","arguments":"x"}`, wantErr: ErrInvalidArguments, wantMsg: "arguments: expected object"},
		{name: "not JSON", args: `{`, wantErr: ErrInvalidArguments, wantMsg: "not valid JSON"},
		{name: "unknown tool", args: `{"name":"Nope","arguments":{}}`, wantErr: ErrUnknownTool, wantMsg: "No tool named Nope is available."},
		{name: "itself", args: `{"name":"CallTool","arguments":{}}`, wantErr: ErrUnknownTool, wantMsg: "CallTool cannot call itself."},
		{name: "ToolSearch", args: `{"name":"ToolSearch","arguments":{"query":"x"}}`, wantErr: ErrUnknownTool, wantMsg: "call it directly"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSession(smallRegistry(t), &SessionOptions{CallBridge: true})
			for _, call := range []func() (*ToolCall, error){
				func() (*ToolCall, error) { return s.resolveBridgeCall(json.RawMessage(tc.args)) },
				func() (*ToolCall, error) { return s.CheckCall(CallToolName, json.RawMessage(tc.args)) },
			} {
				got, err := call()
				if tc.wantErr != nil {
					require.ErrorIs(t, err, tc.wantErr, "CallTool %s", tc.args)
					assert.Contains(t, err.Error(), tc.wantMsg)
					continue
				}
				require.NoError(t, err, "CallTool %s", tc.args)
				assert.Equal(t, tc.wantTool, got.Tool.Name)
				assert.Equal(t, tc.wantArgs, string(got.Arguments))
			}
		})
	}
}

// A registered tool named CallTool is shadowed by the bridge.
func TestBridgeShadowsRegisteredCallTool(t *testing.T) {
	reg := smallRegistry(t)
	require.NoError(t, reg.Register(Tool{Name: CallToolName, Description: "the application's own"}))
	s := NewSession(reg, &SessionOptions{CallBridge: true})
	defs := mustTools(t, s)
	assert.Equal(t, []string{"Read", "mcp__jira__create_ticket", "ToolSearch", "CallTool"}, toolNames(defs))
	assert.Equal(t, callToolDefinition(), defs[3])
	without := NewSession(reg, nil)
	assert.Contains(t, toolNames(mustTools(t, without)), CallToolName, "without the bridge it is an ordinary tool")
}
