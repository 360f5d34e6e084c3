package benchmarks

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cloudwego/eino/adk"
	einots "github.com/cloudwego/eino/adk/middlewares/dynamictool/toolsearch"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/toolsearch/toolsearch"
	tseino "github.com/toolsearch/toolsearch/eino"
)

// A MiddlewareAgent drives one tool-search middleware of eino's ADK
// through the hooks a ChatModelAgent calls, the same way for eino's own
// middleware and for tseino's: a run is BeforeAgent, then
// BeforeModelRewriteState before the first model call, the search tool
// run with the model's arguments, and BeforeModelRewriteState before the
// second model call, with the search's call and result in the messages.
//
// What the ChatModelAgent does between the hooks (building the tools node,
// asking every tool for its info, calling the model) is the same for both
// middlewares and is left out: the tool infos of the run's tools are
// computed once, when the MiddlewareAgent is made, and copied into each
// run's state.
type MiddlewareAgent struct {
	mw     adk.ChatModelAgentMiddleware
	own    []tool.BaseTool    // the agent's own tools
	infos  []*schema.ToolInfo // of the run's tools after BeforeAgent
	search tool.InvokableTool // the middleware's search tool
	name   string             // and its name
}

// NewEinoMiddleware returns eino's own tool-search middleware
// (adk/middlewares/dynamictool/toolsearch) over dynamic.
func NewEinoMiddleware(ctx context.Context, dynamic []tool.BaseTool) (*MiddlewareAgent, error) {
	mw, err := einots.New(ctx, &einots.Config{DynamicTools: dynamic})
	if err != nil {
		return nil, err
	}
	return newMiddlewareAgent(ctx, mw, "tool_search")
}

// NewTseinoMiddleware returns tseino's middleware over dynamic, its
// Sessions made with opts.
func NewTseinoMiddleware(ctx context.Context, dynamic []tool.BaseTool, opts *toolsearch.SessionOptions) (*MiddlewareAgent, error) {
	mw, err := tseino.New(ctx, &tseino.Options{DynamicTools: dynamic, SessionOptions: opts})
	if err != nil {
		return nil, err
	}
	return newMiddlewareAgent(ctx, mw, toolsearch.ToolSearchName)
}

// ownTool is the one tool the agent has of its own.
var ownTool tool.BaseTool = stubTool{&schema.ToolInfo{Name: "get_time", Desc: "Current time in UTC"}}

const instruction = "You are a helpful assistant."

func newMiddlewareAgent(ctx context.Context, mw adk.ChatModelAgentMiddleware, name string) (*MiddlewareAgent, error) {
	a := &MiddlewareAgent{mw: mw, own: []tool.BaseTool{ownTool}, name: name}
	_, rc, err := mw.BeforeAgent(ctx, &adk.ChatModelAgentContext{Instruction: instruction, Tools: a.own})
	if err != nil {
		return nil, err
	}
	for _, t := range rc.Tools {
		info, err := t.Info(ctx)
		if err != nil {
			return nil, err
		}
		a.infos = append(a.infos, info)
		if info.Name != name {
			continue
		}
		it, ok := t.(tool.InvokableTool)
		if a.search != nil || !ok {
			return nil, fmt.Errorf("the agent has more than one tool named %s, or one that cannot be run", name)
		}
		a.search = it
	}
	if a.search == nil {
		return nil, fmt.Errorf("the middleware added no %s tool", name)
	}
	return a, nil
}

// Search runs the search tool alone, in a run started once for the
// purpose: what the model gets back for args.
func (a *MiddlewareAgent) Search(ctx context.Context, args string) (string, error) {
	return a.search.InvokableRun(ctx, args)
}

// Start starts a run (BeforeAgent) and returns its context, for Search.
func (a *MiddlewareAgent) Start(ctx context.Context) (context.Context, error) {
	ctx, _, err := a.mw.BeforeAgent(ctx, &adk.ChatModelAgentContext{Instruction: instruction, Tools: a.own})
	return ctx, err
}

// Run is one agent run with one search: it returns the search tool's
// output and the tools the model is given on its second call.
func (a *MiddlewareAgent) Run(ctx context.Context, query, args string) (string, []*schema.ToolInfo, error) {
	ctx, rc, err := a.mw.BeforeAgent(ctx, &adk.ChatModelAgentContext{Instruction: instruction, Tools: a.own})
	if err != nil {
		return "", nil, err
	}
	state := &adk.ChatModelAgentState{
		Messages:  []*schema.Message{schema.SystemMessage(rc.Instruction), schema.UserMessage(query)},
		ToolInfos: slices.Clone(a.infos),
	}
	ctx, state, err = a.mw.BeforeModelRewriteState(ctx, state, &adk.ModelContext{})
	if err != nil {
		return "", nil, err
	}
	out, err := a.search.InvokableRun(ctx, args)
	if err != nil {
		return "", nil, err
	}
	state.Messages = append(state.Messages,
		schema.AssistantMessage("", []schema.ToolCall{{ID: "call_1", Type: "function", Function: schema.FunctionCall{Name: a.name, Arguments: args}}}),
		schema.ToolMessage(out, "call_1", schema.WithToolName(a.name)))
	_, state, err = a.mw.BeforeModelRewriteState(ctx, state, &adk.ModelContext{})
	if err != nil {
		return "", nil, err
	}
	return out, state.ToolInfos, nil
}

// Found returns the tool names a search tool's output gives the model, in
// order: eino's {"matches":[names]} and toolsearch's inline result
// {"matches":[{"name":…}]}. Any other output (toolsearch's text for a
// query it cannot answer) gives none.
func Found(out string) []string {
	var res struct {
		Matches []json.RawMessage `json:"matches"`
	}
	if json.Unmarshal([]byte(out), &res) != nil {
		return nil
	}
	names := make([]string, 0, len(res.Matches))
	for _, m := range res.Matches {
		var name string
		if json.Unmarshal(m, &name) != nil {
			var obj struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(m, &obj) != nil {
				continue
			}
			name = obj.Name
		}
		names = append(names, name)
	}
	return names
}

// EinoTools returns tools as eino tools whose infos carry their JSON
// Schemas (converted by tseino.ToolInfo); running one answers "ok". A
// tool whose schema eino cannot hold is an error.
func EinoTools(tools []toolsearch.Tool) ([]tool.BaseTool, error) {
	out := make([]tool.BaseTool, len(tools))
	for i, t := range tools {
		info, err := tseino.ToolInfo(toolsearch.ToolDefinition{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		out[i] = stubTool{info}
	}
	return out, nil
}

// stubTool is a tool eino can list and run: it answers "ok".
type stubTool struct{ info *schema.ToolInfo }

func (t stubTool) Info(context.Context) (*schema.ToolInfo, error) { return t.info, nil }

func (t stubTool) InvokableRun(context.Context, string, ...tool.Option) (string, error) {
	return "ok", nil
}
