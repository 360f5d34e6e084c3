package tsgenkit

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/genkit/internal/scriptedmodel"
	"github.com/toolsearch/toolsearch/internal/textanswer"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

// An MCP server attached through tsmcpsdk: the model finds its tool with
// ToolSearch and calls it in the same Generate (checked by CheckCall, run
// by the Servers).
func TestGenerateMCPTools(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var received []string
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "get_forecast", Description: "Get the weather forecast for a city",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []string{"city"}}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mu.Lock()
			received = append(received, req.Params.Name+" "+string(req.Params.Arguments))
			mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Sunny, 21°C"}}}, nil
		})
	serverSide, clientSide := mcp.NewInMemoryTransports()
	_, err := server.Connect(ctx, serverSide, nil)
	require.NoError(t, err)

	reg := &toolsearch.Registry{}
	servers := tsmcpsdk.New(reg, &tsmcpsdk.Options{OnError: func(server string, err error) { t.Errorf("server %s: %v", server, err) }})
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, servers.ClientOptions(nil))
	_, err = servers.Connect(ctx, "weather", client, clientSide, nil)
	require.NoError(t, err)
	defer servers.Close("weather")

	tt := newTestTools()
	conv := newConversation(t, &Config{DynamicTools: tt.dyn, Registry: reg,
		CallTool: func(ctx context.Context, name string, args json.RawMessage) (any, error) {
			return servers.CallToolText(ctx, name, args)
		}}, nil)
	m := scriptedmodel.New(nil,
		scriptedmodel.ToolCall("c1", "ToolSearch", `{"query":"forecast city","max_results":1}`),
		scriptedmodel.ToolCall("c2", "mcp__weather__get_forecast", `{}`),
		scriptedmodel.ToolCall("c3", "mcp__weather__get_forecast", `{"city":"Paris"}`),
		ai.NewModelTextMessage("Sunny in Paris."))
	resp := generate(t, conv, m, tt, userText("Weather in Paris?"))

	assert.Equal(t, "Sunny in Paris.", resp.Text())
	assert.Equal(t, []string{"get_time", "ToolSearch"}, m.ToolNames()[0])
	assert.Equal(t, []string{"get_time", "ToolSearch", "mcp__weather__get_forecast"}, m.ToolNames()[1], "the MCP tool found joins the next model call")
	s := toolsearch.NewSession(reg, nil)
	textanswer.Answer(s, json.RawMessage(`{"query":"forecast city","max_results":1}`))
	_, refusal := s.CheckCall("mcp__weather__get_forecast", json.RawMessage(`{}`))
	require.Error(t, refusal)
	assert.Equal(t, []string{refusal.Error(), "Sunny, 21°C"}, toolOutputs(resp.History())["mcp__weather__get_forecast"],
		"the bad call gets CheckCall's text; the good one the server's answer")
	mu.Lock()
	assert.Equal(t, []string{`get_forecast {"city":"Paris"}`}, received, "only the checked call reaches the server, under its MCP name")
	mu.Unlock()
}
