package tseino

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/eino/einotest"
)

var callSeq atomic.Int64

func call(name, args string) *schema.Message {
	return einotest.ToolCall(fmt.Sprintf("call_%d", callSeq.Add(1)), name, args)
}

type scriptedModel = einotest.Model

func script(steps ...*schema.Message) *scriptedModel { return einotest.New(nil, steps...) }

// testTools are a static tool and three dynamic ones, recording the
// arguments they ran with.
type testTools struct {
	mu   sync.Mutex
	ran  []string
	time tool.InvokableTool
	dyn  []tool.BaseTool
}

type forecastIn struct {
	City string `json:"city" jsonschema:"required,description=City name"`
	Days int    `json:"days,omitempty" jsonschema:"description=Number of days,minimum=1,maximum=14"`
}

type emailIn struct {
	To   []string `json:"to" jsonschema:"required"`
	Body string   `json:"body" jsonschema:"required"`
}

type regionIn struct {
	Region string `json:"region" jsonschema:"required"`
}

func newTestTools(t *testing.T) *testTools {
	tt := &testTools{}
	record := func(name string, in any) {
		b, _ := json.Marshal(in)
		tt.mu.Lock()
		tt.ran = append(tt.ran, name+" "+string(b))
		tt.mu.Unlock()
	}
	var err error
	tt.time, err = utils.InferTool("get_time", "Current time in UTC", func(_ context.Context, in struct{}) (string, error) {
		record("get_time", in)
		return "12:00", nil
	})
	require.NoError(t, err)
	forecast, err := utils.InferTool("get_forecast", "Get the weather forecast for a city", func(_ context.Context, in forecastIn) (string, error) {
		record("get_forecast", in)
		return "Sunny, 21°C", nil
	})
	require.NoError(t, err)
	alerts, err := utils.InferTool("get_alerts", "Severe weather alerts for a region", func(_ context.Context, in regionIn) (string, error) {
		record("get_alerts", in)
		return "none", nil
	})
	require.NoError(t, err)
	email, err := utils.InferTool("send_email", "Send an email", func(_ context.Context, in emailIn) (string, error) {
		record("send_email", in)
		return "sent", nil
	})
	require.NoError(t, err)
	tt.dyn = []tool.BaseTool{forecast, alerts, email}
	return tt
}

func (tt *testTools) runs() []string {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	return slices.Clone(tt.ran)
}

// runAgent runs an agent with the middleware over input and returns the
// messages of its events.
func runAgent(t *testing.T, mw adk.ChatModelAgentMiddleware, m *scriptedModel, tt *testTools, input ...*schema.Message) []*schema.Message {
	t.Helper()
	ctx := context.Background()
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "assistant", Description: "test agent", Instruction: "You are a helpful assistant.",
		Model:       m,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{tt.time}}},
		Handlers:    []adk.ChatModelAgentMiddleware{mw},
	})
	require.NoError(t, err)
	iter := agent.Run(ctx, &adk.AgentInput{Messages: input})
	var out []*schema.Message
	for {
		ev, ok := iter.Next()
		if !ok {
			return out
		}
		require.NoError(t, ev.Err, "agent event error")
		if ev.Output != nil && ev.Output.MessageOutput != nil {
			msg, err := ev.Output.MessageOutput.GetMessage()
			require.NoError(t, err)
			out = append(out, msg)
		}
	}
}

// toolOutputs returns the content of the tool messages, by tool name.
func toolOutputs(msgs []*schema.Message) map[string][]string {
	out := map[string][]string{}
	for _, m := range msgs {
		if m.Role == schema.Tool {
			out[m.ToolName] = append(out[m.ToolName], m.Content)
		}
	}
	return out
}

