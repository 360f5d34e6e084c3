package main

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The "fake" server (the test binary run with TOOLSEARCH_MCP_FAKE_SERVER=fake)
// is a real go-sdk MCP server over stdio whose behaviour the tests set
// through its environment:
//
//	FAKE_DESC       the description of its tool "greet" (default "Greets someone by name")
//	FAKE_DESC_FILE  a file whose content, when it exists, replaces FAKE_DESC
//	FAKE_PID_FILE   a file it writes its process id to
//	FAKE_DELAY      how long it waits before serving (a Go duration), as a slow server does
//	FAKE_CANCEL_FILE a file hang writes "cancelled" to when its call is cancelled
//
// Besides greet it has the hostile tools hang (never answers), flood
// (sends FAKE_FLOOD progress notifications, default 5000, then answers) and
// huge (answers FAKE_HUGE bytes of text, default 9 MiB).
func runFakeServer() {
	if d, err := time.ParseDuration(os.Getenv("FAKE_DELAY")); err == nil {
		time.Sleep(d) // a slow server: the gateway must not wait for it to start the others
	}
	if p := os.Getenv("FAKE_PID_FILE"); p != "" {
		_ = os.WriteFile(p, []byte(strconv.Itoa(os.Getpid())), 0o600)
	}
	desc := os.Getenv("FAKE_DESC")
	if f := os.Getenv("FAKE_DESC_FILE"); f != "" {
		if b, err := os.ReadFile(f); err == nil {
			desc = strings.TrimSpace(string(b))
		}
	}
	if desc == "" {
		desc = "Greets someone by name"
	}
	flood := 5000
	if n, err := strconv.Atoi(os.Getenv("FAKE_FLOOD")); err == nil {
		flood = n
	}
	huge := 9 << 20
	if n, err := strconv.Atoi(os.Getenv("FAKE_HUGE")); err == nil {
		huge = n
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "0"}, nil)
	obj := func(props map[string]any, required ...string) map[string]any {
		s := map[string]any{"type": "object"}
		if props != nil {
			s["properties"] = props
		}
		if len(required) > 0 {
			s["required"] = required
		}
		return s
	}
	srv.AddTool(&mcp.Tool{Name: "greet", Description: desc,
		InputSchema: obj(map[string]any{"name": map[string]any{"type": "string"}}, "name")},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct{ Name string }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello " + args.Name}}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "hang", Description: "Never answers", InputSchema: obj(nil)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			if f := os.Getenv("FAKE_CANCEL_FILE"); f != "" {
				_ = os.WriteFile(f, []byte("cancelled"), 0o600)
			}
			return nil, ctx.Err()
		})
	srv.AddTool(&mcp.Tool{Name: "flood", Description: "Floods progress notifications", InputSchema: obj(nil)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				for i := range flood {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i + 1), Total: float64(flood)})
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "flooded"}}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "huge", Description: "Answers a huge result", InputSchema: obj(nil)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", huge)}}}, nil
		})
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// fakeEntry is the config entry that starts the fake server with env.
func fakeEntry(exe string, env map[string]string) map[string]any {
	e := map[string]string{fakeEnv: "fake"}
	for k, v := range env {
		e[k] = v
	}
	return map[string]any{"command": exe, "args": []string{"-test.run=^$"}, "env": e}
}
