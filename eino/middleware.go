package tseino

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/toolsearch/toolsearch"
)

// Options configure the middleware. A nil *Options means the defaults (no
// dynamic tools, a new registry); a zero field means its default. Its
// fields follow the Config of eino's own
// adk/middlewares/dynamictool/toolsearch, so that replacing that
// middleware is a change of import and of the type's name.
type Options struct {
	// DynamicTools are the tools to defer: the model sees them only once
	// ToolSearch has found them. They are registered in Registry as
	// deferred tools; their names must be valid toolsearch tool names and
	// unique.
	DynamicTools []tool.BaseTool

	// Registry, when set, is the registry the dynamic tools are added to.
	// It may hold other tools, such as the MCP tools that the mcpsdk
	// adapter keeps up to date; those are run by CallTool. Nil means a new
	// registry holding only the dynamic tools.
	Registry *toolsearch.Registry

	// Session returns the Session of one agent run (one call of the
	// agent's Run or Resume); it is called once per run, before the
	// model's first call. Nil means a new Session over the registry, made
	// with SessionOptions, that reads the run's input messages for the
	// tools an earlier ToolSearch call found. A Session returned here must
	// be at a text Format (toolsearch.FormatInline or FormatFunctions):
	// eino's messages have no tool_reference blocks, and the run fails
	// with an error wrapping ErrFormat otherwise.
	Session func(ctx context.Context) (*toolsearch.Session, error)

	// SessionOptions configure the Sessions made when Session is nil
	// (scope, mode, call bridge, result sizes). Their Format must be a
	// text one (the zero FormatInline, or FormatFunctions): New refuses
	// FormatToolReference with an error wrapping ErrFormat.
	SessionOptions *toolsearch.SessionOptions

	// CallTool runs a tool of Registry that is not one of the eino tools
	// of the agent (an MCP tool, say), with arguments already checked
	// against its schema; its result is the tool's output for the model.
	// Nil means such tools are not given to the agent. With the mcpsdk
	// adapter it is the Servers' CallToolText.
	CallTool func(ctx context.Context, name string, args json.RawMessage) (string, error)

	// OnError, if set, is told about problems that do not stop a run: a
	// tool left out of a model call because its lazy schema could not be
	// loaded (once per model call), and a name in the run's input messages
	// that is not a valid tool name. Nil means they are dropped; the run
	// goes on either way.
	OnError func(ctx context.Context, err error)
}

// New returns a ChatModelAgent middleware (add it to the agent's Handlers)
// that defers cfg.DynamicTools behind toolsearch's ToolSearch tool:
//
//   - before each run it adds ToolSearch, the dynamic tools and the
//     registry's other tools to the agent's tools, and the section that
//     tells the model about the deferred tools to its instruction;
//   - before each model call it sets the tools the model sees: the agent's
//     own tools, the tools of the registry that are not deferred,
//     ToolSearch, and the deferred tools found so far in the run (by
//     ToolSearch calls, or in the input messages);
//   - it answers ToolSearch calls with the Session, and checks every call
//     to a registry tool with Session.CheckCall before it runs.
//
// A ToolSearch call that cannot be answered, and a call that CheckCall
// refuses, reach the model as the tool's output, with
// toolsearch.ModelText(err): eino's tool messages have no error flag.
//
// The middleware is safe for concurrent use: each run has its own
// Session.
func New(ctx context.Context, opts *Options) (adk.ChatModelAgentMiddleware, error) {
	var cfg Options
	if opts != nil {
		cfg = *opts
	}
	if err := checkFormat(cfg.SessionOptions); err != nil {
		return nil, fmt.Errorf("Options.SessionOptions: %w", err)
	}
	m := &middleware{
		dynamic:    map[string]tool.BaseTool{},
		infos:      map[string]*schema.ToolInfo{},
		newSession: cfg.Session,
		opts:       cfg.SessionOptions,
		callTool:   cfg.CallTool,
		onError:    cfg.OnError,
	}
	// The Genkit adapter's New has the same loop, on purpose: what the two
	// share is the shape (convert, refuse a duplicate, defer, register into
	// the given registry or a new one), while every step reads the
	// framework's own tool type (Info(ctx) here, Definition there). Sharing
	// it would take an exported generic helper in the root module, an API
	// for two callers of separately versioned modules, to save twenty lines.
	tools := make([]toolsearch.Tool, 0, len(cfg.DynamicTools))
	for i, bt := range cfg.DynamicTools {
		if bt == nil {
			return nil, fmt.Errorf("tseino: dynamic tool %d is nil", i)
		}
		info, err := bt.Info(ctx)
		if err != nil {
			return nil, fmt.Errorf("tseino: dynamic tool %d: reading its info: %w", i, err)
		}
		t, err := Tool(info)
		if err != nil {
			return nil, err
		}
		if _, dup := m.dynamic[t.Name]; dup {
			return nil, fmt.Errorf("tseino: dynamic tool %q: %w", t.Name, toolsearch.ErrDuplicateTool)
		}
		t.ShouldDefer = true
		tools = append(tools, t)
		m.dynamic[t.Name] = bt
		m.infos[t.Name] = info
		m.order = append(m.order, dynamicTool{t.Name, bt})
	}
	m.reg = cfg.Registry
	if m.reg == nil {
		reg, err := toolsearch.NewRegistry(nil, tools...)
		if err != nil {
			return nil, err
		}
		m.reg = reg
	} else if err := m.reg.Register(tools...); err != nil {
		return nil, err
	}
	return m, nil
}

