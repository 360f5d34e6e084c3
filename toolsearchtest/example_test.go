package toolsearchtest_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

// With an SDK, give model.URL to the client (option.WithBaseURL(model.URL)
// in both the Anthropic and the OpenAI Go SDK) and run the agent loop as
// usual; here the requests are sent by hand.
func Example() {
	model := toolsearchtest.NewServer(
		toolsearchtest.ToolCall("ToolSearch", `{"query":"weather forecast"}`),
		toolsearchtest.Text("Sunny, 21°C."),
	)
	defer model.Close()
	for _, path := range []string{"/v1/messages", "/chat/completions"} {
		resp, err := http.Post(model.URL+path, "application/json", strings.NewReader(`{"model":"any"}`))
		if err != nil {
			log.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(path, string(body))
	}
	fmt.Println(len(model.Requests()), "requests")
	// Output:
	// /v1/messages {"content":[{"id":"toolu_1","input":{"query":"weather forecast"},"name":"ToolSearch","type":"tool_use"}],"id":"msg_1","model":"scripted","role":"assistant","stop_reason":"tool_use","stop_sequence":null,"type":"message","usage":{"input_tokens":1,"output_tokens":1}}
	// /chat/completions {"choices":[{"finish_reason":"stop","index":0,"message":{"content":"Sunny, 21°C.","role":"assistant"}}],"created":1,"id":"chatcmpl_2","model":"scripted","object":"chat.completion"}
	// 2 requests
}

// On the Responses API, a call of ToolSearch is a client-executed
// tool_search_call, the item tsopenai's Responses mapping answers.
func ExampleToolCall_responses() {
	model := toolsearchtest.NewServer(toolsearchtest.ToolCall("ToolSearch", `{"query":"forecast"}`))
	defer model.Close()
	resp, err := http.Post(model.URL+"/responses", "application/json", strings.NewReader(`{}`))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(string(body))
	// Output:
	// {"created_at":1,"id":"resp_1","model":"scripted","object":"response","output":[{"arguments":{"query":"forecast"},"call_id":"call_1","execution":"client","id":"ts_call_1","status":"completed","type":"tool_search_call"}],"status":"completed"}
}

func ExampleDemoCatalog() {
	tools, err := toolsearch.ParseCatalog(toolsearchtest.DemoCatalog())
	if err != nil {
		log.Fatal(err)
	}
	reg, err := toolsearch.NewRegistry(nil, tools...)
	if err != nil {
		log.Fatal(err)
	}
	res, err := toolsearch.NewSearcher(reg, nil).Search("+slack send message", 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(tools), "tools;", res.Matches[0].Name)
	// Output: 579 tools; mcp__slack__send_message
}
