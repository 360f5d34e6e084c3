// Package genkittest is a Genkit model that plays a script: it answers
// each request with the next message of the script and records what it
// was sent, so that tests and examples run Genkit's generate loop without
// a network or a key. With a writer it also logs each request: the
// messages that are new since the previous request, the tools, and its
// answer; the log depends only on what Genkit sent, so it is
// deterministic.
package genkittest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/firebase/genkit/go/ai"
)

// Model is a scripted model. Its Func is safe for concurrent use, but a
// script is meant for one conversation at a time.
type Model struct {
	w     io.Writer
	mu    sync.Mutex
	steps []*ai.Message
	reqs  []*ai.ModelRequest
}

// New returns a Model answering its i-th request with steps[i]; a request
// beyond the script is an error. w, if not nil, receives the log.
func New(w io.Writer, steps ...*ai.Message) *Model {
	return &Model{w: w, steps: steps}
}

// Options are the model options to define it with: it supports tools,
// multiple turns and a system role.
func Options() *ai.ModelOptions {
	return &ai.ModelOptions{Label: "scripted", Supports: &ai.ModelSupports{Tools: true, Multiturn: true, SystemRole: true}}
}

// ToolCall returns a model message calling tool name with input (JSON).
func ToolCall(ref, name, input string) *ai.Message {
	var in any
	if err := json.Unmarshal([]byte(input), &in); err != nil {
		panic(fmt.Sprintf("genkittest.ToolCall(%s): %v", input, err))
	}
	return ai.NewModelMessage(ai.NewToolRequestPart(&ai.ToolRequest{Ref: ref, Name: name, Input: in}))
}

// Func answers one request with the next step.
func (m *Model) Func(_ context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	seen := 0
	if n := len(m.reqs); n > 0 {
		seen = len(m.reqs[n-1].Messages) + 1 // and the answer
	}
	r := *req
	r.Messages, r.Tools = slices.Clone(req.Messages), slices.Clone(req.Tools)
	m.reqs = append(m.reqs, &r)
	if len(m.steps) == 0 {
		return nil, fmt.Errorf("the script has no answer for request %d", len(m.reqs))
	}
	out := m.steps[0]
	m.steps = m.steps[1:]
	if m.w != nil {
		m.log(len(m.reqs), req.Messages[min(seen, len(req.Messages)):], req.Tools, out)
	}
	return &ai.ModelResponse{Message: out, FinishReason: ai.FinishReasonStop, Request: req}, nil
}

func (m *Model) log(n int, fresh []*ai.Message, tools []*ai.ToolDefinition, out *ai.Message) {
	fmt.Fprintf(m.w, "model call %d\n", n)
	for _, msg := range fresh {
		if msg.Role == ai.RoleModel {
			continue // the model's own earlier answer
		}
		for _, p := range msg.Content {
			switch {
			case p.IsToolResponse():
				fmt.Fprintf(m.w, "  %s result: %s\n", p.ToolResponse.Name, text(p.ToolResponse.Output))
			case p.IsText():
				fmt.Fprintf(m.w, "  %s: %s\n", msg.Role, indent(p.Text))
			}
		}
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	fmt.Fprintf(m.w, "  tools: %s\n", strings.Join(names, " "))
	for _, p := range out.Content {
		switch {
		case p.IsToolRequest():
			fmt.Fprintf(m.w, "  model calls %s %s\n", p.ToolRequest.Name, text(p.ToolRequest.Input))
		case p.IsText():
			fmt.Fprintf(m.w, "  model answers: %s\n", p.Text)
		}
	}
}

// text renders a tool input or output: a string as it is, anything else
// as JSON.
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// indent indents the lines after the first, leaving blank lines empty.
func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = "    " + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// Requests returns the requests received so far.
func (m *Model) Requests() []*ai.ModelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.reqs)
}

// ToolNames returns the names of the tools of each request so far.
func (m *Model) ToolNames() [][]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([][]string, len(m.reqs))
	for i, r := range m.reqs {
		for _, t := range r.Tools {
			out[i] = append(out[i], t.Name)
		}
	}
	return out
}
