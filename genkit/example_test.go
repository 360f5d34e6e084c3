package tsgenkit_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/toolsearch/toolsearch"
	tsgenkit "github.com/toolsearch/toolsearch/genkit"
	"github.com/toolsearch/toolsearch/genkit/genkittest"
)

// Deferred tools in Genkit's generate loop: the tool ToolSearch finds is
// in the model's tools from the next model call of the same Generate.
func ExampleTools_Conversation() {
	ctx := context.Background()
	g := genkit.Init(ctx)
	m := genkittest.New(nil,
		genkittest.ToolCall("1", "ToolSearch", `{"query":"forecast"}`),
		genkittest.ToolCall("2", "get_forecast", `{"city":"Oslo"}`),
		ai.NewModelTextMessage("Sunny in Oslo."))
	model := genkit.DefineModel(g, "scripted/model", genkittest.Options(), m.Func)
	type cityIn struct {
		City string `json:"city"`
	}
	forecast := ai.NewTool("get_forecast", "Weather forecast for a city", func(_ *ai.ToolContext, in cityIn) (string, error) {
		return "Sunny in " + in.City, nil
	})

	deferred, err := tsgenkit.New(&tsgenkit.Options{DynamicTools: []ai.Tool{forecast}})
	if err != nil {
		panic(err)
	}
	conv, err := deferred.Conversation(toolsearch.NewSession(deferred.Registry(), nil))
	if err != nil {
		panic(err)
	}
	tools, err := conv.Tools()
	if err != nil {
		panic(err)
	}
	resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithPrompt("Weather in Oslo?"),
		ai.WithTools(tools...), ai.WithMiddleware(conv.Middleware()))
	if err != nil {
		panic(err)
	}
	for i, names := range m.ToolNames() {
		fmt.Println("model call", i+1, names)
	}
	fmt.Println(resp.Text())
	// Output:
	// model call 1 [ToolSearch]
	// model call 2 [ToolSearch get_forecast]
	// model call 3 [ToolSearch get_forecast]
	// Sunny in Oslo.
}

func ExampleTool() {
	def := &ai.ToolDefinition{Name: "get_forecast", Description: "Weather forecast for a city",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}}
	t, err := tsgenkit.Tool(def)
	if err != nil {
		panic(err)
	}
	fmt.Println(t.Name, string(t.InputSchema))
	// Output:
	// get_forecast {"properties":{"city":{"type":"string"}},"type":"object"}
}

func ExampleToolDefinition() {
	def, err := tsgenkit.ToolDefinition(toolsearch.ToolDefinition{Name: "create_ticket", Description: "Open a ticket",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"priority":{"type":"integer","maximum":5}}}`)})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s %v\n", def.Name, def.InputSchema)
	// Output:
	// create_ticket map[properties:map[priority:map[maximum:5 type:integer]] type:object]
}
