package tsgenkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/genkit/genkittest"
)

// testTools are a tool the caller passes itself and three dynamic ones,
// recording the inputs they ran with.
type testTools struct {
	mu   sync.Mutex
	ran  []string
	time ai.Tool
	dyn  []ai.Tool
}

type (
	forecastIn struct {
		City string `json:"city" jsonschema:"description=City name"`
	}
	regionIn struct {
		Region string `json:"region"`
	}
	emailIn struct {
		To   string `json:"to"`
		Body string `json:"body"`
	}
)

func newTestTools() *testTools {
	tt := &testTools{}
	record := func(name string, in any) {
		b, _ := json.Marshal(in)
		tt.mu.Lock()
		tt.ran = append(tt.ran, name+" "+string(b))
		tt.mu.Unlock()
	}
	tt.time = ai.NewTool("get_time", "Current time in UTC", func(_ *ai.ToolContext, in struct{}) (string, error) {
		record("get_time", in)
		return "12:00", nil
	})
	tt.dyn = []ai.Tool{
		ai.NewTool("get_forecast", "Get the weather forecast for a city", func(_ *ai.ToolContext, in forecastIn) (string, error) {
			record("get_forecast", in)
			return "Sunny, 21°C", nil
		}),
		ai.NewTool("get_alerts", "Severe weather alerts for a region", func(_ *ai.ToolContext, in regionIn) (string, error) {
			record("get_alerts", in)
			return "none", nil
		}),
		ai.NewTool("send_email", "Send an email", func(_ *ai.ToolContext, in emailIn) (string, error) {
			record("send_email", in)
			return "sent", nil
		}),
	}
	return tt
}

func (tt *testTools) runs() []string {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	return slices.Clone(tt.ran)
}

// generate runs one Generate call of conv with model m over msgs.
func generate(t *testing.T, conv *Conversation, m *genkittest.Model, tt *testTools, msgs ...*ai.Message) *ai.ModelResponse {
	t.Helper()
	ctx := context.Background()
	g := genkit.Init(ctx)
	model := genkit.DefineModel(g, "test/scripted", genkittest.Options(), m.Func)
	tools, err := conv.Tools(tt.time)
	require.NoError(t, err)
	resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithSystem("You are a helpful assistant."), ai.WithMessages(msgs...),
		ai.WithTools(tools...), ai.WithMiddleware(conv.Middleware()), ai.WithMaxTurns(10))
	require.NoError(t, err)
	return resp
}

func userText(s string) *ai.Message { return ai.NewUserTextMessage(s) }

// toolOutputs returns the outputs of the tool responses in history, by
// tool name.
func toolOutputs(history []*ai.Message) map[string][]string {
	out := map[string][]string{}
	for _, m := range history {
		for _, p := range m.Content {
			if p.IsToolResponse() {
				s, ok := p.ToolResponse.Output.(string)
				if !ok {
					b, _ := json.Marshal(p.ToolResponse.Output)
					s = string(b)
				}
				out[p.ToolResponse.Name] = append(out[p.ToolResponse.Name], s)
			}
		}
	}
	return out
}

func newConversation(t *testing.T, cfg *Options, opts *toolsearch.SessionOptions) *Conversation {
	t.Helper()
	tools, err := New(cfg)
	require.NoError(t, err)
	return mustConversation(t, tools, toolsearch.NewSession(tools.Registry(), opts))
}

func mustConversation(t *testing.T, tools *Tools, s *toolsearch.Session) *Conversation {
	t.Helper()
	conv, err := tools.Conversation(s)
	require.NoError(t, err)
	return conv
}

// A Session at a Format Genkit cannot carry is refused by Conversation.
func TestConversationRefusesToolReferenceFormat(t *testing.T) {
	tools, err := New(nil)
	require.NoError(t, err, "nil options are the defaults")
	_, err = tools.Conversation(toolsearch.NewSession(tools.Registry(), &toolsearch.SessionOptions{Format: toolsearch.FormatToolReference}))
	require.ErrorIs(t, err, ErrFormat)
	_, err = tools.Conversation(nil)
	require.EqualError(t, err, "tsgenkit: the session is nil")
}

