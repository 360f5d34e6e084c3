package tsmcpsdk_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// TestCallToolForwardsWhatWasValidated: the arguments CheckCall validated
// are the bytes the server receives through the hub's CallTool; arguments
// that readers could read two ways (a key given twice, at any depth) never
// get there, and a lone surrogate reaches the server as the U+FFFD that was
// validated.
func TestCallToolForwardsWhatWasValidated(t *testing.T) {
	var got []json.RawMessage
	srv := mcp.NewServer(&mcp.Implementation{Name: "fs", Version: "0"}, nil)
	srv.AddTool(rawTool("write", "Write a note.", `{"type":"object","properties":{"path":{"enum":["notes.txt"]},"opts":{"type":"object"},"text":{"type":"string"}},"required":["path"]}`),
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			got = append(got, req.Params.Arguments)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	reg := &toolsearch.Registry{}
	servers := newServers(reg, nil)
	_, _, err := connect(t, context.Background(), servers, "fs", srv)
	require.NoError(t, err)
	sess := toolsearch.NewSession(reg, nil)

	for _, args := range []string{
		`{"path":"/etc/passwd","path":"notes.txt"}`,
		`{"path":"notes.txt","opts":{"mode":"a","\u006dode":"w"}}`,
	} {
		_, err := sess.CheckCall("mcp__fs__write", json.RawMessage(args))
		require.ErrorIs(t, err, toolsearch.ErrInvalidArguments, "CheckCall(%s)", args)
		assert.Contains(t, err.Error(), "is given twice in the object at /", args)
	}
	for _, tc := range []struct{ args, sent string }{
		{`{ "path": "notes.txt", "text": "hi" }`, `{"path":"notes.txt","text":"hi"}`},
		{`{"path":"notes.txt","text":"\ud800x"}`, `{"path":"notes.txt","text":"\ufffdx"}`},
	} {
		call, err := sess.CheckCall("mcp__fs__write", json.RawMessage(tc.args))
		require.NoError(t, err, tc.args)
		assert.JSONEq(t, tc.sent, string(call.Arguments))
		_, err = servers.CallTool(context.Background(), call.Tool.Name, call.Arguments)
		require.NoError(t, err)
		require.NotEmpty(t, got)
		assert.Equal(t, string(call.Arguments), string(got[len(got)-1]), "the server receives the validated bytes")
	}
}
