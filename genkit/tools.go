package tsgenkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/firebase/genkit/go/ai"
	"github.com/toolsearch/toolsearch"
	"strings"
)

// Options configure the tools New makes. A nil *Options means the
// defaults (no dynamic tools, a new registry); a zero field means its
// default. Its fields follow eino's tool-search middleware (and the eino
// adapter of this project): the tools to defer, and where other tools come
// from.
type Options struct {
	// DynamicTools are the tools to defer: the model sees them only once
	// ToolSearch has found them. Make them with ai.NewTool (or
	// ai.NewMultipartTool), not genkit.DefineTool: a tool registered in
	// the Genkit registry under the same name would be run in place of the
	// checked one a Conversation passes to Generate. Their names must be
	// valid toolsearch tool names and unique.
	DynamicTools []ai.Tool

	// Registry, when set, is the registry the dynamic tools are added to.
	// It may hold other tools, such as the MCP tools that the mcpsdk
	// adapter keeps up to date; those are run by CallTool. Nil means a new
	// registry holding only the dynamic tools.
	Registry *toolsearch.Registry

	// CallTool runs a tool of Registry that is not one of DynamicTools (an
	// MCP tool, say), with arguments already checked against its schema;
	// its result is the tool's output. Nil means such tools are not
	// offered to Generate. With the mcpsdk adapter it calls the Servers'
	// CallToolText.
	CallTool func(ctx context.Context, name string, args json.RawMessage) (any, error)

	// OnError, if set, is told about a tool left out of a model call
	// because its lazy schema could not be loaded (once per model call).
	// Nil means it is dropped; Generate goes on either way.
	OnError func(ctx context.Context, err error)
}

// Tools are deferred Genkit tools over a toolsearch registry. Make them
// once with New and start a Conversation for each conversation. Tools is
// safe for concurrent use.
type Tools struct {
	reg      *toolsearch.Registry
	dynamic  map[string]ai.Tool
	defs     map[string]*ai.ToolDefinition // the dynamic tools' own definitions
	callTool func(ctx context.Context, name string, args json.RawMessage) (any, error)
	onError  func(ctx context.Context, err error)

	mu        sync.Mutex
	converted map[string]convertedDef // definitions of the other tools, by name
}

type convertedDef struct {
	def toolsearch.ToolDefinition
	out *ai.ToolDefinition
}

// New registers opts.DynamicTools, deferred, in opts.Registry (or a new
// registry) and returns the Tools to start conversations with. opts is
// copied; nil means the defaults.
func New(opts *Options) (*Tools, error) {
	var cfg Options
	if opts != nil {
		cfg = *opts
	}
	t := &Tools{dynamic: map[string]ai.Tool{}, defs: map[string]*ai.ToolDefinition{}, callTool: cfg.CallTool, onError: cfg.OnError}
	// The eino adapter's New has the same loop, on purpose: what the two
	// share is the shape (convert, refuse a duplicate, defer, register into
	// the given registry or a new one), while every step reads the
	// framework's own tool type (Definition here, Info(ctx) there). Sharing
	// it would take an exported generic helper in the root module, an API
	// for two callers of separately versioned modules, to save twenty lines.
	tools := make([]toolsearch.Tool, 0, len(cfg.DynamicTools))
	for i, at := range cfg.DynamicTools {
		if at == nil {
			return nil, fmt.Errorf("tsgenkit: dynamic tool %d is nil", i)
		}
		def := at.Definition()
		ts, err := Tool(def)
		if err != nil {
			return nil, err
		}
		if _, dup := t.dynamic[ts.Name]; dup {
			return nil, fmt.Errorf("tsgenkit: dynamic tool %q: %w", ts.Name, toolsearch.ErrDuplicateTool)
		}
		ts.ShouldDefer = true
		tools = append(tools, ts)
		t.dynamic[ts.Name] = at
		t.defs[ts.Name] = def
	}
	t.reg = cfg.Registry
	if t.reg == nil {
		reg, err := toolsearch.NewRegistry(nil, tools...)
		if err != nil {
			return nil, err
		}
		t.reg = reg
	} else if err := t.reg.Register(tools...); err != nil {
		return nil, err
	}
	return t, nil
}

// Registry returns the registry holding the tools, to make Sessions over.
func (t *Tools) Registry() *toolsearch.Registry { return t.reg }

