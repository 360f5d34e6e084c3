package benchmarks

import (
	"context"
	"errors"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/adk/middlewares/dynamictool/toolsearch"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
)

// infoTool is a tool that eino can list: only its description matters to
// the search.
type infoTool struct{ info *schema.ToolInfo }

func (t infoTool) Info(context.Context) (*schema.ToolInfo, error) { return t.info, nil }

// NewEino returns eino's tool_search tool over tools (name, description),
// built through the middleware's public API.
func NewEino(ctx context.Context, names, descriptions []string) (tool.InvokableTool, error) {
	dyn := make([]tool.BaseTool, len(names))
	for i := range names {
		dyn[i] = infoTool{&schema.ToolInfo{Name: names[i], Desc: descriptions[i]}}
	}
	mw, err := toolsearch.New(ctx, &toolsearch.Config{DynamicTools: dyn})
	if err != nil {
		return nil, err
	}
	_, rc, err := mw.BeforeAgent(ctx, &adk.ChatModelAgentContext{})
	if err != nil {
		return nil, err
	}
	for _, t := range rc.Tools {
		info, err := t.Info(ctx)
		if err != nil {
			return nil, err
		}
		if it, ok := t.(tool.InvokableTool); ok && info.Name == "tool_search" {
			return it, nil
		}
	}
	return nil, errors.New("eino: the middleware added no tool_search tool")
}
