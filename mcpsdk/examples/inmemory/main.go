// Command inmemory attaches an in-memory MCP server (official Go SDK) to a
// toolsearch Registry, searches its tools, adds a tool to show
// tools/list_changed, and calls the found tool.
//
//	go run ./examples/inmemory
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, w io.Writer) error {
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1"}, nil)
	forecast := func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Sunny, 21°C for " + string(req.Params.Arguments)}}}, nil
	}
	server.AddTool(&mcp.Tool{Name: "get_forecast", Description: "Get the weather forecast for a city",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []string{"city"}}}, forecast)
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverSide, nil); err != nil {
		return err
	}

	reg := &toolsearch.Registry{}
	listed := make(chan int, 10)
	hub := mcphub.New(reg, &mcphub.Options{
		OnListed: func(server string, n int) { listed <- n },
		OnError:  func(server string, err error) { fmt.Fprintln(os.Stderr, server+":", err) },
	})
	var sessions tsmcpsdk.Sessions
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, sessions.ClientOptions(nil))
	if err := hub.Attach(ctx, sessions.Dial("weather", client, clientSide, nil)); err != nil {
		return err
	}
	defer hub.Close("weather")
	fmt.Fprintf(w, "connected: %d tool(s) listed\n", <-listed)

	// The server adds a tool: tools/list_changed makes the hub list again.
	server.AddTool(&mcp.Tool{Name: "get_alerts", Description: "Severe weather alerts for a region",
		InputSchema: map[string]any{"type": "object"}}, forecast)
	fmt.Fprintf(w, "tools/list_changed: %d tool(s) listed\n", <-listed)

	searcher := toolsearch.NewSearcher(reg, nil)
	fmt.Fprintln(w, searcher.SystemPromptSection())
	res, err := searcher.Search("forecast city", 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "ToolSearch %q → %s\n", res.Query, res.JSON())
	out, err := hub.CallTool(ctx, res.Matches[0].Name, []byte(`{"city":"Paris"}`))
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "call:", out.Text())
	return nil
}