// brokenSchemaRegistry returns a registry of one tool that is always
// loaded (get_time), one that is not deferred and whose lazy schema fails
// to load ("broken", with the error "server said no"), and one MCP tool
// (mcp__weather__get_forecast), so that ToolSearch is offered. (The other
// adapters' tests have the same one: test data is not shared between
// separately versioned modules.)
func brokenSchemaRegistry(t testing.TB) *toolsearch.Registry {
	t.Helper()
	reg, err := toolsearch.NewRegistry(nil,
		toolsearch.Tool{Name: "get_time", Description: "Current time in UTC"},
		toolsearch.Tool{Name: "broken", LoadSchema: func() (json.RawMessage, error) { return nil, errors.New("server said no") }},
		toolsearch.NewMCPTool("weather", "get_forecast", "Get the weather forecast for a city", nil, nil),
	)
	require.NoError(t, err)
	return reg
}

func TestGenerateDiscoversAndCalls(t *testing.T) {
	tt := newTestTools()
	conv := newConversation(t, &Options{DynamicTools: tt.dyn}, nil)
	m := genkittest.New(nil,
		genkittest.ToolCall("c1", "ToolSearch", `{"query":"weather forecast city","max_results":1}`),
		genkittest.ToolCall("c2", "get_forecast", `{"city":"Paris"}`),
		ai.NewModelTextMessage("Sunny in Paris."))
	resp := generate(t, conv, m, tt, userText("Weather in Paris?"))

	assert.Equal(t, "Sunny in Paris.", resp.Text())
	assert.Equal(t, [][]string{
		{"get_time", "ToolSearch"},
		{"get_time", "ToolSearch", "get_forecast"},
		{"get_time", "ToolSearch", "get_forecast"},
	}, m.ToolNames(), "the found tool joins the model's tools on the next model call of the same Generate")
	assert.Equal(t, []string{`get_forecast {"city":"Paris"}`}, tt.runs())

	reqs := m.Requests()
	assert.Equal(t, tt.dyn[0].Definition(), reqs[1].Tools[2], "the model gets the tool's own Genkit definition")
	sys := reqs[0].Messages[0]
	require.Equal(t, ai.RoleSystem, sys.Role)
	assert.Equal(t, "You are a helpful assistant.", sys.Content[0].Text, "the caller's system text stays first")
	require.Len(t, sys.Content, 2)
	for _, name := range []string{"get_forecast", "get_alerts", "send_email"} {
		assert.Contains(t, sys.Content[1].Text, name, "the system message names the deferred tools")
	}
	var search ai.ToolDefinition
	for _, d := range reqs[0].Tools {
		if d.Name == "ToolSearch" {
			search = *d
		}
	}
	assert.Contains(t, search.InputSchema["properties"], "query", "ToolSearch is sent with its real schema")

	out := toolOutputs(resp.History())["ToolSearch"]
	require.Len(t, out, 1)
	var res struct {
		Matches []struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
		} `json:"matches"`
	}
	require.NoError(t, json.Unmarshal([]byte(out[0]), &res), "ToolSearch output: %s", out[0])
	require.Len(t, res.Matches, 1)
	assert.Equal(t, "get_forecast", res.Matches[0].Name)
	want, err := json.Marshal(tt.dyn[0].Definition().InputSchema)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(res.Matches[0].Schema))
}

func TestGenerateChecksCalls(t *testing.T) {
	tt := newTestTools()
	conv := newConversation(t, &Options{DynamicTools: tt.dyn}, nil)
	m := genkittest.New(nil,
		genkittest.ToolCall("c1", "ToolSearch", `{"query":"select:send_email"}`),
		genkittest.ToolCall("c2", "send_email", `{"to":"bob@example.com"}`),
		genkittest.ToolCall("c3", "get_alerts", `{"region":7}`),
		genkittest.ToolCall("c4", "ToolSearch", `{"query":7}`),
		genkittest.ToolCall("c5", "get_time", `{}`),
		ai.NewModelTextMessage("Done."))
	resp := generate(t, conv, m, tt, userText("Mail Bob."))

	assert.Equal(t, []string{"get_time {}"}, tt.runs(), "refused calls do not run; the caller's own tool is not checked")
	out := toolOutputs(resp.History())

	// The texts are exactly what the Session says.
	s := toolsearch.NewSession(conv.t.Registry(), nil)
	found := answer(context.Background(), s, json.RawMessage(`{"query":"select:send_email"}`))
	_, refusal := s.CheckCall("send_email", json.RawMessage(`{"to":"bob@example.com"}`))
	require.Error(t, refusal)
	_, hint := s.CheckCall("get_alerts", json.RawMessage(`{"region":7}`))
	require.Error(t, hint)
	assert.Equal(t, []string{toolsearch.ModelText(refusal)}, out["send_email"])
	assert.Contains(t, refusal.Error(), "do not match its schema")
	assert.Equal(t, []string{hint.Error()}, out["get_alerts"])
	assert.Contains(t, hint.Error(), "ToolSearch", "an undiscovered tool with bad arguments gets the hint to load its schema")
	assert.Equal(t, []string{found, answer(context.Background(), s, json.RawMessage(`{"query":7}`))}, out["ToolSearch"])
	assert.Equal(t, "Done.", resp.Text(), "refusals do not end Generate")
}

