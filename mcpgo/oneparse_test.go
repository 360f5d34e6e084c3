package tsmcpgo_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// TestCallToolForwardsWhatWasValidated: the arguments CheckCall validated
// are what the server reads through the hub's CallTool; arguments that
// readers could read two ways (a key given twice, at any depth) never get
// there, and a lone surrogate reaches the server as the U+FFFD that was
// validated.
func TestCallToolForwardsWhatWasValidated(t *testing.T) {
	var got []any
	srv := server.NewMCPServer("fs", "0", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewToolWithRawSchema("write", "Write a note.", json.RawMessage(`{"type":"object","properties":{"path":{"enum":["notes.txt"]},"opts":{"type":"object"},"text":{"type":"string"}},"required":["path"]}`)),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			got = append(got, req.Params.Arguments)
			return mcp.NewToolResultText("ok"), nil
		})
	c, err := client.NewInProcessClient(srv)
	require.NoError(t, err)
	reg := &toolsearch.Registry{}
	servers := newServers(reg, nil)
	require.NoError(t, servers.Attach(context.Background(), "fs", c))
	sess := toolsearch.NewSession(reg, nil)

	for _, args := range []string{
		`{"path":"/etc/passwd","path":"notes.txt"}`,
		`{"path":"notes.txt","opts":{"mode":"a","\u006dode":"w"}}`,
	} {
		_, err := sess.CheckCall("mcp__fs__write", json.RawMessage(args))
		require.ErrorIs(t, err, toolsearch.ErrInvalidArguments, "CheckCall(%s)", args)
		assert.Contains(t, err.Error(), "is given twice in the object at /", args)
	}
	for _, args := range []string{`{ "path": "notes.txt", "text": "hi" }`, `{"path":"notes.txt","text":"\ud800x"}`} {
		call, err := sess.CheckCall("mcp__fs__write", json.RawMessage(args))
		require.NoError(t, err, args)
		_, err = servers.CallTool(context.Background(), call.Tool.Name, call.Arguments)
		require.NoError(t, err)
		require.NotEmpty(t, got)
		sent, err := json.Marshal(got[len(got)-1])
		require.NoError(t, err)
		assert.JSONEq(t, string(call.Arguments), string(sent), "the server reads the validated arguments")
	}
	assert.Equal(t, "\ufffdx", got[len(got)-1].(map[string]any)["text"])
}
