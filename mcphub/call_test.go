package mcphub_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
)

// TestCallToolRoutesToTheServerThatOwnsTheTool: two servers (as two SDK
// adapters would attach them) in one hub; each call reaches its own.
func TestCallToolRoutesToTheServerThatOwnsTheTool(t *testing.T) {
	h := newHub(t, nil)
	ctx := context.Background()
	require.NoError(t, h.Attach(ctx, newFake("sdk", "echo").server(), newFake("mcpgo", "echo").server()))
	for _, server := range []string{"sdk", "mcpgo"} {
		res, err := h.CallTool(ctx, "mcp__"+server+"__echo", json.RawMessage(`{"a":1}`))
		require.NoError(t, err)
		assert.Equal(t, server+`:echo {"a":1}`, res.Text(), "the raw MCP name and the arguments reach %s", server)
	}
	_, err := h.CallTool(ctx, "mcp__other__echo", nil)
	require.ErrorIs(t, err, toolsearch.ErrUnknownTool)
	assert.EqualError(t, err, `call "mcp__other__echo": unknown tool: not a tool of an MCP server`)
	require.NoError(t, h.Close("sdk"))
	_, err = h.CallTool(ctx, "mcp__sdk__echo", nil)
	require.ErrorIs(t, err, toolsearch.ErrUnknownTool)
	assert.EqualError(t, err, `call "mcp__sdk__echo": unknown tool: server "sdk" is not attached`)
}

// TestCallToolErrorsForTheModel: CallTool's errors reach a model through
// an adapter's ErrorResult (toolsearch.ModelText): its own carry no Go
// package prefix, and a server's error keeps its own words, even words
// that look like a prefix.
func TestCallToolErrorsForTheModel(t *testing.T) {
	h := newHub(t, nil)
	ctx := context.Background()
	f := newFake("srv", "echo")
	f.call = func(context.Context, string, json.RawMessage) (*mcphub.Result, error) {
		return nil, errors.New("toolsearch: the server's own words")
	}
	require.NoError(t, h.Attach(ctx, f.server()))
	_, err := h.CallTool(ctx, "mcp__srv__echo", nil)
	assert.Equal(t, `call "mcp__srv__echo": toolsearch: the server's own words`, toolsearch.ModelText(err))
	_, err = h.CallTool(ctx, "mcp__srv__nope", nil)
	assert.Equal(t, `call "mcp__srv__nope": unknown tool: not a tool of an MCP server`, toolsearch.ModelText(err))
	assert.NotContains(t, toolsearch.ModelText(err), "toolsearch:")
}

func TestCallToolKeepsIsErrorAndEveryBlock(t *testing.T) {
	h := newHub(t, nil)
	f := newFake("media", "shot")
	wire := `{"content":[{"type":"text","text":"Taken."},{"type":"image","data":"iVBORw0=","mimeType":"image/png"},` +
		`{"type":"resource","resource":{"uri":"file:///a.txt","text":"hello"}}],"structuredContent":{"w":2},"isError":true}`
	f.call = func(context.Context, string, json.RawMessage) (*mcphub.Result, error) {
		var r mcphub.Result
		return &r, json.Unmarshal([]byte(wire), &r)
	}
	require.NoError(t, h.Attach(context.Background(), f.server()))
	res, err := h.CallTool(context.Background(), "mcp__media__shot", nil)
	require.NoError(t, err)
	assert.True(t, res.IsError)
	require.Len(t, res.Content, 3)
	assert.Equal(t, []string{"text", "image", "resource"}, []string{res.Content[0].Type, res.Content[1].Type, res.Content[2].Type})
	assert.Equal(t, "Taken.", res.Content[0].Text)
	assert.Empty(t, res.Content[1].Text, "only text blocks have Text")
	assert.JSONEq(t, `{"w":2}`, string(res.StructuredContent))
	b, err := json.Marshal(res)
	require.NoError(t, err)
	assert.JSONEq(t, wire, string(b), "the result encodes back to what the server sent")
	assert.Equal(t, "Taken.\n"+`{"type":"image","data":"iVBORw0=","mimeType":"image/png"}`+"\n"+
		`{"type":"resource","resource":{"uri":"file:///a.txt","text":"hello"}}`, res.Text())
}

func TestResultText(t *testing.T) {
	var none *mcphub.Result
	assert.Equal(t, "", none.Text())
	assert.Equal(t, "", (&mcphub.Result{}).Text())
	assert.Equal(t, `{"n":1}`, (&mcphub.Result{StructuredContent: json.RawMessage(`{"n":1}`)}).Text(), "no content: the structured content")
	assert.Equal(t, "a\nb", (&mcphub.Result{Content: []mcphub.Content{mcphub.TextContent("a"), mcphub.TextContent("b")}}).Text())
}

func TestResultJSON(t *testing.T) {
	b, err := json.Marshal(mcphub.Result{})
	require.NoError(t, err)
	assert.Equal(t, `{"content":[]}`, string(b), "content is always a list")
	_, err = json.Marshal(mcphub.Result{Content: []mcphub.Content{{Type: "image"}}})
	assert.EqualError(t, err, `json: error calling MarshalJSON for type mcphub.Result: mcphub: content block 0 ("image") has no JSON`)
	var r mcphub.Result
	assert.Error(t, json.Unmarshal([]byte(`{"content":[7]}`), &r))
	require.NoError(t, json.Unmarshal([]byte(`{"content":[],"structuredContent":null}`), &r))
	assert.Nil(t, r.StructuredContent, "null structured content is none")
}

func TestCallToolThatFindsTheSessionGone(t *testing.T) {
	h := newHub(t, nil)
	f := newFake("dies", "exit")
	f.call = func(context.Context, string, json.RawMessage) (*mcphub.Result, error) {
		f.link.Load().Lost(nil) // what an adapter does when the transport is closed
		return nil, errors.New("transport closed")
	}
	require.NoError(t, h.Attach(context.Background(), f.server()))
	_, err := h.CallTool(context.Background(), "mcp__dies__exit", nil)
	assert.EqualError(t, err, `call "mcp__dies__exit": transport closed`)
	assert.Equal(t, toolsearch.ServerDisconnected, h.Registry().ServerStatus("dies"), "disconnected by the time CallTool returns")
	text, err := h.CallToolText(context.Background(), "mcp__dies__exit", nil)
	require.ErrorIs(t, err, toolsearch.ErrUnknownTool)
	assert.Empty(t, text)
}
