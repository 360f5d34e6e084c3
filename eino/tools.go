package tseino

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/toolsearch/toolsearch"
)

// errNoRun is returned by the middleware's tools when they are run
// outside a run the middleware started.
var errNoRun = errors.New("tseino: the tool is run outside a run the middleware started")

// searchTool is ToolSearch, answered by the run's Session.
type searchTool struct {
	m   *middleware
	def toolsearch.ToolDefinition
}

func (t *searchTool) Info(context.Context) (*schema.ToolInfo, error) { return t.m.toolInfo(t.def) }

func (t *searchTool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	r := t.m.runOf(ctx)
	if r == nil {
		return "", errNoRun
	}
	return answer(ctx, r.session, json.RawMessage(args)), nil
}

// bridgeTool is CallTool (the Session's call bridge): it checks the call
// and runs the tool it names.
type bridgeTool struct {
	m   *middleware
	def toolsearch.ToolDefinition
}

func (t *bridgeTool) Info(context.Context) (*schema.ToolInfo, error) { return t.m.toolInfo(t.def) }

func (t *bridgeTool) InvokableRun(ctx context.Context, args string, opts ...tool.Option) (string, error) {
	r := t.m.runOf(ctx)
	if r == nil {
		return "", errNoRun
	}
	call, err := r.session.CheckCall(toolsearch.CallToolName, json.RawMessage(args))
	if err != nil {
		return toolsearch.ModelText(err), nil
	}
	if bt, ok := t.m.dynamic[call.Tool.Name]; ok {
		return runTool(ctx, bt, string(call.Arguments), opts...)
	}
	if t.m.callTool != nil {
		return t.m.callTool(ctx, call.Tool.Name, call.Arguments)
	}
	return "", fmt.Errorf("tseino: no way to run tool %q: it is not a dynamic tool and Options.CallTool is nil", call.Tool.Name)
}

// registryTool is a tool of the registry that is not an eino tool, run by
// Options.CallTool. Its info holds no parameters: the middleware sends the
// registry's definition to the model.
type registryTool struct {
	m          *middleware
	name, desc string
}

func (t *registryTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: t.name, Desc: t.desc}, nil
}

func (t *registryTool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	return t.m.callTool(ctx, t.name, json.RawMessage(args))
}

// runTool runs an eino tool of any of the four kinds and returns its text
// output.
func runTool(ctx context.Context, bt tool.BaseTool, args string, opts ...tool.Option) (string, error) {
	switch t := bt.(type) {
	case tool.InvokableTool:
		return t.InvokableRun(ctx, args, opts...)
	case tool.StreamableTool:
		sr, err := t.StreamableRun(ctx, args, opts...)
		if err != nil {
			return "", err
		}
		defer sr.Close()
		var b strings.Builder
		for {
			chunk, err := sr.Recv()
			if err == io.EOF {
				return b.String(), nil
			}
			if err != nil {
				return "", err
			}
			b.WriteString(chunk)
		}
	case tool.EnhancedInvokableTool:
		res, err := t.InvokableRun(ctx, &schema.ToolArgument{Text: args}, opts...)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		for _, p := range res.Parts {
			if p.Type == schema.ToolPartTypeText {
				b.WriteString(p.Text)
			}
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("tseino: tool %T cannot be run: it is neither invokable nor streamable", bt)
}

// ErrFormat is returned (wrapped) for a Session whose Format eino's
// messages cannot carry: toolsearch.FormatToolReference.
var ErrFormat = errors.New("tseino: eino's messages have no tool_reference blocks: use a text Format (toolsearch.FormatInline or FormatFunctions)")

// checkFormat refuses a tool-reference Format in opts (nil: the defaults).
func checkFormat(opts *toolsearch.SessionOptions) error {
	if opts != nil && opts.Format == toolsearch.FormatToolReference && !opts.CallBridge {
		return ErrFormat
	}
	return nil
}

// answer answers a ToolSearch call with the text for the model: the
// result rendered in the Session's Format (the text blocks that go in the
// tool result and those that follow it, joined by blank lines), or the
// error's text when the arguments cannot be answered. The Session records
// the tools it returned as discovered. ctx bounds a strategy that makes a
// network call.
//
// The Genkit adapter has the same function, on purpose: the two modules
// are versioned separately, and twelve lines are no API to share.
func answer(ctx context.Context, s *toolsearch.Session, args json.RawMessage) string {
	res, err := s.CallContext(ctx, args)
	if err != nil {
		return toolsearch.ModelText(err)
	}
	content, after := res.Content(s.Format())
	texts := make([]string, 0, len(content)+len(after))
	for _, b := range append(content, after...) {
		texts = append(texts, b.Text)
	}
	return strings.Join(texts, "\n\n")
}