func TestAgentDiscoversAndCalls(t *testing.T) {
	tt := newTestTools(t)
	mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn})
	require.NoError(t, err)
	m := script(
		call("ToolSearch", `{"query":"weather forecast city","max_results":1}`),
		call("get_forecast", `{"city":"Paris"}`),
		schema.AssistantMessage("Sunny in Paris.", nil),
	)
	msgs := runAgent(t, mw, m, tt, schema.UserMessage("Weather in Paris?"))

	assert.Equal(t, [][]string{
		{"get_time", "ToolSearch"},
		{"get_time", "ToolSearch", "get_forecast"},
		{"get_time", "ToolSearch", "get_forecast"},
	}, m.ToolNames(), "the found tool joins the model's tools on the next call")
	assert.Equal(t, []string{`get_forecast {"city":"Paris"}`}, tt.runs())
	assert.Equal(t, "Sunny in Paris.", msgs[len(msgs)-1].Content)

	// The ToolSearch result is the inline JSON with the tool's schema, as
	// eino itself would send it.
	out := toolOutputs(msgs)["ToolSearch"]
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
	info, err := tt.dyn[0].Info(context.Background())
	require.NoError(t, err)
	js, err := info.ToJSONSchema()
	require.NoError(t, err)
	want, err := json.Marshal(js)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(res.Matches[0].Schema))

	// The model got the dynamic tool's own ToolInfo, and the instruction
	// tells it about the deferred tools.
	calls := m.Calls()
	assert.Same(t, info, calls[1].Tools[2])
	sys := calls[0].Input[0]
	assert.Equal(t, schema.System, sys.Role)
	assert.True(t, strings.HasPrefix(sys.Content, "You are a helpful assistant.\n\n"), "instruction kept first: %q", sys.Content)
	for _, name := range []string{"get_forecast", "get_alerts", "send_email"} {
		assert.Contains(t, sys.Content, name, "the instruction names the deferred tools")
	}
}

func TestAgentChecksCalls(t *testing.T) {
	tt := newTestTools(t)
	mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn})
	require.NoError(t, err)
	m := script(
		call("ToolSearch", `{"query":"select:send_email"}`),
		call("send_email", `{"to":"bob@example.com"}`),
		call("get_alerts", `{"region":7}`),
		call("ToolSearch", `{"query":7}`),
		call("get_time", `{}`),
		schema.AssistantMessage("Done.", nil),
	)
	msgs := runAgent(t, mw, m, tt, schema.UserMessage("Mail Bob."))

	assert.Equal(t, []string{"get_time {}"}, tt.runs(), "refused calls do not run; the static tool is not checked")
	out := toolOutputs(msgs)
	require.Len(t, out["send_email"], 1)
	assert.Contains(t, out["send_email"][0], "do not match its schema", "bad arguments are refused with toolsearch's text")
	require.Len(t, out["get_alerts"], 1)
	assert.Contains(t, out["get_alerts"][0], "ToolSearch", "an undiscovered tool with bad arguments gets the hint to load its schema")
	require.Len(t, out["ToolSearch"], 2)
	assert.Contains(t, out["ToolSearch"][1], "query: expected string", "a ToolSearch call that cannot be answered says why")
}

// The refusal texts are exactly the errors CheckCall returns.
func TestAgentRefusalText(t *testing.T) {
	tt := newTestTools(t)
	mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn})
	require.NoError(t, err)
	m := script(
		call("ToolSearch", `{"query":"select:send_email"}`),
		call("send_email", `{"to":"bob@example.com"}`),
		call("ToolSearch", `{"query":7}`),
		schema.AssistantMessage("Done.", nil),
	)
	msgs := runAgent(t, mw, m, tt, schema.UserMessage("Mail Bob."))

	s := toolsearch.NewSession(mw.(*middleware).reg, nil)
	found := answer(context.Background(), s, json.RawMessage(`{"query":"select:send_email"}`))
	_, want := s.CheckCall("send_email", json.RawMessage(`{"to":"bob@example.com"}`))
	require.Error(t, want)
	out := toolOutputs(msgs)
	assert.Equal(t, []string{toolsearch.ModelText(want)}, out["send_email"])
	assert.Equal(t, []string{found, answer(context.Background(), s, json.RawMessage(`{"query":7}`))}, out["ToolSearch"])
}

func TestAgentResumesFromInput(t *testing.T) {
	tt := newTestTools(t)
	mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn})
	require.NoError(t, err)
	first := script(
		call("ToolSearch", `{"query":"select:get_forecast"}`),
		schema.AssistantMessage("Which city?", nil),
	)
	history := []*schema.Message{schema.UserMessage("Weather?")}
	history = append(history, runAgent(t, mw, first, tt, history...)...)
	history = append(history, schema.UserMessage("Paris."))

	second := script(
		call("get_forecast", `{"city":"Paris"}`),
		schema.AssistantMessage("Sunny.", nil),
	)
	runAgent(t, mw, second, tt, history...)
	assert.Equal(t, [][]string{{"get_time", "ToolSearch", "get_forecast"}, {"get_time", "ToolSearch", "get_forecast"}}, second.ToolNames(),
		"a new run finds the tools that the history's ToolSearch results returned")
	assert.Equal(t, []string{`get_forecast {"city":"Paris"}`}, tt.runs())
}