// middleware is the ChatModelAgent handler New returns.
type middleware struct {
	adk.BaseChatModelAgentMiddleware
	reg        *toolsearch.Registry
	dynamic    map[string]tool.BaseTool    // the dynamic tools by name
	infos      map[string]*schema.ToolInfo // and their infos, sent as given
	order      []dynamicTool               // in Config order
	newSession func(ctx context.Context) (*toolsearch.Session, error)
	opts       *toolsearch.SessionOptions
	callTool   func(ctx context.Context, name string, args json.RawMessage) (string, error)
	onError    func(ctx context.Context, err error)

	mu        sync.Mutex
	converted map[string]convertedInfo // ToolInfos of the other definitions, by name
}

// dynamicTool is one of Options.DynamicTools and its name.
type dynamicTool struct {
	name string
	tool tool.BaseTool
}

// convertedInfo is the ToolInfo made from one tool definition.
type convertedInfo struct {
	def  toolsearch.ToolDefinition
	info *schema.ToolInfo
}

// run is the state of one agent run.
type run struct {
	session *toolsearch.Session
	resume  sync.Once       // reading the input messages, when the Session is ours
	extra   map[string]bool // the tools the run manages besides the dynamic tools
}

// manages reports whether the tool named name is one the middleware gave
// the run: a dynamic tool (all are, or the run fails), ToolSearch,
// CallTool or a registry tool.
func (r *run) manages(m *middleware, name string) bool {
	if _, ok := m.dynamic[name]; ok {
		return true
	}
	return r.extra[name]
}

type runKey struct{ m *middleware }

func (m *middleware) runOf(ctx context.Context) *run {
	r, _ := ctx.Value(runKey{m}).(*run)
	return r
}

