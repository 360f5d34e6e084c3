package tsmcpgo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/toolsearch/toolsearch"
	tsmcpgo "github.com/toolsearch/toolsearch/mcpgo"
)

func ExampleServers_Attach() {
	ctx := context.Background()
	srv := server.NewMCPServer("weather", "1", server.WithToolCapabilities(true))
	for _, name := range []string{"get_forecast", "get_alerts"} {
		srv.AddTool(mcp.NewTool(name, mcp.WithDescription("Weather: "+name)),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("ok"), nil
			})
	}
	// In process here; over stdio use client.NewStdioMCPClient(command, env, args...).
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		panic(err)
	}
	reg := &toolsearch.Registry{}
	servers := tsmcpgo.New(reg, nil)
	if err := servers.Attach(ctx, "weather", c); err != nil {
		panic(err)
	}
	defer servers.Close("weather")

	fmt.Println(reg.ServerStatus("weather"), len(slices.Collect(reg.Tools())))
	res, _ := toolsearch.NewSearcher(reg, nil).Search("forecast", 0)
	for _, m := range res.Matches {
		fmt.Println(m.Name)
	}
	// Output:
	// connected 2
	// mcp__weather__get_forecast
}

func ExampleErrorResult() {
	reg, _ := toolsearch.NewRegistry(nil, toolsearch.NewMCPTool("weather", "get_forecast", "Get the forecast", nil, nil))
	session := toolsearch.NewSession(reg, nil)

	// The model calls a tool that does not exist: the refusal goes back to
	// it as an MCP tool result with isError, its text unchanged.
	if _, err := session.CheckCall("mcp__weather__get_forcast", nil); err != nil {
		b, _ := json.Marshal(tsmcpgo.ErrorResult(err))
		fmt.Println(string(b))
	}
	// Output:
	// {"content":[{"type":"text","text":"No tool named mcp__weather__get_forcast is available. Did you mean mcp__weather__get_forecast?"}],"isError":true}
}

// CallToolText is CallTool for agent frameworks whose tool output is a
// string, such as the Config.CallTool of the eino and Genkit adapters.
func ExampleServers_CallToolText() {
	ctx := context.Background()
	srv := server.NewMCPServer("weather", "1", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewTool("get_forecast"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("Sunny"), mcp.NewTextContent("21°C")}}, nil
	})
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		panic(err)
	}
	servers := tsmcpgo.New(&toolsearch.Registry{}, nil)
	if err := servers.Attach(ctx, "weather", c); err != nil {
		panic(err)
	}
	defer servers.Close("weather")

	text, err := servers.CallToolText(ctx, "mcp__weather__get_forecast", json.RawMessage(`{"city":"Paris"}`))
	fmt.Printf("%q %v\n", text, err)
	// Output:
	// "Sunny\n21°C" <nil>
}