// definition returns the Genkit definition to send for d: a dynamic
// tool's own, or one converted from d (kept until d changes).
func (t *Tools) definition(d toolsearch.ToolDefinition) (*ai.ToolDefinition, error) {
	if def, ok := t.defs[d.Name]; ok {
		return def, nil
	}
	t.mu.Lock()
	c, ok := t.converted[d.Name]
	t.mu.Unlock()
	if ok && c.def.Description == d.Description && string(c.def.InputSchema) == string(d.InputSchema) {
		return c.out, nil
	}
	out, err := ToolDefinition(d)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	if t.converted == nil {
		t.converted = map[string]convertedDef{}
	}
	t.converted[d.Name] = convertedDef{def: d, out: out}
	t.mu.Unlock()
	return out, nil
}

// ErrFormat is returned (wrapped) by Conversation for a Session whose
// Format Genkit's messages cannot carry: toolsearch.FormatToolReference.
var ErrFormat = errors.New("tsgenkit: Genkit's messages have no tool_reference blocks: use a text Format (toolsearch.FormatInline or FormatFunctions)")

// Conversation returns the tools of one conversation, whose state is s.
// s must be at a text Format (toolsearch.FormatInline, the default, or
// FormatFunctions): a Session at FormatToolReference is an error wrapping
// ErrFormat, since Genkit's messages have no tool_reference blocks.
func (t *Tools) Conversation(s *toolsearch.Session) (*Conversation, error) {
	if s == nil {
		return nil, errors.New("tsgenkit: the session is nil")
	}
	if s.Format() == toolsearch.FormatToolReference {
		return nil, ErrFormat
	}
	return &Conversation{t: t, s: s}, nil
}

// Conversation gives the Generate calls of one conversation its tools:
// ToolSearch, answered by the conversation's Session; the deferred tools,
// each checked by Session.CheckCall before it runs; and a model
// middleware that sets, before each model call of Generate's tool loop,
// the tools the model sees (the tools the caller passed, the registry's
// tools that are not deferred, ToolSearch, and the tools found so far)
// and adds the section about the deferred tools to the system message.
//
// A ToolSearch call that cannot be answered, and a call that CheckCall
// refuses, reach the model as the tool's output with the error text as
// toolsearch wrote it: Genkit's tool responses have no error flag, and a
// tool error would end Generate.
//
// A Conversation is safe for concurrent use, but its Generate calls must
// not overlap: Genkit registers the tools passed to Generate, changing
// them, on each call.
type Conversation struct {
	t *Tools
	s *toolsearch.Session

	mu      sync.Mutex
	built   bool
	from    []toolKey // the registry tools refs was built from
	refs    []ai.ToolRef
	managed map[string]bool
}

// toolKey is what a Conversation's tools depend on in a registry tool.
type toolKey struct{ name, description string }

// Tools returns the tools to pass to the conversation's next Generate
// call (or a prompt's Execute) with ai.WithTools: own (the caller's
// tools, which are neither deferred nor checked), then ToolSearch and
// every tool of the registry that the conversation can run. Genkit takes
// one WithTools option per call, hence own here.
func (c *Conversation) Tools(own ...ai.ToolRef) ([]ai.ToolRef, error) {
	refs, managed, err := c.tools()
	if err != nil {
		return nil, err
	}
	for _, o := range own {
		if o != nil && managed[o.Name()] {
			return nil, fmt.Errorf("tsgenkit: own tool %q has the name of a tool the conversation passes", o.Name())
		}
	}
	return append(slices.Clone(own), refs...), nil
}

// Middleware returns the model middleware to pass to the same Generate
// call with ai.WithMiddleware (with the caller's other middleware, if
// any: Genkit takes one WithMiddleware option per call). Before each
// model call it sets the tools the model sees and adds the section about
// the deferred tools to the system message. The tools it offers are among
// those the last call of Tools returned: the ones Generate can run.
func (c *Conversation) Middleware() ai.ModelMiddleware { return c.middleware }