// BeforeAgent starts a run: its Session, its tools and its instruction.
func (m *middleware) BeforeAgent(ctx context.Context, rc *adk.ChatModelAgentContext) (context.Context, *adk.ChatModelAgentContext, error) {
	if rc == nil {
		return ctx, rc, nil
	}
	r := &run{}
	if m.newSession != nil {
		s, err := m.newSession(ctx)
		if err != nil {
			return ctx, nil, fmt.Errorf("tseino: the run's session: %w", err)
		}
		if s == nil {
			return ctx, nil, errors.New("tseino: Options.Session returned no session")
		}
		if err := checkFormat(&toolsearch.SessionOptions{Format: s.Format()}); err != nil {
			return ctx, nil, fmt.Errorf("the run's session: %w", err)
		}
		r.session = s
		r.resume.Do(func() {}) // the caller's Session has its own state
	} else {
		r.session = toolsearch.NewSession(m.reg, m.opts)
	}

	nrc := *rc
	have := map[string]bool{}
	nrc.Tools = make([]tool.BaseTool, 0, len(rc.Tools)+len(m.order)+2)
	for _, t := range rc.Tools {
		nrc.Tools = append(nrc.Tools, t)
		if info, err := t.Info(ctx); err == nil && info != nil {
			have[info.Name] = true
		}
	}
	r.extra = map[string]bool{}
	var clash error
	add := func(name string, t tool.BaseTool, mustAdd bool) {
		if have[name] {
			if mustAdd && clash == nil {
				clash = fmt.Errorf("tseino: the agent already has a tool named %q", name)
			}
			return // the agent's own tool stays, unchecked
		}
		if _, dynamic := m.dynamic[name]; !dynamic {
			// The dynamic tools are managed by every run, and their
			// names are unique: they need no entry per run.
			have[name] = true
			r.extra[name] = true
		}
		nrc.Tools = append(nrc.Tools, t)
	}
	defs, _ := r.session.Tools() // skipped tools are reported before each model call
	for _, d := range defs {
		switch d.Name {
		case toolsearch.ToolSearchName:
			add(d.Name, &searchTool{m: m, def: d}, true)
		case toolsearch.CallToolName:
			add(d.Name, &bridgeTool{m: m, def: d}, true)
		}
	}
	for _, dt := range m.order {
		add(dt.name, dt.tool, true)
	}
	if clash != nil {
		return ctx, nil, clash
	}
	if m.callTool != nil { // else nothing could run the registry's other tools
		for t := range m.reg.Tools() {
			if _, ok := m.dynamic[t.Name]; !ok {
				add(t.Name, &registryTool{m: m, name: t.Name, desc: t.Description}, false)
			}
		}
	}
	if section := r.session.SystemPromptSection(); section != "" {
		if nrc.Instruction != "" {
			nrc.Instruction += "\n\n"
		}
		nrc.Instruction += section
	}
	return context.WithValue(ctx, runKey{m}, r), &nrc, nil
}

// BeforeModelRewriteState sets the tools of the next model call.
func (m *middleware) BeforeModelRewriteState(ctx context.Context, state *adk.ChatModelAgentState, mc *adk.ModelContext) (context.Context, *adk.ChatModelAgentState, error) {
	r := m.runOf(ctx)
	if r == nil {
		return ctx, state, errors.New("tseino: the model is called outside a run this middleware started")
	}
	var err error
	r.resume.Do(func() {
		var history []byte
		if history, err = json.Marshal(toolMessages(state.Messages)); err == nil {
			var skipped []error
			skipped, err = r.session.Resume(history)
			m.report(ctx, skipped)
		}
	})
	if err != nil {
		return ctx, state, fmt.Errorf("tseino: reading the run's messages: %w", err)
	}
	defs, skipped := r.session.Tools()
	m.report(ctx, skipped)
	infos := make([]*schema.ToolInfo, 0, len(state.ToolInfos)+len(defs))
	for _, info := range state.ToolInfos {
		if !r.manages(m, info.Name) {
			infos = append(infos, info)
		}
	}
	for _, d := range defs {
		if !r.manages(m, d.Name) {
			continue // a registry tool nothing can run (no CallTool)
		}
		info, err := m.toolInfo(d)
		if err != nil {
			return ctx, state, err
		}
		infos = append(infos, info)
	}
	state.ToolInfos = infos
	return ctx, state, nil
}

// toolMessages returns the messages that can show a ToolSearch result:
// the assistant messages with tool calls and the tool messages. The
// others (the instruction, with the deferred tools' names, above all) are
// not worth encoding for Resume.
func toolMessages(msgs []*schema.Message) []*schema.Message {
	out := make([]*schema.Message, 0, len(msgs))
	for _, msg := range msgs {
		if msg != nil && (msg.Role == schema.Tool || len(msg.ToolCalls) > 0) {
			out = append(out, msg)
		}
	}
	return out
}

// report tells Options.OnError about errs.
func (m *middleware) report(ctx context.Context, errs []error) {
	if m.onError == nil {
		return
	}
	for _, err := range errs {
		m.onError(ctx, err)
	}
}

