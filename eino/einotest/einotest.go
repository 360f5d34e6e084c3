// Package einotest is an eino chat model that plays a script: it
// answers each call with the next message of the script and records what
// it was sent, so that tests and examples run an eino agent without a
// network or a key. With a writer it also logs each call: the messages
// that are new since the previous call, the tools, and its answer; the log
// depends only on what the agent sent, so it is deterministic.
package einotest

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// Model is a scripted eino model (a model.ToolCallingChatModel). It is
// safe for concurrent use, but a script is meant for one run at a time.
type Model struct {
	w     io.Writer
	mu    sync.Mutex
	steps []*schema.Message
	calls []Call
}

// Call is what one model call was sent.
type Call struct {
	Tools []*schema.ToolInfo
	Input []*schema.Message
}

// New returns a Model answering its i-th call with steps[i]; a call
// beyond the script is an error. w, if not nil, receives the log.
func New(w io.Writer, steps ...*schema.Message) *Model {
	return &Model{w: w, steps: steps}
}

// ToolCall returns an assistant message calling tool name with args.
func ToolCall(id, name, args string) *schema.Message {
	return schema.AssistantMessage("", []schema.ToolCall{{ID: id, Type: "function",
		Function: schema.FunctionCall{Name: name, Arguments: args}}})
}

// Generate answers with the next step.
func (m *Model) Generate(_ context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	o := model.GetCommonOptions(nil, opts...)
	m.mu.Lock()
	defer m.mu.Unlock()
	seen := 0
	if n := len(m.calls); n > 0 {
		seen = len(m.calls[n-1].Input) + 1 // and the answer
	}
	m.calls = append(m.calls, Call{Tools: slices.Clone(o.Tools), Input: slices.Clone(input)})
	if len(m.steps) == 0 {
		return nil, fmt.Errorf("the script has no answer for call %d", len(m.calls))
	}
	out := m.steps[0]
	m.steps = m.steps[1:]
	if m.w != nil {
		m.log(len(m.calls), input[min(seen, len(input)):], o.Tools, out)
	}
	return out, nil
}

func (m *Model) log(n int, fresh []*schema.Message, tools []*schema.ToolInfo, out *schema.Message) {
	fmt.Fprintf(m.w, "model call %d\n", n)
	for _, msg := range fresh {
		switch msg.Role {
		case schema.Tool:
			fmt.Fprintf(m.w, "  %s result: %s\n", msg.ToolName, msg.Content)
		case schema.Assistant:
			// the model's own earlier answer
		default:
			fmt.Fprintf(m.w, "  %s: %s\n", msg.Role, indent(msg.Content))
		}
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	fmt.Fprintf(m.w, "  tools: %s\n", strings.Join(names, " "))
	for _, c := range out.ToolCalls {
		fmt.Fprintf(m.w, "  model calls %s %s\n", c.Function.Name, c.Function.Arguments)
	}
	if out.Content != "" {
		fmt.Fprintf(m.w, "  model answers: %s\n", out.Content)
	}
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

// Stream answers with the next step as a one-message stream.
func (m *Model) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, input, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

// WithTools returns m: the tools of each call come with its options.
func (m *Model) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return m, nil
}

// Calls returns what each call so far was sent.
func (m *Model) Calls() []Call {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.calls)
}

// ToolNames returns the names of the tools of each call so far.
func (m *Model) ToolNames() [][]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([][]string, len(m.calls))
	for i, c := range m.calls {
		for _, t := range c.Tools {
			out[i] = append(out[i], t.Name)
		}
	}
	return out
}
