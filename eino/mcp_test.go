package tseino

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/textanswer"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

// weatherServer is an in-memory go-sdk MCP server with two tools that
// records the calls it gets.
type weatherServer struct {
	*mcp.Server
	mu    sync.Mutex
	calls []string
}

func newWeatherServer() *weatherServer {
	ws := &weatherServer{Server: mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1"}, nil)}
	handler := func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ws.mu.Lock()
		ws.calls = append(ws.calls, req.Params.Name+" "+string(req.Params.Arguments))
		ws.mu.Unlock()
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Sunny, 21°C"}}}, nil
	}
	ws.AddTool(&mcp.Tool{Name: "get_forecast", Description: "Get the weather forecast for a city",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []string{"city"}}}, handler)
	ws.AddTool(&mcp.Tool{Name: "get_alerts", Description: "Severe weather alerts for a region",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"region": map[string]any{"type": "string"}}}}, handler)
	return ws
}

func (ws *weatherServer) received() []string {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return append([]string(nil), ws.calls...)
}

// connectMCP attaches srv as MCP server name to a new registry through
// tsmcpsdk.Servers. listed receives the number of tools of each listing
// after the first.
func connectMCP(t *testing.T, srv *mcp.Server, name string) (reg *toolsearch.Registry, servers *tsmcpsdk.Servers, listed <-chan int) {
	t.Helper()
	ctx := context.Background()
	serverSide, clientSide := mcp.NewInMemoryTransports()
	_, err := srv.Connect(ctx, serverSide, nil)
	require.NoError(t, err)
	reg = &toolsearch.Registry{}
	counts := make(chan int, 16)
	servers = tsmcpsdk.New(reg, &tsmcpsdk.Options{
		OnError:  func(server string, err error) { t.Errorf("server %s: %v", server, err) },
		OnListed: func(_ string, n int) { counts <- n },
	})
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, servers.ClientOptions(nil))
	_, err = servers.Connect(ctx, name, client, clientSide, nil)
	require.NoError(t, err)
	<-counts // the first listing
	t.Cleanup(func() { _ = servers.Close(name) })
	return reg, servers, counts
}

// An MCP server attached through tsmcpsdk: the agent finds its tool with
// ToolSearch and calls it through the middleware (checked by CheckCall,
// run by the Servers).
func TestAgentMCPTools(t *testing.T) {
	tt := newTestTools(t)
	ws := newWeatherServer()
	reg, servers, _ := connectMCP(t, ws.Server, "weather")
	mw, err := New(context.Background(), &Config{DynamicTools: tt.dyn, Registry: reg, CallTool: servers.CallToolText})
	require.NoError(t, err)
	m := script(
		call("ToolSearch", `{"query":"forecast city","max_results":1}`),
		call("mcp__weather__get_forecast", `{}`),
		call("mcp__weather__get_forecast", `{"city":"Paris"}`),
		schema.AssistantMessage("Sunny in Paris.", nil),
	)
	msgs := runAgent(t, mw, m, tt, schema.UserMessage("Weather in Paris?"))

	assert.Equal(t, []string{"get_time", "ToolSearch"}, m.ToolNames()[0])
	assert.Equal(t, []string{"get_time", "ToolSearch", "mcp__weather__get_forecast"}, m.ToolNames()[1], "the MCP tool found joins the next model call")
	sys := m.Calls()[0].Input[0].Content
	assert.Contains(t, sys, "mcp__weather__get_alerts", "the instruction names the MCP server's deferred tools")

	out := toolOutputs(msgs)
	require.Len(t, out["ToolSearch"], 1)
	assert.Contains(t, out["ToolSearch"][0], `"name":"mcp__weather__get_forecast"`)
	s := textanswer.NewSession(reg, nil)
	textanswer.Answer(s, json.RawMessage(`{"query":"forecast city","max_results":1}`))
	_, refusal := s.CheckCall("mcp__weather__get_forecast", json.RawMessage(`{}`))
	require.Error(t, refusal)
	assert.Equal(t, []string{refusal.Error(), "Sunny, 21°C"}, out["mcp__weather__get_forecast"],
		"the bad call gets CheckCall's text; the good one the server's answer")
	assert.Equal(t, []string{`get_forecast {"city":"Paris"}`}, ws.received(), "only the checked call reaches the server, under its MCP name")
}

// A tool the server adds later (tools/list_changed) is offered from the
// next run on; the tools of a server that is closed are not.
func TestAgentMCPToolsFollowTheServer(t *testing.T) {
	tt := newTestTools(t)
	ws := newWeatherServer()
	reg, servers, listed := connectMCP(t, ws.Server, "weather")
	mw, err := New(context.Background(), &Config{DynamicTools: tt.dyn, Registry: reg, CallTool: servers.CallToolText})
	require.NoError(t, err)

	ws.AddTool(&mcp.Tool{Name: "get_uv_index", Description: "UV index for a city", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "UV 5"}}}, nil
		})
	require.Equal(t, 3, <-listed, "tools/list_changed lists the server again")
	m := script(call("ToolSearch", `{"query":"select:mcp__weather__get_uv_index"}`), call("mcp__weather__get_uv_index", `{}`), schema.AssistantMessage("UV 5.", nil))
	msgs := runAgent(t, mw, m, tt, schema.UserMessage("UV?"))
	assert.Equal(t, []string{"UV 5"}, toolOutputs(msgs)["mcp__weather__get_uv_index"])

	require.NoError(t, servers.Close("weather"))
	m = script(call("ToolSearch", `{"query":"select:mcp__weather__get_uv_index"}`), schema.AssistantMessage("Gone.", nil))
	msgs = runAgent(t, mw, m, tt, schema.UserMessage("UV?"))
	out := toolOutputs(msgs)["ToolSearch"]
	require.Len(t, out, 1)
	assert.NotContains(t, out[0], `"name":"mcp__weather__get_uv_index"`, "a closed server's tool is not found")
	for i, names := range m.ToolNames() {
		assert.NotContains(t, names, "mcp__weather__get_uv_index", "model call %d", i+1)
	}
}
