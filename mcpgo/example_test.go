package tsmcpgo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"slices"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/toolsearch/toolsearch"
	tsmcpgo "github.com/toolsearch/toolsearch/mcpgo"
	"github.com/toolsearch/toolsearch/mcphub"
)

// weatherClient returns a client of an in-process MCP server; over stdio
// use client.NewStdioMCPClient(command, env, args...).
func weatherClient() *client.Client {
	srv := server.NewMCPServer("weather", "1", server.WithToolCapabilities(true))
	for _, name := range []string{"get_forecast", "get_alerts"} {
		srv.AddTool(mcp.NewTool(name, mcp.WithDescription("Weather: "+name)),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("Sunny"), mcp.NewTextContent("21°C")}}, nil
			})
	}
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		log.Fatal(err)
	}
	return c
}

func ExampleClient() {
	ctx := context.Background()
	reg := &toolsearch.Registry{}
	hub := mcphub.New(reg, nil)
	// Several servers given to one Attach are started in parallel.
	if err := hub.Attach(ctx, tsmcpgo.Client("weather", weatherClient(), nil)); err != nil {
		log.Fatal(err)
	}
	defer hub.Close("weather")

	fmt.Println(reg.ServerStatus("weather"), len(slices.Collect(reg.Tools())))
	res, _ := toolsearch.NewSearcher(reg, nil).Search("forecast", 0)
	for _, m := range res.Matches {
		fmt.Println(m.Name)
	}
	out, err := hub.CallTool(ctx, res.Matches[0].Name, json.RawMessage(`{"city":"Paris"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q isError=%v\n", out.Text(), out.IsError)
	// Output:
	// connected 2
	// mcp__weather__get_forecast
	// "Sunny\n21°C" isError=false
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

// CallToolResult turns a hub's result back into mcp-go's type, for a
// program that passes it on to an MCP client of its own.
func ExampleCallToolResult() {
	ctx := context.Background()
	hub := mcphub.New(nil, nil)
	if err := hub.Attach(ctx, tsmcpgo.Client("weather", weatherClient(), nil)); err != nil {
		log.Fatal(err)
	}
	defer hub.Close("weather")
	res, err := hub.CallTool(ctx, "mcp__weather__get_alerts", nil)
	if err != nil {
		log.Fatal(err)
	}
	out, err := tsmcpgo.CallToolResult(res)
	if err != nil {
		log.Fatal(err)
	}
	text, _ := mcp.AsTextContent(out.Content[0])
	fmt.Println(len(out.Content), text.Text)
	// Output:
	// 2 Sunny
}
