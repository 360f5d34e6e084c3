package tsmcpsdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

// weatherServer starts an MCP server in memory (over stdio, use
// &mcp.CommandTransport{...} instead) and returns the client's transport.
func weatherServer(ctx context.Context) mcp.Transport {
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1"}, nil)
	for _, name := range []string{"get_forecast", "get_alerts"} {
		server.AddTool(&mcp.Tool{Name: name, Description: "Weather: " + name, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Sunny"}, &mcp.TextContent{Text: "21°C"}}}, nil
			})
	}
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverSide, nil); err != nil {
		log.Fatal(err)
	}
	return clientSide
}

func ExampleSessions_Dial() {
	ctx := context.Background()
	reg := &toolsearch.Registry{}
	hub := mcphub.New(reg, nil)
	var sessions tsmcpsdk.Sessions
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, sessions.ClientOptions(nil))
	// Several servers given to one Attach are started in parallel.
	if err := hub.Attach(ctx, sessions.Dial("weather", client, weatherServer(ctx), nil)); err != nil {
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
		b, _ := json.Marshal(tsmcpsdk.ErrorResult(err))
		fmt.Println(string(b))
	}
	// Output:
	// {"content":[{"type":"text","text":"No tool named mcp__weather__get_forcast is available. Did you mean mcp__weather__get_forecast?"}],"isError":true}
}

// CallToolResult turns a hub's result back into the SDK's type, for a
// program that passes it on to an MCP client of its own.
func ExampleCallToolResult() {
	ctx := context.Background()
	hub := mcphub.New(nil, nil)
	var sessions tsmcpsdk.Sessions
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, sessions.ClientOptions(nil))
	if err := hub.Attach(ctx, sessions.Dial("weather", client, weatherServer(ctx), nil)); err != nil {
		log.Fatal(err)
	}
	defer hub.Close("weather")
	res, err := hub.CallTool(ctx, "mcp__weather__get_alerts", nil)
	if err != nil {
		log.Fatal(err)
	}
	out, err := tsmcpsdk.CallToolResult(res)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(out.Content), out.Content[0].(*mcp.TextContent).Text)
	// Output:
	// 2 Sunny
}
