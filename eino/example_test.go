package tseino_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/schema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch"
	tseino "github.com/toolsearch/toolsearch/eino"
	"github.com/toolsearch/toolsearch/eino/internal/scriptedmodel"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

// The middleware replaces eino's own tool-search middleware: same
// configuration, in the agent's Handlers.
func ExampleNew() {
	ctx := context.Background()
	type cityIn struct {
		City string `json:"city"`
	}
	forecast, _ := utils.InferTool("get_forecast", "Weather forecast for a city", func(_ context.Context, in cityIn) (string, error) {
		return "Sunny in " + in.City, nil
	})
	mw, err := tseino.New(ctx, &tseino.Config{DynamicTools: []tool.BaseTool{forecast}})
	if err != nil {
		panic(err)
	}
	model := scriptedmodel.New(nil,
		scriptedmodel.ToolCall("1", "ToolSearch", `{"query":"forecast"}`),
		scriptedmodel.ToolCall("2", "get_forecast", `{"city":"Oslo"}`),
		schema.AssistantMessage("Sunny in Oslo.", nil))
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "weather", Description: "weather", Model: model,
		Handlers: []adk.ChatModelAgentMiddleware{mw},
	})
	if err != nil {
		panic(err)
	}
	events := agent.Run(ctx, &adk.AgentInput{Messages: []adk.Message{schema.UserMessage("Weather in Oslo?")}})
	for ev, ok := events.Next(); ok; ev, ok = events.Next() {
		if ev.Err != nil {
			panic(ev.Err)
		}
	}
	for i, names := range model.ToolNames() {
		fmt.Println("model call", i+1, names)
	}
	// Output:
	// model call 1 [ToolSearch]
	// model call 2 [ToolSearch get_forecast]
	// model call 3 [ToolSearch get_forecast]
}

// MCP tools: the mcpsdk adapter keeps an MCP server's tools in the
// registry, and the middleware defers them and runs the calls through it.
func ExampleNew_mcp() {
	ctx := context.Background()
	// An MCP server, in memory here; over stdio use &mcp.CommandTransport{...}.
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "get_forecast", Description: "Weather forecast for a city",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Sunny for " + string(req.Params.Arguments)}}}, nil
		})
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverSide, nil); err != nil {
		panic(err)
	}

	reg := &toolsearch.Registry{}
	servers := tsmcpsdk.New(reg, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, servers.ClientOptions(nil))
	if _, err := servers.Connect(ctx, "weather", client, clientSide, nil); err != nil {
		panic(err)
	}
	defer servers.Close("weather")
	mw, err := tseino.New(ctx, &tseino.Config{Registry: reg, CallTool: servers.CallToolText})
	if err != nil {
		panic(err)
	}

	model := scriptedmodel.New(nil,
		scriptedmodel.ToolCall("1", "ToolSearch", `{"query":"forecast"}`),
		scriptedmodel.ToolCall("2", "mcp__weather__get_forecast", `{"city":"Oslo"}`),
		schema.AssistantMessage("Sunny in Oslo.", nil))
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "weather", Description: "weather", Model: model,
		Handlers: []adk.ChatModelAgentMiddleware{mw},
	})
	if err != nil {
		panic(err)
	}
	events := agent.Run(ctx, &adk.AgentInput{Messages: []adk.Message{schema.UserMessage("Weather in Oslo?")}})
	for ev, ok := events.Next(); ok; ev, ok = events.Next() {
		if ev.Err != nil {
			panic(ev.Err)
		}
		if ev.Output == nil || ev.Output.MessageOutput == nil {
			continue
		}
		if msg, err := ev.Output.MessageOutput.GetMessage(); err == nil && msg.Role == schema.Tool && msg.ToolName != "ToolSearch" {
			fmt.Println(msg.ToolName, "→", msg.Content)
		}
	}
	fmt.Println(model.ToolNames()[1])
	// Output:
	// mcp__weather__get_forecast → Sunny for {"city":"Oslo"}
	// [ToolSearch mcp__weather__get_forecast]
}

func ExampleTool() {
	info := &schema.ToolInfo{Name: "get_forecast", Desc: "Weather forecast for a city",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"city": {Type: schema.String, Desc: "City name", Required: true},
			"unit": {Type: schema.String, Enum: []string{"C", "F"}},
		})}
	t, err := tseino.Tool(info)
	if err != nil {
		panic(err)
	}
	fmt.Println(t.Name)
	fmt.Println(string(t.InputSchema))
	// Output:
	// get_forecast
	// {"properties":{"city":{"description":"City name","type":"string"},"unit":{"enum":["C","F"],"type":"string"}},"required":["city"],"type":"object"}
}

func ExampleToolInfo() {
	info, err := tseino.ToolInfo(toolsearch.ToolDefinition{Name: "create_ticket", Description: "Open a ticket",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"],"x-owner":"support"}`)})
	if err != nil {
		panic(err)
	}
	js, _ := info.ToJSONSchema()
	b, _ := json.Marshal(js)
	fmt.Println(info.Name, string(b))
	// Output:
	// create_ticket {"properties":{"title":{"type":"string"}},"required":["title"],"type":"object","x-owner":"support"}
}
