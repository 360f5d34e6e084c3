package tseino_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/schema"
	"github.com/toolsearch/toolsearch"
	tseino "github.com/toolsearch/toolsearch/eino"
	"github.com/toolsearch/toolsearch/eino/einotest"
	"github.com/toolsearch/toolsearch/mcphub"
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
	mw, err := tseino.New(ctx, &tseino.Options{DynamicTools: []tool.BaseTool{forecast}})
	if err != nil {
		panic(err)
	}
	model := einotest.New(nil,
		einotest.ToolCall("1", "ToolSearch", `{"query":"forecast"}`),
		einotest.ToolCall("2", "get_forecast", `{"city":"Oslo"}`),
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
	reg := &toolsearch.Registry{}
	hub := mcphub.New(reg, nil)
	// A server attached with tsmcpsdk or tsmcpgo; an in-memory one here.
	if err := hub.Attach(ctx, mcphub.Server{Name: "weather", Open: func(context.Context, *mcphub.Link) (mcphub.Conn, error) {
		return weather{}, nil
	}}); err != nil {
		panic(err)
	}
	defer hub.Close("weather")
	mw, err := tseino.New(ctx, &tseino.Options{Registry: reg, CallTool: hub.CallToolText})
	if err != nil {
		panic(err)
	}

	model := einotest.New(nil,
		einotest.ToolCall("1", "ToolSearch", `{"query":"forecast"}`),
		einotest.ToolCall("2", "mcp__weather__get_forecast", `{"city":"Oslo"}`),
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

// weather is an MCP server in memory, as an mcphub.Conn: what tsmcpsdk and
// tsmcpgo provide over a real session.
type weather struct{}

func (weather) ListTools(context.Context, string) (mcphub.Page, error) {
	return mcphub.Page{Tools: []toolsearch.Tool{toolsearch.NewMCPTool("weather", "get_forecast", "Weather forecast for a city",
		json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`), nil)}}, nil
}

func (weather) CallTool(_ context.Context, _ string, args json.RawMessage) (*mcphub.Result, error) {
	return &mcphub.Result{Content: []mcphub.Content{mcphub.TextContent("Sunny for " + string(args))}}, nil
}

func (weather) Ping(context.Context) error { return mcphub.ErrNoPing }
func (weather) Close() error               { return nil }
