// Command quickstart shows the agent-loop side of toolsearch without a
// model: it registers a few tools, prints what the model is told, and answers
// the ToolSearch calls a model would make.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/toolsearch/toolsearch"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	reg, err := toolsearch.NewRegistry(nil,
		toolsearch.Tool{Name: "Read", Description: "Read a file."},
		toolsearch.Tool{Name: "WebFetch", Description: "Fetch a URL as markdown.", ShouldDefer: true,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}`)},
		toolsearch.NewMCPTool("github", "create_issue", "Create a new issue in a GitHub repository.",
			json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`), nil),
		toolsearch.NewMCPTool("slack", "send_message", "Send a message to a Slack channel.", nil, nil),
	)
	if err != nil {
		return err
	}
	s := toolsearch.NewSearcher(reg, nil)

	// Request 1: the core tools and ToolSearch are sent; the deferred tools
	// are only named, in the system prompt.
	fmt.Fprintf(w, "tools: Read, %s\n", s.ToolDefinition().Name)
	fmt.Fprintf(w, "system prompt: %s\n\n", s.SystemPromptSection())

	// The model calls ToolSearch; each call is answered with a result,
	// rendered here as Anthropic tool references: the tool_result holds the
	// references, and the texts follow it in the same user message.
	for _, args := range []string{
		`{"query":"github issue"}`,
		`{"query":"select:WebFetch,web_fetch2"}`,
		`{"query":"slack","max_results":0}`,
	} {
		fmt.Fprintf(w, "ToolSearch %s\n", args)
		res, err := s.Call(json.RawMessage(args))
		if err != nil {
			fmt.Fprintf(w, "  error: %v\n", err)
			continue
		}
		content, after := res.Content(toolsearch.FormatToolReference)
		c, err := json.Marshal(content)
		if err != nil {
			return err
		}
		a, err := json.Marshal(after)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  tool_result: %s\n  then: %s\n", c, a)
	}
	return nil
}