func TestAgentConcurrentRuns(t *testing.T) {
	tt := newTestTools(t)
	mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn})
	require.NoError(t, err)
	var wg sync.WaitGroup
	models := make([]*scriptedModel, 8)
	for i := range models {
		name := []string{"get_forecast", "send_email"}[i%2]
		models[i] = script(
			call("ToolSearch", `{"query":"select:`+name+`"}`),
			schema.AssistantMessage("ok", nil),
		)
		wg.Go(func() { runAgent(t, mw, models[i], tt, schema.UserMessage("hi")) })
	}
	wg.Wait()
	for i, m := range models {
		name := []string{"get_forecast", "send_email"}[i%2]
		assert.Equal(t, [][]string{{"get_time", "ToolSearch"}, {"get_time", "ToolSearch", name}}, m.ToolNames(), "run %d sees only its own discoveries", i)
	}
}

func TestAgentRegistryToolsAndBridge(t *testing.T) {
	tt := newTestTools(t)
	ticket := toolsearch.NewMCPTool("tickets", "create_ticket", "Open a support ticket",
		json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`), nil)
	reg, err := toolsearch.NewRegistry(nil, ticket)
	require.NoError(t, err)
	var called []string
	var mu sync.Mutex
	callTool := func(_ context.Context, name string, args json.RawMessage) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		called = append(called, name+" "+string(args))
		return "ticket 42", nil
	}

	t.Run("direct", func(t *testing.T) {
		mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn, Registry: reg, CallTool: callTool})
		require.NoError(t, err)
		m := script(
			call("ToolSearch", `{"query":"support ticket"}`),
			call("mcp__tickets__create_ticket", `{"title":"Printer on fire"}`),
			schema.AssistantMessage("Opened.", nil),
		)
		msgs := runAgent(t, mw, m, tt, schema.UserMessage("Open a ticket"))
		assert.Equal(t, []string{"ticket 42"}, toolOutputs(msgs)["mcp__tickets__create_ticket"])
		assert.Contains(t, m.ToolNames()[1], "mcp__tickets__create_ticket")
		tools := m.Calls()[1].Tools
		info := tools[len(tools)-1]
		js, err := info.ToJSONSchema()
		require.NoError(t, err)
		b, err := json.Marshal(js)
		require.NoError(t, err)
		assert.JSONEq(t, `{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`, string(b), "the model gets the registry's schema")
	})

	t.Run("without CallTool the registry tool is not offered", func(t *testing.T) {
		reg, err := toolsearch.NewRegistry(nil, ticket)
		require.NoError(t, err)
		mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn, Registry: reg})
		require.NoError(t, err)
		m := script(
			call("ToolSearch", `{"query":"select:mcp__tickets__create_ticket"}`),
			schema.AssistantMessage("Cannot.", nil),
		)
		runAgent(t, mw, m, tt, schema.UserMessage("Open a ticket"))
		assert.NotContains(t, m.ToolNames()[1], "mcp__tickets__create_ticket")
	})

	t.Run("bridge", func(t *testing.T) {
		reg2, err := toolsearch.NewRegistry(nil)
		require.NoError(t, err)
		mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn, Registry: reg2, SessionOptions: &toolsearch.SessionOptions{CallBridge: true}})
		require.NoError(t, err)
		m := script(
			call("ToolSearch", `{"query":"select:get_forecast"}`),
			call("CallTool", `{"name":"get_forecast","arguments":{}}`),
			call("CallTool", `{"name":"get_forecast","arguments":{"city":"Rome"}}`),
			schema.AssistantMessage("Sunny in Rome.", nil),
		)
		msgs := runAgent(t, mw, m, tt, schema.UserMessage("Weather in Rome?"))
		names := m.ToolNames()
		for i := range names {
			assert.Equal(t, []string{"get_time", "ToolSearch", "CallTool"}, names[i], "call %d: the tool list never changes", i+1)
		}
		out := toolOutputs(msgs)["CallTool"]
		require.Len(t, out, 2)
		assert.Contains(t, out[0], "do not match its schema")
		assert.Equal(t, "Sunny, 21°C", out[1])
	})
	mu.Lock()
	assert.Equal(t, []string{`mcp__tickets__create_ticket {"title":"Printer on fire"}`}, called)
	mu.Unlock()
}

func TestNewErrors(t *testing.T) {
	ctx := context.Background()
	tt := newTestTools(t)
	mw, err := New(ctx, nil)
	require.NoError(t, err, "nil options are the defaults")
	assert.NotNil(t, mw)
	_, err = New(ctx, &Options{SessionOptions: &toolsearch.SessionOptions{Format: toolsearch.FormatToolReference}})
	require.ErrorIs(t, err, ErrFormat, "a Format eino cannot carry is refused by New, not rendered otherwise")
	_, err = New(ctx, &Options{DynamicTools: []tool.BaseTool{nil}})
	assert.EqualError(t, err, "tseino: dynamic tool 0 is nil")
	_, err = New(ctx, &Options{DynamicTools: []tool.BaseTool{tt.dyn[0], tt.dyn[0]}})
	assert.ErrorIs(t, err, toolsearch.ErrDuplicateTool)
	assert.ErrorContains(t, err, `"get_forecast"`)
	_, err = New(ctx, &Options{DynamicTools: []tool.BaseTool{infoTool{info: &schema.ToolInfo{Name: "weather/forecast"}}}})
	assert.ErrorIs(t, err, toolsearch.ErrInvalidName)
	_, err = New(ctx, &Options{DynamicTools: []tool.BaseTool{infoTool{info: &schema.ToolInfo{Name: "x",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{"a": {Type: "text"}})}}}})
	assert.ErrorIs(t, err, ErrSchema)
}

func TestAgentToolNameClash(t *testing.T) {
	ctx := context.Background()
	tt := newTestTools(t)
	// A dynamic tool with the name of one of the agent's own tools.
	mw, err := New(ctx, &Options{DynamicTools: []tool.BaseTool{tt.time}})
	require.NoError(t, err)
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "assistant", Description: "test agent", Model: script(schema.AssistantMessage("hi", nil)),
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{tt.time}}},
		Handlers:    []adk.ChatModelAgentMiddleware{mw},
	})
	require.NoError(t, err)
	iter := agent.Run(ctx, &adk.AgentInput{Messages: []*schema.Message{schema.UserMessage("hi")}})
	var errs []error
	for ev, ok := iter.Next(); ok; ev, ok = iter.Next() {
		if ev.Err != nil {
			errs = append(errs, ev.Err)
		}
	}
	require.Len(t, errs, 1)
	assert.ErrorContains(t, errs[0], `tseino: the agent already has a tool named "get_time"`)
}

func TestAgentSessionHook(t *testing.T) {
	tt := newTestTools(t)
	reg, err := toolsearch.NewRegistry(nil)
	require.NoError(t, err)
	s := toolsearch.NewSession(reg, nil) // one conversation's Session, kept by the application
	mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn, Registry: reg,
		Session: func(context.Context) (*toolsearch.Session, error) { return s, nil }})
	require.NoError(t, err)
	runAgent(t, mw, script(call("ToolSearch", `{"query":"select:send_email"}`), schema.AssistantMessage("To whom?", nil)), tt, schema.UserMessage("Mail."))
	second := script(schema.AssistantMessage("ok", nil))
	runAgent(t, mw, second, tt, schema.UserMessage("Bob.")) // no history given
	assert.Equal(t, [][]string{{"get_time", "ToolSearch", "send_email"}}, second.ToolNames(), "the application's Session keeps what was found")

	failing, err := New(context.Background(), &Options{DynamicTools: newTestTools(t).dyn,
		Session: func(context.Context) (*toolsearch.Session, error) { return nil, fmt.Errorf("no such conversation") }})
	require.NoError(t, err)
	agent, err := adk.NewChatModelAgent(context.Background(), &adk.ChatModelAgentConfig{
		Name: "a", Description: "a", Model: script(), Handlers: []adk.ChatModelAgentMiddleware{failing}})
	require.NoError(t, err)
	iter := agent.Run(context.Background(), &adk.AgentInput{Messages: []*schema.Message{schema.UserMessage("hi")}})
	ev, ok := iter.Next()
	require.True(t, ok)
	assert.ErrorContains(t, ev.Err, "tseino: the run's session: no such conversation")
}

// errorLog collects what Options.OnError is told.
type errorLog struct {
	mu   sync.Mutex
	errs []error
}

func (l *errorLog) add(_ context.Context, err error) {
	l.mu.Lock()
	l.errs = append(l.errs, err)
	l.mu.Unlock()
}

func (l *errorLog) texts() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, len(l.errs))
	for i, err := range l.errs {
		out[i] = err.Error()
	}
	return out
}

// A registry tool whose lazy schema fails is left out of each model call
// and reported to OnError each time; the run goes on.
func TestAgentReportsSkippedTools(t *testing.T) {
	tt := newTestTools(t)
	var log errorLog
	mw, err := New(context.Background(), &Options{Registry: brokenSchemaRegistry(t), OnError: log.add,
		CallTool: func(context.Context, string, json.RawMessage) (string, error) { return "ok", nil }})
	require.NoError(t, err)
	m := script(call("ToolSearch", `{"query":"select:mcp__weather__get_forecast"}`), schema.AssistantMessage("Done.", nil))
	msgs := runAgent(t, mw, m, tt, schema.UserMessage("hi"))
	assert.Equal(t, "Done.", msgs[len(msgs)-1].Content)
	for i, names := range m.ToolNames() {
		assert.NotContains(t, names, "broken", "model call %d: the tool whose schema failed is left out", i+1)
		assert.Contains(t, names, "ToolSearch", "model call %d: the other tools are sent", i+1)
	}
	texts := log.texts()
	require.Len(t, texts, 2, "one report per model call: %q", texts)
	for _, text := range texts {
		assert.Contains(t, text, "broken")
		assert.Contains(t, text, "server said no")
	}
}

// A name in the input messages that is not a tool name is reported to
// OnError when the run's messages are read; the valid names are found.
func TestAgentReportsSkippedHistoryNames(t *testing.T) {
	tt := newTestTools(t)
	var log errorLog
	mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn, OnError: log.add})
	require.NoError(t, err)
	// A ToolSearch result whose call was cut from the history.
	found := `{"matches":[{"name":"get_alerts"},{"name":"bad name!"}],"query":"alerts","total_deferred_tools":3}`
	input := []*schema.Message{schema.ToolMessage(found, "call_cut", schema.WithToolName("ToolSearch")), schema.UserMessage("Alerts?")}
	m := script(schema.AssistantMessage("None.", nil))
	runAgent(t, mw, m, tt, input...)
	assert.Equal(t, [][]string{{"get_time", "ToolSearch", "get_alerts"}}, m.ToolNames(), "the valid name is found")
	require.Len(t, log.errs, 1)
	assert.ErrorIs(t, log.errs[0], toolsearch.ErrInvalidName)
	assert.Contains(t, log.errs[0].Error(), "bad name!")
}

// SessionOptions.Search.Scope is each run's allow-list: a dynamic tool
// outside it is not named to the model, not found by ToolSearch, and a
// call to it is refused; the run goes on.
func TestAgentScope(t *testing.T) {
	tt := newTestTools(t)
	scope := &toolsearch.Scope{Allow: []string{"get_forecast", "get_alerts"}}
	mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn, SessionOptions: &toolsearch.SessionOptions{Search: toolsearch.SearchOptions{Scope: scope}}})
	require.NoError(t, err)
	m := script(
		call("ToolSearch", `{"query":"select:send_email,get_forecast"}`),
		call("send_email", `{"to":["bob@example.com"],"body":"hi"}`),
		schema.AssistantMessage("Cannot.", nil),
	)
	msgs := runAgent(t, mw, m, tt, schema.UserMessage("Mail Bob."))
	assert.NotContains(t, m.Calls()[0].Input[0].Content, "send_email", "the instruction does not name the tool out of scope")
	assert.Equal(t, []string{"get_time", "ToolSearch", "get_forecast"}, m.ToolNames()[1], "only the tool in scope is found")
	out := toolOutputs(msgs)
	require.Len(t, out["ToolSearch"], 1)
	assert.NotContains(t, out["ToolSearch"][0], `"name":"send_email"`)
	require.Len(t, out["send_email"], 1)
	assert.Contains(t, out["send_email"][0], "No tool named send_email", "a call out of scope is refused with toolsearch's text")
	assert.Empty(t, tt.runs(), "the refused tool did not run")
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

// A Session from Options.Session at a tool-reference Format fails the run.
func TestSessionAtToolReferenceFormatFailsTheRun(t *testing.T) {
	tt := newTestTools(t)
	mw, err := New(context.Background(), &Options{DynamicTools: tt.dyn, Session: func(context.Context) (*toolsearch.Session, error) {
		reg, err := toolsearch.NewRegistry(nil)
		require.NoError(t, err)
		return toolsearch.NewSession(reg, &toolsearch.SessionOptions{Format: toolsearch.FormatToolReference}), nil
	}})
	require.NoError(t, err)
	_, _, err = mw.BeforeAgent(context.Background(), &adk.ChatModelAgentContext{})
	require.ErrorIs(t, err, ErrFormat)
}
