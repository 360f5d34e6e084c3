package tseino

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
)

// weatherServer is an in-memory MCP server behind an mcphub.Conn (what
// the SDK adapters provide over a real session) with two tools; it records
// the calls it gets. (The Genkit adapter's tests have the same one: test
// code is not shared between separately versioned modules.)
type weatherServer struct {
	mu    sync.Mutex
	tools []toolsearch.Tool
	calls []string
	link  *mcphub.Link
}

func newWeatherServer() *weatherServer {
	return &weatherServer{tools: []toolsearch.Tool{
		toolsearch.NewMCPTool("weather", "get_forecast", "Get the weather forecast for a city",
			json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`), nil),
		toolsearch.NewMCPTool("weather", "get_alerts", "Severe weather alerts for a region",
			json.RawMessage(`{"type":"object","properties":{"region":{"type":"string"}}}`), nil),
	}}
}

// AddTool adds a tool and tells the hub, as tools/list_changed would.
func (ws *weatherServer) AddTool(name, desc string) {
	ws.mu.Lock()
	ws.tools = append(ws.tools, toolsearch.NewMCPTool("weather", name, desc, nil, nil))
	l := ws.link
	ws.mu.Unlock()
	l.ToolsChanged()
}

func (ws *weatherServer) ListTools(context.Context, string) (mcphub.Page, error) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return mcphub.Page{Tools: append([]toolsearch.Tool(nil), ws.tools...)}, nil
}

func (ws *weatherServer) CallTool(_ context.Context, name string, args json.RawMessage) (*mcphub.Result, error) {
	ws.mu.Lock()
	ws.calls = append(ws.calls, name+" "+string(args))
	ws.mu.Unlock()
	text := "Sunny, 21°C"
	if name == "get_uv_index" {
		text = "UV 5"
	}
	return &mcphub.Result{Content: []mcphub.Content{mcphub.TextContent(text)}}, nil
}

func (ws *weatherServer) Ping(context.Context) error { return mcphub.ErrNoPing }
func (ws *weatherServer) Close() error               { return nil }

func (ws *weatherServer) received() []string {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return append([]string(nil), ws.calls...)
}

// connectMCP attaches ws as MCP server name to a new registry through an
// mcphub.Hub. listed receives the number of tools of each listing after
// the first.
func connectMCP(t *testing.T, ws *weatherServer, name string) (reg *toolsearch.Registry, hub *mcphub.Hub, listed <-chan int) {
	t.Helper()
	reg = &toolsearch.Registry{}
	counts := make(chan int, 16)
	hub = mcphub.New(reg, &mcphub.Options{
		OnError:  func(server string, err error) { t.Errorf("server %s: %v", server, err) },
		OnListed: func(_ string, n int) { counts <- n },
	})
	require.NoError(t, hub.Attach(context.Background(), mcphub.Server{Name: name, Open: func(_ context.Context, l *mcphub.Link) (mcphub.Conn, error) {
		ws.mu.Lock()
		ws.link = l
		ws.mu.Unlock()
		return ws, nil
	}}))
	<-counts // the first listing
	t.Cleanup(func() { _ = hub.Close(name) })
	return reg, hub, counts
}

// An MCP server attached through an mcphub.Hub: the agent finds its tool with
// ToolSearch and calls it through the middleware (checked by CheckCall,
// run by the Servers).
func TestAgentMCPTools(t *testing.T) {
	tt := newTestTools(t)
	ws := newWeatherServer()
	reg, servers, _ := connectMCP(t, ws, "weather")
	mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn, Registry: reg, CallTool: servers.CallToolText})
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
	s := toolsearch.NewSession(reg, nil)
	answer(context.Background(), s, json.RawMessage(`{"query":"forecast city","max_results":1}`))
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
	reg, servers, listed := connectMCP(t, ws, "weather")
	mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn, Registry: reg, CallTool: servers.CallToolText})
	require.NoError(t, err)

	ws.AddTool("get_uv_index", "UV index for a city")
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