// toolInfo returns the ToolInfo to send for d: a dynamic tool's own, or
// one converted from d (kept until d changes).
func (m *middleware) toolInfo(d toolsearch.ToolDefinition) (*schema.ToolInfo, error) {
	if info, ok := m.infos[d.Name]; ok {
		return info, nil
	}
	m.mu.Lock()
	c, ok := m.converted[d.Name]
	m.mu.Unlock()
	if ok && c.def.Description == d.Description && string(c.def.InputSchema) == string(d.InputSchema) {
		return c.info, nil
	}
	info, err := ToolInfo(d)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.converted == nil {
		m.converted = map[string]convertedInfo{}
	}
	m.converted[d.Name] = convertedInfo{def: d, info: info}
	m.mu.Unlock()
	return info, nil
}

// check returns, for a call to a registry tool, the arguments to run it
// with, or the refusal text for the model.
func (m *middleware) check(ctx context.Context, name, args string) (checked string, refusal string, ok bool) {
	r := m.runOf(ctx)
	if r == nil || !r.manages(m, name) || name == toolsearch.ToolSearchName || name == toolsearch.CallToolName {
		return args, "", true // not ours to check
	}
	call, err := r.session.CheckCall(name, json.RawMessage(args))
	if err != nil {
		return "", toolsearch.ModelText(err), false
	}
	return string(call.Arguments), "", true
}

// WrapInvokableToolCall checks calls to registry tools.
func (m *middleware) WrapInvokableToolCall(_ context.Context, next adk.InvokableToolCallEndpoint, tc *adk.ToolContext) (adk.InvokableToolCallEndpoint, error) {
	return func(ctx context.Context, args string, opts ...tool.Option) (string, error) {
		args, refusal, ok := m.check(ctx, tc.Name, args)
		if !ok {
			return refusal, nil
		}
		return next(ctx, args, opts...)
	}, nil
}

// WrapStreamableToolCall checks calls to registry tools.
func (m *middleware) WrapStreamableToolCall(_ context.Context, next adk.StreamableToolCallEndpoint, tc *adk.ToolContext) (adk.StreamableToolCallEndpoint, error) {
	return func(ctx context.Context, args string, opts ...tool.Option) (*schema.StreamReader[string], error) {
		args, refusal, ok := m.check(ctx, tc.Name, args)
		if !ok {
			return schema.StreamReaderFromArray([]string{refusal}), nil
		}
		return next(ctx, args, opts...)
	}, nil
}

// WrapEnhancedInvokableToolCall checks calls to registry tools.
func (m *middleware) WrapEnhancedInvokableToolCall(_ context.Context, next adk.EnhancedInvokableToolCallEndpoint, tc *adk.ToolContext) (adk.EnhancedInvokableToolCallEndpoint, error) {
	return func(ctx context.Context, arg *schema.ToolArgument, opts ...tool.Option) (*schema.ToolResult, error) {
		args, refusal, ok := m.check(ctx, tc.Name, argText(arg))
		if !ok {
			return textResult(refusal), nil
		}
		return next(ctx, &schema.ToolArgument{Text: args}, opts...)
	}, nil
}

// WrapEnhancedStreamableToolCall checks calls to registry tools.
func (m *middleware) WrapEnhancedStreamableToolCall(_ context.Context, next adk.EnhancedStreamableToolCallEndpoint, tc *adk.ToolContext) (adk.EnhancedStreamableToolCallEndpoint, error) {
	return func(ctx context.Context, arg *schema.ToolArgument, opts ...tool.Option) (*schema.StreamReader[*schema.ToolResult], error) {
		args, refusal, ok := m.check(ctx, tc.Name, argText(arg))
		if !ok {
			return schema.StreamReaderFromArray([]*schema.ToolResult{textResult(refusal)}), nil
		}
		return next(ctx, &schema.ToolArgument{Text: args}, opts...)
	}, nil
}

func argText(a *schema.ToolArgument) string {
	if a == nil {
		return ""
	}
	return a.Text
}

func textResult(text string) *schema.ToolResult {
	return &schema.ToolResult{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: text}}}
}
