// Command agent runs an eino ChatModelAgent whose tools are deferred
// behind toolsearch's ToolSearch, with the tseino middleware in place of
// eino's own tool-search middleware. The model is a scripted stand-in, so
// the example runs offline: it calls ToolSearch, then the tool it found,
// then answers. The log shows, for each model call, what the agent sent
// (instruction, tool results, tool list) and what the model answered.
//
//	go run ./examples/agent
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	tseino "github.com/toolsearch/toolsearch/eino"
	"github.com/toolsearch/toolsearch/eino/einotest"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// script is what the scripted model answers, call by call.
var script = []*schema.Message{
	einotest.ToolCall("call_1", "ToolSearch", `{"query":"weather forecast"}`),
	einotest.ToolCall("call_2", "get_forecast", `{"city":"Paris"}`),
	schema.AssistantMessage("Tomorrow in Paris: sunny, 21°C.", nil),
}

type (
	forecastIn struct {
		City string `json:"city" jsonschema:"required,description=City name"`
	}
	alertsIn struct {
		Region string `json:"region" jsonschema:"required"`
	}
	emailIn struct {
		To   string `json:"to" jsonschema:"required"`
		Body string `json:"body" jsonschema:"required"`
	}
)

// tools returns the agent's own tool and the tools to defer.
func tools() (static tool.BaseTool, dynamic []tool.BaseTool, err error) {
	now, err := utils.InferTool("get_time", "Current time in UTC", func(context.Context, struct{}) (string, error) {
		return "2026-06-01T09:00:00Z", nil
	})
	if err != nil {
		return nil, nil, err
	}
	forecast, err := utils.InferTool("get_forecast", "Get the weather forecast for a city", func(_ context.Context, in forecastIn) (string, error) {
		return "Sunny, 21°C in " + in.City, nil
	})
	if err != nil {
		return nil, nil, err
	}
	alerts, err := utils.InferTool("get_alerts", "Severe weather alerts for a region", func(context.Context, alertsIn) (string, error) {
		return "No alerts.", nil
	})
	if err != nil {
		return nil, nil, err
	}
	email, err := utils.InferTool("send_email", "Send an email", func(context.Context, emailIn) (string, error) {
		return "Sent.", nil
	})
	if err != nil {
		return nil, nil, err
	}
	return now, []tool.BaseTool{forecast, alerts, email}, nil
}

func run(ctx context.Context, w io.Writer) error {
	static, dynamic, err := tools()
	if err != nil {
		return err
	}
	// The lines a framework user adds: the middleware, built from the
	// tools to defer, in the agent's Handlers.
	mw, err := tseino.New(ctx, &tseino.Options{DynamicTools: dynamic})
	if err != nil {
		return err
	}
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name:        "weather",
		Description: "Answers questions about the weather",
		Instruction: "You are a helpful assistant.",
		Model:       einotest.New(w, script...),
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{static}}},
		Handlers:    []adk.ChatModelAgentMiddleware{mw},
	})
	if err != nil {
		return err
	}
	events := agent.Run(ctx, &adk.AgentInput{Messages: []adk.Message{schema.UserMessage("What is the weather forecast for Paris tomorrow?")}})
	var answer string
	for {
		ev, ok := events.Next()
		if !ok {
			break
		}
		if ev.Err != nil {
			return ev.Err
		}
		if ev.Output != nil && ev.Output.MessageOutput != nil {
			msg, err := ev.Output.MessageOutput.GetMessage()
			if err != nil {
				return err
			}
			if msg.Role == schema.Assistant && len(msg.ToolCalls) == 0 {
				answer = msg.Content
			}
		}
	}
	fmt.Fprintf(w, "answer: %s\n", answer)
	return nil
}
