package benchmarks

import (
	"context"
	"errors"
	"io"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
)

// searchModel is an eino chat model for agent runs with one search: asked
// with a user message last, it calls the search tool with the user
// message's text as the arguments; asked with a tool result last, it
// answers "done" and records the tools it was given.
type searchModel struct {
	search string         // the search tool's name
	last   func([]string) // told the tool names of each answering call, if set
}

func (m *searchModel) Generate(_ context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	if len(input) == 0 {
		return nil, errors.New("searchModel: no input")
	}
	last := input[len(input)-1]
	if last.Role == schema.User {
		return schema.AssistantMessage("", []schema.ToolCall{{ID: "call_1", Type: "function",
			Function: schema.FunctionCall{Name: m.search, Arguments: last.Content}}}), nil
	}
	if m.last != nil {
		var names []string
		for _, t := range model.GetCommonOptions(nil, opts...).Tools {
			names = append(names, t.Name)
		}
		m.last(names)
	}
	return schema.AssistantMessage("done", nil), nil
}

func (m *searchModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, input, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

func (m *searchModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return m, nil
}

// An Agent is a ChatModelAgent with one tool-search middleware and a
// model that searches once per run (see searchModel).
type Agent struct {
	agent adk.Agent
	model *searchModel
}

// NewAgent returns a ChatModelAgent with the agent's own tool (get_time)
// and the middleware mw, whose search tool is named search.
func NewAgent(ctx context.Context, mw adk.ChatModelAgentMiddleware, search string) (*Agent, error) {
	m := &searchModel{search: search}
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "assistant", Description: "benchmark agent", Instruction: instruction, Model: m,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{ownTool}}},
		Handlers:    []adk.ChatModelAgentMiddleware{mw},
	})
	if err != nil {
		return nil, err
	}
	return &Agent{agent: agent, model: m}, nil
}

// Run runs the agent once: the model calls the search tool with args,
// then answers. It returns the search tool's output.
func (a *Agent) Run(ctx context.Context, args string) (string, error) {
	events := a.agent.Run(ctx, &adk.AgentInput{Messages: []adk.Message{schema.UserMessage(args)}})
	var out string
	for {
		ev, ok := events.Next()
		if !ok {
			return out, nil
		}
		if ev.Err != nil {
			return "", ev.Err
		}
		if ev.Output == nil || ev.Output.MessageOutput == nil {
			continue
		}
		msg, err := ev.Output.MessageOutput.GetMessage()
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		if msg != nil && msg.Role == schema.Tool {
			out = msg.Content
		}
	}
}