func TestConversationKeepsDiscoveries(t *testing.T) {
	tt := newTestTools()
	conv := newConversation(t, &Options{DynamicTools: tt.dyn}, nil)
	first := genkittest.New(nil,
		genkittest.ToolCall("c1", "ToolSearch", `{"query":"select:get_forecast"}`),
		ai.NewModelTextMessage("Which city?"))
	resp := generate(t, conv, first, tt, userText("Weather?"))
	history := append(resp.History(), userText("Paris."))

	// The same conversation, next turn.
	second := genkittest.New(nil,
		genkittest.ToolCall("c2", "get_forecast", `{"city":"Paris"}`),
		ai.NewModelTextMessage("Sunny."))
	generate(t, conv, second, tt, history...)
	assert.Equal(t, []string{"get_time", "ToolSearch", "get_forecast"}, second.ToolNames()[0])

	// Another process: a new Session, resumed from the history.
	resumed := mustConversation(t, conv.t, toolsearch.NewSession(conv.t.Registry(), nil))
	skipped, err := resumed.Resume(history)
	require.NoError(t, err)
	assert.Empty(t, skipped)
	third := genkittest.New(nil, ai.NewModelTextMessage("Still sunny."))
	generate(t, resumed, third, tt, history...)
	assert.Equal(t, []string{"get_time", "ToolSearch", "get_forecast"}, third.ToolNames()[0], "Resume reads ToolSearch results in a Genkit history")

	fresh := mustConversation(t, conv.t, toolsearch.NewSession(conv.t.Registry(), nil))
	fourth := genkittest.New(nil, ai.NewModelTextMessage("?"))
	generate(t, fresh, fourth, tt, history...)
	assert.Equal(t, []string{"get_time", "ToolSearch"}, fourth.ToolNames()[0], "without Resume a new Session has found nothing")
}

func TestConcurrentConversations(t *testing.T) {
	tt := newTestTools()
	tools, err := New(&Options{DynamicTools: tt.dyn})
	require.NoError(t, err)
	models := make([]*genkittest.Model, 6)
	var wg sync.WaitGroup
	for i := range models {
		name := []string{"get_forecast", "send_email"}[i%2]
		models[i] = genkittest.New(nil,
			genkittest.ToolCall("c1", "ToolSearch", `{"query":"select:`+name+`"}`),
			ai.NewModelTextMessage("ok"))
		conv := mustConversation(t, tools, toolsearch.NewSession(tools.Registry(), nil))
		// Genkit's Generate changes the tools passed to it (it registers
		// them), so overlapping calls each get their own get_time.
		own := newTestTools()
		wg.Go(func() { generate(t, conv, models[i], own, userText("hi")) })
	}
	wg.Wait()
	for i, m := range models {
		name := []string{"get_forecast", "send_email"}[i%2]
		assert.Equal(t, [][]string{{"get_time", "ToolSearch"}, {"get_time", "ToolSearch", name}}, m.ToolNames(), "conversation %d sees only its own discoveries", i)
	}
}

