package tsmcpsdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

func ExampleServers_Connect() {
	ctx := context.Background()
	// An MCP server, in memory here; over stdio use &mcp.CommandTransport{...}.
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1"}, nil)
	for _, name := range []string{"get_forecast", "get_alerts"} {
		server.AddTool(&mcp.Tool{Name: name, Description: "Weather: " + name, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	}
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverSide, nil); err != nil {
		panic(err)
	}

	reg := &toolsearch.Registry{}
	servers := tsmcpsdk.New(reg, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, servers.ClientOptions(nil))
	session, err := servers.Connect(ctx, "weather", client, clientSide, nil)
	if err != nil {
		panic(err)
	}
	defer session.Close()

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
		b, _ := json.Marshal(tsmcpsdk.ErrorResult(err))
		fmt.Println(string(b))
	}
	// Output:
	// {"content":[{"type":"text","text":"No tool named mcp__weather__get_forcast is available. Did you mean mcp__weather__get_forecast?"}],"isError":true}
}

// CallToolText is CallTool for agent frameworks whose tool output is a
// string, such as the Config.CallTool of the eino and Genkit adapters.
func ExampleServers_CallToolText() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "get_forecast", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Sunny"}, &mcp.TextContent{Text: "21°C"}}}, nil
		})
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverSide, nil); err != nil {
		panic(err)
	}
	servers := tsmcpsdk.New(&toolsearch.Registry{}, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, servers.ClientOptions(nil))
	session, err := servers.Connect(ctx, "weather", client, clientSide, nil)
	if err != nil {
		panic(err)
	}
	defer session.Close()

	text, err := servers.CallToolText(ctx, "mcp__weather__get_forecast", json.RawMessage(`{"city":"Paris"}`))
	fmt.Printf("%q %v\n", text, err)
	// Output:
	// "Sunny\n21°C" <nil>
}
