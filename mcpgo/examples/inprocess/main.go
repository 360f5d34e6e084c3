// Command inprocess attaches an in-process mark3labs/mcp-go server to a
// toolsearch Registry, searches its tools, adds a tool to show
// tools/list_changed, and calls the found tool.
//
//	go run ./examples/inprocess
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/toolsearch/toolsearch"
	tsmcpgo "github.com/toolsearch/toolsearch/mcpgo"
	"github.com/toolsearch/toolsearch/mcphub"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, w io.Writer) error {
	srv := server.NewMCPServer("weather", "1", server.WithToolCapabilities(true))
	forecast := func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		b, _ := json.Marshal(req.Params.Arguments)
		return mcp.NewToolResultText("Sunny, 21°C for " + string(b)), nil
	}
	srv.AddTool(mcp.NewTool("get_forecast", mcp.WithDescription("Get the weather forecast for a city"),
		mcp.WithString("city", mcp.Required())), forecast)
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		return err
	}

	reg := &toolsearch.Registry{}
	listed := make(chan int, 10)
	hub := mcphub.New(reg, &mcphub.Options{
		OnListed: func(server string, n int) { listed <- n },
		OnError:  func(server string, err error) { fmt.Fprintln(os.Stderr, server+":", err) },
	})
	if err := hub.Attach(ctx, tsmcpgo.Client("weather", c, nil)); err != nil {
		return err
	}
	defer hub.Close("weather")
	fmt.Fprintf(w, "connected: %d tool(s) listed\n", <-listed)

	srv.AddTool(mcp.NewTool("get_alerts", mcp.WithDescription("Severe weather alerts for a region")), forecast)
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