func TestRegistryToolsAndBridge(t *testing.T) {
	tt := newTestTools()
	var mu sync.Mutex
	var called []string
	callTool := func(_ context.Context, name string, args json.RawMessage) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		called = append(called, name+" "+string(args))
		return "ticket 42", nil
	}
	ticket := toolsearch.NewMCPTool("tickets", "create_ticket", "Open a support ticket",
		json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`), nil)

	t.Run("direct", func(t *testing.T) {
		reg, err := toolsearch.NewRegistry(nil, ticket)
		require.NoError(t, err)
		conv := newConversation(t, &Options{DynamicTools: tt.dyn, Registry: reg, CallTool: callTool}, nil)
		m := genkittest.New(nil,
			genkittest.ToolCall("c1", "ToolSearch", `{"query":"support ticket"}`),
			genkittest.ToolCall("c2", "mcp__tickets__create_ticket", `{"title":"Printer on fire"}`),
			ai.NewModelTextMessage("Opened."))
		resp := generate(t, conv, m, tt, userText("Open a ticket"))
		assert.Equal(t, []string{"ticket 42"}, toolOutputs(resp.History())["mcp__tickets__create_ticket"])
		tools := m.Requests()[1].Tools
		last := tools[len(tools)-1]
		assert.Equal(t, "mcp__tickets__create_ticket", last.Name)
		b, err := json.Marshal(last.InputSchema)
		require.NoError(t, err)
		assert.JSONEq(t, `{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`, string(b), "the model gets the registry's schema")
	})

	t.Run("without CallTool the registry tool is not offered", func(t *testing.T) {
		reg, err := toolsearch.NewRegistry(nil, ticket)
		require.NoError(t, err)
		conv := newConversation(t, &Options{DynamicTools: tt.dyn, Registry: reg}, nil)
		m := genkittest.New(nil,
			genkittest.ToolCall("c1", "ToolSearch", `{"query":"select:mcp__tickets__create_ticket"}`),
			ai.NewModelTextMessage("Cannot."))
		generate(t, conv, m, tt, userText("Open a ticket"))
		assert.NotContains(t, m.ToolNames()[1], "mcp__tickets__create_ticket")
	})

	t.Run("bridge", func(t *testing.T) {
		conv := newConversation(t, &Options{DynamicTools: tt.dyn}, &toolsearch.SessionOptions{CallBridge: true})
		m := genkittest.New(nil,
			genkittest.ToolCall("c1", "ToolSearch", `{"query":"select:get_forecast"}`),
			genkittest.ToolCall("c2", "CallTool", `{"name":"get_forecast","arguments":{}}`),
			genkittest.ToolCall("c3", "CallTool", `{"name":"get_forecast","arguments":{"city":"Rome"}}`),
			ai.NewModelTextMessage("Sunny in Rome."))
		resp := generate(t, conv, m, tt, userText("Weather in Rome?"))
		for i, names := range m.ToolNames() {
			assert.Equal(t, []string{"get_time", "ToolSearch", "CallTool"}, names, "request %d: the tool list never changes", i+1)
		}
		out := toolOutputs(resp.History())["CallTool"]
		require.Len(t, out, 2)
		assert.Contains(t, out[0], "do not match its schema")
		assert.Equal(t, "Sunny, 21°C", out[1])
	})
	mu.Lock()
	assert.Equal(t, []string{`mcp__tickets__create_ticket {"title":"Printer on fire"}`}, called)
	mu.Unlock()
}

func TestNewErrors(t *testing.T) {
	tt := newTestTools()
	_, err := New(&Options{DynamicTools: []ai.Tool{nil}})
	assert.EqualError(t, err, "tsgenkit: dynamic tool 0 is nil")
	_, err = New(&Options{DynamicTools: []ai.Tool{tt.dyn[0], tt.dyn[0]}})
	assert.ErrorIs(t, err, toolsearch.ErrDuplicateTool)
	_, err = New(&Options{DynamicTools: []ai.Tool{ai.NewTool("weather/forecast", "", func(*ai.ToolContext, struct{}) (string, error) { return "", nil })}})
	assert.ErrorIs(t, err, toolsearch.ErrInvalidName, "Genkit's provider/name form is not a toolsearch name")
}

func TestHistoryJSON(t *testing.T) {
	history := []*ai.Message{
		userText("hi"),
		ai.NewModelMessage(ai.NewToolRequestPart(&ai.ToolRequest{Ref: "r1", Name: "ToolSearch", Input: map[string]any{"query": "x"}})),
		ai.NewMessage(ai.RoleTool, nil, ai.NewToolResponsePart(&ai.ToolResponse{Ref: "r1", Name: "ToolSearch", Output: `{"matches":[]}`}),
			ai.NewToolResponsePart(&ai.ToolResponse{Ref: "r2", Name: "other", Output: map[string]any{"ok": true}})),
	}
	b, err := historyJSON(history)
	require.NoError(t, err)
	assert.JSONEq(t, `[
	  {"role":"assistant","tool_calls":[{"id":"r1","function":{"name":"ToolSearch"}}],"content":""},
	  {"role":"tool","tool_call_id":"r1","content":"{\"matches\":[]}"},
	  {"role":"tool","tool_call_id":"r2","content":"{\"ok\":true}"}]`, string(b))
	assert.False(t, strings.Contains(fmt.Sprint(history[0].Content[0].Text), "ToolSearch"))
}

func TestToolsNameClash(t *testing.T) {
	tt := newTestTools()
	conv := newConversation(t, &Options{DynamicTools: tt.dyn}, nil)
	_, err := conv.Tools(tt.dyn[1])
	assert.EqualError(t, err, `tsgenkit: own tool "get_alerts" has the name of a tool the conversation passes`)
	tools, err := conv.Tools(tt.time)
	require.NoError(t, err)
	names := make([]string, len(tools))
	for i, r := range tools {
		names[i] = r.Name()
	}
	assert.Equal(t, []string{"get_time", "ToolSearch", "get_alerts", "get_forecast", "send_email"}, names, "own tools first, then ToolSearch and the deferred tools in the registry's order")
}

// A registry tool whose lazy schema fails is left out of each model call
// and reported to OnError each time; Generate goes on.
func TestGenerateReportsSkippedTools(t *testing.T) {
	var mu sync.Mutex
	var reported []string
	onError := func(_ context.Context, err error) {
		mu.Lock()
		reported = append(reported, err.Error())
		mu.Unlock()
	}
	conv := newConversation(t, &Options{Registry: brokenSchemaRegistry(t), OnError: onError,
		CallTool: func(context.Context, string, json.RawMessage) (any, error) { return "ok", nil }}, nil)
	m := genkittest.New(nil,
		genkittest.ToolCall("c1", "ToolSearch", `{"query":"select:mcp__weather__get_forecast"}`),
		ai.NewModelTextMessage("Done."))
	ctx := context.Background()
	g := genkit.Init(ctx)
	model := genkit.DefineModel(g, "test/scripted", genkittest.Options(), m.Func)
	tools, err := conv.Tools() // the registry's get_time is passed by the conversation
	require.NoError(t, err)
	resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithPrompt("hi"),
		ai.WithTools(tools...), ai.WithMiddleware(conv.Middleware()))
	require.NoError(t, err)
	assert.Equal(t, "Done.", resp.Text())
	for i, names := range m.ToolNames() {
		assert.NotContains(t, names, "broken", "model call %d: the tool whose schema failed is left out", i+1)
		assert.Contains(t, names, "ToolSearch", "model call %d: the other tools are sent", i+1)
	}
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, reported, 2, "one report per model call: %q", reported)
	for _, text := range reported {
		assert.Contains(t, text, "broken")
		assert.Contains(t, text, "server said no")
	}
}

// Resume adds the valid names of a history and returns one error per
// name that is not a tool name.
func TestResumeSkipped(t *testing.T) {
	tt := newTestTools()
	conv := newConversation(t, &Options{DynamicTools: tt.dyn}, nil)
	found := `{"matches":[{"name":"get_alerts"},{"name":"bad name!"}],"query":"alerts","total_deferred_tools":3}`
	history := []*ai.Message{
		ai.NewModelMessage(ai.NewToolRequestPart(&ai.ToolRequest{Ref: "r1", Name: "ToolSearch", Input: map[string]any{"query": "alerts"}})),
		ai.NewMessage(ai.RoleTool, nil, ai.NewToolResponsePart(&ai.ToolResponse{Ref: "r1", Name: "ToolSearch", Output: found})),
	}
	skipped, err := conv.Resume(history)
	require.NoError(t, err)
	require.Len(t, skipped, 1)
	assert.ErrorIs(t, skipped[0], toolsearch.ErrInvalidName)
	assert.Contains(t, skipped[0].Error(), "bad name!")
	assert.Equal(t, []string{"get_alerts"}, conv.s.Snapshot().Discovered)
}

// The tools a Conversation passes follow the registry: a tool added or
// removed after the conversation started is passed (or not) from the next
// call of Tools on.
func TestToolsFollowRegistry(t *testing.T) {
	reg, err := toolsearch.NewRegistry(nil)
	require.NoError(t, err)
	conv := newConversation(t, &Options{Registry: reg,
		CallTool: func(context.Context, string, json.RawMessage) (any, error) { return "ok", nil }}, nil)
	names := func() []string {
		refs, err := conv.Tools()
		require.NoError(t, err)
		out := make([]string, len(refs))
		for i, r := range refs {
			out[i] = r.Name()
		}
		return out
	}
	assert.Empty(t, names(), "nothing deferred: no ToolSearch")
	ticket := toolsearch.NewMCPTool("tickets", "create_ticket", "Open a support ticket", nil, nil)
	require.NoError(t, reg.Register(ticket))
	assert.Equal(t, []string{"ToolSearch", "mcp__tickets__create_ticket"}, names(), "a tool registered later is passed")
	ticket.Description = "Open a ticket"
	require.NoError(t, reg.Replace(ticket))
	refs, err := conv.Tools()
	require.NoError(t, err)
	assert.Equal(t, "Open a ticket", refs[1].(ai.Tool).Definition().Description, "a changed description is passed")
	reg.Remove(ticket.Name)
	assert.Empty(t, names(), "a removed tool is no longer passed (and nothing is deferred)")
}