// tools returns the tools to pass to Generate and the names of the tools
// the conversation manages, rebuilt when the registry changed.
func (c *Conversation) tools() ([]ai.ToolRef, map[string]bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	regTools := slices.Collect(c.t.reg.Tools())
	from := make([]toolKey, len(regTools))
	for i, rt := range regTools {
		from[i] = toolKey{rt.Name, rt.Description}
	}
	if c.built && slices.Equal(from, c.from) {
		return c.refs, c.managed, nil
	}
	var refs []ai.ToolRef
	managed := map[string]bool{toolsearch.ToolSearchName: true, toolsearch.CallToolName: true}
	defs, _ := c.s.Tools()
	for _, d := range defs {
		switch d.Name {
		case toolsearch.ToolSearchName:
			refs = append(refs, c.tool(d.Name, d.Description, c.search))
		case toolsearch.CallToolName:
			refs = append(refs, c.tool(d.Name, d.Description, c.bridge))
		}
	}
	for _, rt := range regTools {
		name := rt.Name
		if _, ok := c.t.dynamic[name]; !ok && c.t.callTool == nil {
			continue // nothing can run it: it is not offered
		}
		managed[name] = true
		refs = append(refs, c.tool(name, rt.Description, func(ctx context.Context, args json.RawMessage) (*ai.MultipartToolResponse, error) {
			call, err := c.s.CheckCall(name, args)
			if err != nil {
				return &ai.MultipartToolResponse{Output: toolsearch.ModelText(err)}, nil
			}
			return c.run(ctx, name, call.Arguments)
		}))
	}
	c.from, c.built, c.refs, c.managed = from, true, refs, managed
	return refs, managed, nil
}

// tool returns a Genkit tool named name that runs fn on the raw
// arguments. Its input schema accepts anything, so that the call reaches
// fn (and CheckCall) instead of failing Genkit's own validation; the
// model is sent the real schema by the middleware.
func (c *Conversation) tool(name, description string, fn func(context.Context, json.RawMessage) (*ai.MultipartToolResponse, error)) ai.Tool {
	return ai.NewMultipartTool(name, description, func(tc *ai.ToolContext, input any) (*ai.MultipartToolResponse, error) {
		var args json.RawMessage
		if input != nil {
			b, err := json.Marshal(input)
			if err != nil {
				return nil, fmt.Errorf("tsgenkit: %s: encoding the arguments: %w", name, err)
			}
			args = b
		}
		return fn(tc.Context, args)
	}, ai.WithInputSchema(map[string]any{}))
}

// passed returns the names of the tools the conversation manages, as the
// last call of Tools passed them to Generate (the model can call no
// other), or as Tools would pass them now if it was not called.
func (c *Conversation) passed() (map[string]bool, error) {
	c.mu.Lock()
	built, managed := c.built, c.managed
	c.mu.Unlock()
	if built {
		return managed, nil
	}
	_, managed, err := c.tools()
	return managed, err
}

// search answers a ToolSearch call.
func (c *Conversation) search(ctx context.Context, args json.RawMessage) (*ai.MultipartToolResponse, error) {
	return &ai.MultipartToolResponse{Output: answer(ctx, c.s, args)}, nil
}

// answer answers a ToolSearch call with the text for the model: the
// result rendered in the Session's Format (the text blocks that go in the
// tool result and those that follow it, joined by blank lines), or the
// error's text when the arguments cannot be answered. The Session records
// the tools it returned as discovered. ctx bounds a strategy that makes a
// network call.
//
// The eino adapter has the same function, on purpose: the two modules are
// versioned separately, and twelve lines are no API to share.
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

// bridge answers a CallTool call: it checks the call and runs the tool it
// names.
func (c *Conversation) bridge(ctx context.Context, args json.RawMessage) (*ai.MultipartToolResponse, error) {
	call, err := c.s.CheckCall(toolsearch.CallToolName, args)
	if err != nil {
		return &ai.MultipartToolResponse{Output: toolsearch.ModelText(err)}, nil
	}
	return c.run(ctx, call.Tool.Name, call.Arguments)
}

// run runs a checked call of a dynamic tool or, through CallTool, of
// another registry tool.
func (c *Conversation) run(ctx context.Context, name string, args json.RawMessage) (*ai.MultipartToolResponse, error) {
	if at, ok := c.t.dynamic[name]; ok {
		var input any
		if err := json.Unmarshal(args, &input); err != nil {
			return nil, fmt.Errorf("tsgenkit: %s: decoding the checked arguments: %w", name, err)
		}
		return at.RunRawMultipart(ctx, input)
	}
	if c.t.callTool == nil {
		return nil, fmt.Errorf("tsgenkit: no way to run tool %q: it is not a dynamic tool and Options.CallTool is nil", name)
	}
	out, err := c.t.callTool(ctx, name, args)
	if err != nil {
		return nil, err
	}
	return &ai.MultipartToolResponse{Output: out}, nil
}

