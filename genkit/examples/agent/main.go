// Command agent runs Genkit's generate loop over tools deferred behind
// toolsearch's ToolSearch, with the tsgenkit adapter. The model is a
// scripted stand-in, so the example runs offline: it calls ToolSearch,
// then the tool it found, then answers, all within one Generate call. The
// log shows, for each model call, what Genkit sent (system message, tool
// results, tool list) and what the model answered.
//
//	go run ./examples/agent
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/toolsearch/toolsearch"
	tsgenkit "github.com/toolsearch/toolsearch/genkit"
	"github.com/toolsearch/toolsearch/genkit/genkittest"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// script is what the scripted model answers, call by call.
var script = []*ai.Message{
	genkittest.ToolCall("call_1", "ToolSearch", `{"query":"weather forecast"}`),
	genkittest.ToolCall("call_2", "get_forecast", `{"city":"Paris"}`),
	ai.NewModelTextMessage("Tomorrow in Paris: sunny, 21°C."),
}

type (
	forecastIn struct {
		City string `json:"city" jsonschema:"description=City name"`
	}
	alertsIn struct {
		Region string `json:"region"`
	}
	emailIn struct {
		To   string `json:"to"`
		Body string `json:"body"`
	}
)

// tools returns the tool passed as usual and the tools to defer.
func tools() (own ai.Tool, dynamic []ai.Tool) {
	own = ai.NewTool("get_time", "Current time in UTC", func(*ai.ToolContext, struct{}) (string, error) {
		return "2026-06-01T09:00:00Z", nil
	})
	dynamic = []ai.Tool{
		ai.NewTool("get_forecast", "Get the weather forecast for a city", func(_ *ai.ToolContext, in forecastIn) (string, error) {
			return "Sunny, 21°C in " + in.City, nil
		}),
		ai.NewTool("get_alerts", "Severe weather alerts for a region", func(*ai.ToolContext, alertsIn) (string, error) {
			return "No alerts.", nil
		}),
		ai.NewTool("send_email", "Send an email", func(*ai.ToolContext, emailIn) (string, error) {
			return "Sent.", nil
		}),
	}
	return own, dynamic
}

func run(ctx context.Context, w io.Writer) error {
	g := genkit.Init(ctx)
	model := genkit.DefineModel(g, "scripted/model", genkittest.Options(), genkittest.New(w, script...).Func)
	own, dynamic := tools()

	// The lines a framework user adds: the deferred tools, once; a
	// Conversation per conversation; its tools and middleware in each
	// Generate call.
	deferred, err := tsgenkit.New(&tsgenkit.Options{DynamicTools: dynamic})
	if err != nil {
		return err
	}
	conv, err := deferred.Conversation(toolsearch.NewSession(deferred.Registry(), nil))
	if err != nil {
		return err
	}
	callTools, err := conv.Tools(own)
	if err != nil {
		return err
	}
	resp, err := genkit.Generate(ctx, g,
		ai.WithModel(model),
		ai.WithSystem("You are a helpful assistant."),
		ai.WithPrompt("What is the weather forecast for Paris tomorrow?"),
		ai.WithTools(callTools...),
		ai.WithMiddleware(conv.Middleware()))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "answer: %s\n", resp.Text())
	return nil
}
