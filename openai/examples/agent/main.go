// Command agent runs an agent loop with the OpenAI Go SDK over a toolsearch
// Session, on the Responses API (client-executed tool_search; found tools
// come back in tool_search_output and join later requests with
// defer_loading) or, with -chat, on Chat Completions (inline results; found
// tools join the function list).
//
// By default the model is a scripted stand-in served on localhost, so the
// example runs without a key. With -real it talks to the OpenAI API
// (OPENAI_API_KEY from the environment):
//
//	go run ./examples/agent
//	go run ./examples/agent -chat
//	OPENAI_API_KEY=... go run ./examples/agent -real -model gpt-5.6-sol
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolsearch/toolsearch"
	tsopenai "github.com/toolsearch/toolsearch/openai"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

func main() {
	real := flag.Bool("real", false, "talk to the OpenAI API (needs OPENAI_API_KEY) instead of the scripted model")
	chat := flag.Bool("chat", false, "use Chat Completions instead of the Responses API")
	model := flag.String("model", openai.ChatModelGPT5_6Sol, "model name")
	flag.Parse()
	var opts []option.RequestOption
	if !*real {
		m := toolsearchtest.NewServer(script...)
		defer m.Close()
		opts = append(opts, option.WithBaseURL(m.URL), option.WithAPIKey("scripted"))
	}
	client := openai.NewClient(opts...)
	var err error
	if *chat {
		err = runChat(context.Background(), os.Stdout, client, *model)
	} else {
		err = runResponses(context.Background(), os.Stdout, client, *model)
	}
	if err != nil {
		log.Fatal(err)
	}
}

// script is what the scripted model answers, turn by turn, on either API:
// on the Responses API, the ToolSearch call is a tool_search_call.
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

const question = "What is the weather forecast for Paris tomorrow?"

func runResponses(ctx context.Context, w io.Writer, client openai.Client, model string) error {
	reg, err := registry()
	if err != nil {
		return err
	}
	session, err := tsopenai.NewResponsesSession(reg, nil) // Format: FormatToolReference
	if err != nil {
		return err
	}
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage(question, responses.EasyInputMessageRoleUser)}
	for turn := 1; turn <= 8; turn++ {
		tools, skipped := session.Tools()
		for _, err := range skipped { // a tool left out; the others are sent
			fmt.Fprintf(w, "  skipped: %v\n", err)
		}
		var names []string
		for _, t := range tools {
			if t.OfToolSearch != nil {
				names = append(names, "tool_search")
			} else if t.OfFunction != nil {
				names = append(names, t.OfFunction.Name)
			}
		}
		fmt.Fprintf(w, "turn %d: tools %v\n", turn, names)
		resp, err := client.Responses.New(ctx, responses.ResponseNewParams{
			Model:        model,
			Instructions: openai.String(session.SystemPromptSection()),
			Input:        responses.ResponseNewParamsInputUnion{OfInputItemList: input},
			Tools:        tools,
		})
		if err != nil {
			return err
		}
		called := false
		for _, item := range resp.Output {
			if answer, ok := session.Handle(ctx, item); ok {
				for _, err := range answer.Skipped {
					fmt.Fprintf(w, "  skipped: %v\n", err)
				}
				args, _ := json.Marshal(item.AsToolSearchCall().Arguments)
				fmt.Fprintf(w, "  model calls tool_search %s\n  discovered: %v\n", args, session.Snapshot().Discovered)
				input = append(input, answer.Items...)
				called = true
				continue
			}
			switch item.Type {
			case "function_call":
				call := item.AsFunctionCall()
				fmt.Fprintf(w, "  model calls %s %s\n", call.Name, call.Arguments)
				fc := call.ToParam()
				out := responses.ResponseInputItemParamOfFunctionCallOutput("Sunny, 21°C")
				out.OfFunctionCallOutput.CallID = openai.String(call.CallID)
				input = append(input, responses.ResponseInputItemUnionParam{OfFunctionCall: &fc}, out)
				called = true
			case "message":
				fmt.Fprintf(w, "  model: %s\n", resp.OutputText())
			}
		}
		if !called {
			return nil
		}
	}
	return fmt.Errorf("the conversation did not end in 8 turns")
}

func runChat(ctx context.Context, w io.Writer, client openai.Client, model string) error {
	reg, err := registry()
	if err != nil {
		return err
	}
	session, err := tsopenai.NewChatSession(reg, nil) // Format: FormatInline
	if err != nil {
		return err
	}
	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(session.SystemPromptSection()), openai.UserMessage(question)}
	for turn := 1; turn <= 8; turn++ {
		tools, skipped := session.Tools()
		for _, err := range skipped { // a tool left out; the others are sent
			fmt.Fprintf(w, "  skipped: %v\n", err)
		}
		var names []string
		for _, t := range tools {
			names = append(names, t.OfFunction.Function.Name)
		}
		fmt.Fprintf(w, "turn %d: tools %v\n", turn, names)
		resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: model, Messages: msgs, Tools: tools})
		if err != nil {
			return err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m.ToParam())
		if len(m.ToolCalls) == 0 {
			fmt.Fprintf(w, "  model: %s\n", m.Content)
			return nil
		}
		for _, call := range m.ToolCalls {
			fmt.Fprintf(w, "  model calls %s %s\n", call.Function.Name, call.Function.Arguments)
			if out, ok := session.Handle(ctx, call); ok {
				fmt.Fprintf(w, "  discovered: %v\n", session.Snapshot().Discovered)
				msgs = append(msgs, out)
				continue
			}
			msgs = append(msgs, openai.ToolMessage("Sunny, 21°C", call.ID))
		}
	}
	return fmt.Errorf("the conversation did not end in 8 turns")
}