// middleware sets the tools and the system section of each model call.
func (c *Conversation) middleware(next ai.ModelFunc) ai.ModelFunc {
	return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		managed, err := c.passed()
		if err != nil {
			return nil, err
		}
		defs, skipped := c.s.Tools()
		if c.t.onError != nil {
			for _, err := range skipped {
				c.t.onError(ctx, err)
			}
		}
		r := *req
		r.Tools = make([]*ai.ToolDefinition, 0, len(req.Tools)+len(defs))
		for _, d := range req.Tools {
			if !managed[d.Name] {
				r.Tools = append(r.Tools, d)
			}
		}
		// Genkit lists the tools passed to Generate in map order: sort them.
		slices.SortFunc(r.Tools, func(a, b *ai.ToolDefinition) int {
			switch {
			case a.Name < b.Name:
				return -1
			case a.Name > b.Name:
				return 1
			}
			return 0
		})
		for _, d := range defs {
			if !managed[d.Name] {
				continue // a registry tool nothing can run
			}
			def, err := c.t.definition(d)
			if err != nil {
				return nil, err
			}
			r.Tools = append(r.Tools, def)
		}
		r.Messages = withSystemSection(req.Messages, c.s.SystemPromptSection())
		return next(ctx, &r, cb)
	}
}

// withSystemSection returns msgs with section added as a text part of the
// first system message (or as a new system message first). msgs and its
// messages are not changed.
func withSystemSection(msgs []*ai.Message, section string) []*ai.Message {
	if section == "" {
		return msgs
	}
	out := slices.Clone(msgs)
	for i, m := range out {
		if m != nil && m.Role == ai.RoleSystem {
			sys := *m
			sys.Content = append(slices.Clone(m.Content), ai.NewTextPart(section))
			out[i] = &sys
			return out
		}
	}
	return append([]*ai.Message{ai.NewSystemTextMessage(section)}, out...)
}

// Resume marks discovered, in the conversation's Session, the tools that
// ToolSearch returned in history (the messages of an earlier Generate,
// from ModelResponse.History). It is for a conversation that continues
// with a new Session, in another process say. A name in history that is
// not a valid tool name is left out, with one error in skipped; the other
// names are added. err is a history that cannot be read: nothing is
// added.
func (c *Conversation) Resume(history []*ai.Message) (skipped []error, err error) {
	b, err := historyJSON(history)
	if err != nil {
		return nil, err
	}
	return c.s.Resume(b)
}

// historyJSON encodes the tool requests and responses of a Genkit history
// as OpenAI Chat messages, the shape the Session's Resume reads.
func historyJSON(history []*ai.Message) (json.RawMessage, error) {
	type fn struct {
		Name string `json:"name"`
	}
	type call struct {
		ID       string `json:"id"`
		Function fn     `json:"function"`
	}
	type msg struct {
		Role       string `json:"role"`
		ToolCalls  []call `json:"tool_calls,omitempty"`
		ToolCallID string `json:"tool_call_id,omitempty"`
		Content    string `json:"content"`
	}
	out := []msg{}
	for _, m := range history {
		if m == nil {
			continue
		}
		for _, p := range m.Content {
			switch {
			case p.IsToolRequest():
				out = append(out, msg{Role: "assistant", ToolCalls: []call{{ID: p.ToolRequest.Ref, Function: fn{p.ToolRequest.Name}}}})
			case p.IsToolResponse():
				text, ok := p.ToolResponse.Output.(string)
				if !ok {
					b, err := json.Marshal(p.ToolResponse.Output)
					if err != nil {
						return nil, fmt.Errorf("tsgenkit: encoding the output of tool %q: %w", p.ToolResponse.Name, err)
					}
					text = string(b)
				}
				out = append(out, msg{Role: "tool", ToolCallID: p.ToolResponse.Ref, Content: text})
			}
		}
	}
	return json.Marshal(out)
}
