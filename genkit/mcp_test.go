package tsgenkit

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/genkit/genkittest"
	"github.com/toolsearch/toolsearch/mcphub"
)

// weatherServer is an in-memory MCP server behind an mcphub.Conn (what
// the SDK adapters provide over a real session) with one tool; it records
// the calls it gets. (The eino adapter's tests have a similar one: test
// code is not shared between separately versioned modules.)
type weatherServer struct {
	mu    sync.Mutex
	calls []string
}

func (ws *weatherServer) ListTools(context.Context, string) (mcphub.Page, error) {
	return mcphub.Page{Tools: []toolsearch.Tool{toolsearch.NewMCPTool("weather", "get_forecast", "Get the weather forecast for a city",
		json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`), nil)}}, nil
}

func (ws *weatherServer) CallTool(_ context.Context, name string, args json.RawMessage) (*mcphub.Result, error) {
	ws.mu.Lock()
	ws.calls = append(ws.calls, name+" "+string(args))
	ws.mu.Unlock()
	return &mcphub.Result{Content: []mcphub.Content{mcphub.TextContent("Sunny, 21°C")}}, nil
}

func (ws *weatherServer) Ping(context.Context) error { return mcphub.ErrNoPing }
func (ws *weatherServer) Close() error               { return nil }

// An MCP server attached through an mcphub.Hub: the model finds its tool
// with ToolSearch and calls it in the same Generate (checked by CheckCall,
// run by the hub).
func TestGenerateMCPTools(t *testing.T) {
	ctx := context.Background()
	ws := &weatherServer{}
	reg := &toolsearch.Registry{}
	servers := mcphub.New(reg, &mcphub.Options{OnError: func(server string, err error) { t.Errorf("server %s: %v", server, err) }})
	require.NoError(t, servers.Attach(ctx, mcphub.Server{Name: "weather", Open: func(context.Context, *mcphub.Link) (mcphub.Conn, error) { return ws, nil }}))
	defer servers.Close("weather")

	tt := newTestTools()
	conv := newConversation(t, &Options{DynamicTools: tt.dyn, Registry: reg,
		CallTool: func(ctx context.Context, name string, args json.RawMessage) (any, error) {
			return servers.CallToolText(ctx, name, args)
		}}, nil)
	m := genkittest.New(nil,
		genkittest.ToolCall("c1", "ToolSearch", `{"query":"forecast city","max_results":1}`),
		genkittest.ToolCall("c2", "mcp__weather__get_forecast", `{}`),
		genkittest.ToolCall("c3", "mcp__weather__get_forecast", `{"city":"Paris"}`),
		ai.NewModelTextMessage("Sunny in Paris."))
	resp := generate(t, conv, m, tt, userText("Weather in Paris?"))

	assert.Equal(t, "Sunny in Paris.", resp.Text())
	assert.Equal(t, []string{"get_time", "ToolSearch"}, m.ToolNames()[0])
	assert.Equal(t, []string{"get_time", "ToolSearch", "mcp__weather__get_forecast"}, m.ToolNames()[1], "the MCP tool found joins the next model call")
	s := toolsearch.NewSession(reg, nil)
	answer(context.Background(), s, json.RawMessage(`{"query":"forecast city","max_results":1}`))
	_, refusal := s.CheckCall("mcp__weather__get_forecast", json.RawMessage(`{}`))
	require.Error(t, refusal)
	assert.Equal(t, []string{refusal.Error(), "Sunny, 21°C"}, toolOutputs(resp.History())["mcp__weather__get_forecast"],
		"the bad call gets CheckCall's text; the good one the server's answer")
	ws.mu.Lock()
	assert.Equal(t, []string{`get_forecast {"city":"Paris"}`}, ws.calls, "only the checked call reaches the server, under its MCP name")
	ws.mu.Unlock()
}
