// Command agent runs an agent loop with the Anthropic Go SDK over a
// toolsearch Session: the request carries the always-loaded tools and
// ToolSearch; ToolSearch calls are answered with a tool_result holding
// tool_reference blocks, followed by "Tool loaded." in the same user
// message, and the found tools join the next request with defer_loading.
//
// By default the model is a scripted stand-in served on localhost, so the
// example runs without a key. With -real it talks to the Anthropic API
// (ANTHROPIC_API_KEY from the environment):
//
//	go run ./examples/agent
//	ANTHROPIC_API_KEY=... go run ./examples/agent -real
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/toolsearch/toolsearch"
	tsanthropic "github.com/toolsearch/toolsearch/anthropic"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

func main() {
	real := flag.Bool("real", false, "talk to the Anthropic API (needs ANTHROPIC_API_KEY) instead of the scripted model")
	flag.Parse()
	var opts []option.RequestOption
	if !*real {
		model := toolsearchtest.NewServer(script...)
		defer model.Close()
		opts = append(opts, option.WithBaseURL(model.URL), option.WithAPIKey("scripted"))
	}
	if err := run(context.Background(), os.Stdout, anthropic.NewClient(opts...)); err != nil {
		log.Fatal(err)
	}
}

// script is what the scripted model answers, turn by turn.
var script = []toolsearchtest.Turn{
	toolsearchtest.ToolCall("ToolSearch", `{"query":"weather forecast"}`),
	toolsearchtest.ToolCall("mcp__weather__get_forecast", `{"city":"Paris"}`),
	toolsearchtest.Text("Tomorrow in Paris: sunny, 21°C."),
}

func registry() (*toolsearch.Registry, error) {
	return toolsearch.NewRegistry(nil,
		toolsearch.Tool{Name: "get_time", Description: "Current time in UTC", InputSchema: json.RawMessage(`{"type":"object"}`)},
		toolsearch.NewMCPTool("weather", "get_forecast", "Get the weather forecast for a city",
			json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`), nil),
		toolsearch.NewMCPTool("weather", "get_alerts", "Severe weather alerts for a region", nil, nil),
		toolsearch.NewMCPTool("mail", "send_email", "Send an email",
			json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"},"body":{"type":"string"}},"required":["to","body"]}`), nil),
	)
}

func run(ctx context.Context, w io.Writer, client anthropic.Client) error {
	reg, err := registry()
	if err != nil {
		return err
	}
	session, err := tsanthropic.NewSession(reg, nil) // Format: FormatToolReference, the mapping's
	if err != nil {
		return err
	}
	msgs := []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("What is the weather forecast for Paris tomorrow?"))}
	for turn := 1; turn <= 8; turn++ {
		tools, skipped := session.Tools()
		for _, err := range skipped { // a tool left out; the others are sent
			fmt.Fprintf(w, "  skipped: %v\n", err)
		}
		var names []string
		for _, t := range tools {
			names = append(names, *t.GetName())
		}
		fmt.Fprintf(w, "turn %d: tools %v\n", turn, names)
		resp, err := client.Messages.New(ctx, anthropic.MessageNewParams{
			Model:     anthropic.ModelClaudeSonnet5_5,
			MaxTokens: 1024,
			System:    []anthropic.TextBlockParam{{Text: session.SystemPromptSection()}},
			Messages:  msgs,
			Tools:     tools,
		})
		if err != nil {
			return err
		}
		msgs = append(msgs, resp.ToParam())
		var results tsanthropic.ToolResults // the user message answering this turn
		for _, b := range resp.Content {
			switch b.Type {
			case "text":
				fmt.Fprintf(w, "  model: %s\n", b.AsText().Text)
			case "tool_use":
				use := b.AsToolUse()
				fmt.Fprintf(w, "  model calls %s %s\n", use.Name, use.Input)
				if answer, ok := session.Handle(ctx, use); ok { // a ToolSearch call, answered
					results.AddAnswer(answer)
					fmt.Fprintf(w, "  discovered: %v\n", session.Snapshot().Discovered)
					continue
				}
				if _, err := session.CheckCall(use.Name, use.Input); err != nil {
					results.Add(anthropic.NewToolResultBlock(use.ID, toolsearch.ModelText(err), true))
					continue
				}
				// Run the tool; a real agent would dispatch to the MCP server.
				results.Add(anthropic.NewToolResultBlock(use.ID, "Sunny, 21°C", false))
			}
		}
		msg, ok := results.Message() // every tool_result, then "Tool loaded."
		if !ok {
			return nil
		}
		msgs = append(msgs, msg)
	}
	return fmt.Errorf("the conversation did not end in 8 turns")
}
