package mcphub_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
)

// memory is a Conn over an in-process "server": what an SDK adapter
// (tsmcpsdk, tsmcpgo) provides over a real client session.
type memory struct{ tools []string }

func (m memory) ListTools(_ context.Context, cursor string) (mcphub.Page, error) {
	var p mcphub.Page
	for _, name := range m.tools {
		p.Tools = append(p.Tools, toolsearch.NewMCPTool("memory", name, "Tool "+name+" of the memory server.", nil, nil))
	}
	return p, nil
}

func (m memory) CallTool(_ context.Context, name string, args json.RawMessage) (*mcphub.Result, error) {
	return &mcphub.Result{Content: []mcphub.Content{mcphub.TextContent(name + " called with " + string(args))}}, nil
}

func (memory) Ping(context.Context) error { return mcphub.ErrNoPing }
func (memory) Close() error               { return nil }

func Example() {
	ctx := context.Background()
	reg := &toolsearch.Registry{}
	hub := mcphub.New(reg, &mcphub.Options{
		OnStatus: func(server string, st toolsearch.ServerStatus) { fmt.Println(server, st) },
	})
	server := mcphub.Server{Name: "memory", Open: func(context.Context, *mcphub.Link) (mcphub.Conn, error) {
		return memory{tools: []string{"read_graph", "add_note"}}, nil
	}}
	if err := hub.Attach(ctx, server); err != nil { // several servers are attached in parallel
		log.Fatal(err)
	}
	res, _ := toolsearch.NewSearcher(reg, nil).Search("read graph", 1)
	out, err := hub.CallTool(ctx, res.Matches[0].Name, json.RawMessage(`{}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Text(), out.IsError)
	_ = hub.Close("memory")
	// Output:
	// memory pending
	// memory connected
	// read_graph called with {} false
	// memory disconnected
}
