// Package tseino connects toolsearch to CloudWeGo eino
// (github.com/cloudwego/eino): a middleware for the ADK's ChatModelAgent
// that defers tools behind toolsearch's ToolSearch, and converters between
// eino's schema.ToolInfo and toolsearch.Tool.
//
// The middleware (New) is a drop-in replacement for eino's own
// adk/middlewares/dynamictool/toolsearch: its Options take the tools to
// defer as eino tool.BaseTools, and it goes into the agent's Handlers:
//
//	mw, err := tseino.New(ctx, &tseino.Options{DynamicTools: tools})
//	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
//		// ...
//		Handlers: []adk.ChatModelAgentMiddleware{mw},
//	})
//
// Each agent run has its own toolsearch.Session. Before each model call the
// middleware sets the tools the model sees: the agent's own tools, the
// registry's tools that are not deferred, ToolSearch, and the deferred
// tools that ToolSearch found in the run or in the run's input messages
// (so a new run over a conversation's history keeps what was found).
// The instruction gets the section that tells the model which tools are
// deferred.
//
// # MCP tools
//
// Options.Registry may hold tools that are not eino tools, such as the
// tools of MCP servers that an mcphub.Hub keeps up to date; the
// middleware defers them like the dynamic tools and runs their calls
// through Options.CallTool:
//
//	reg := &toolsearch.Registry{}
//	hub := mcphub.New(reg, nil) // then hub.Attach(ctx, sessions.Dial("github", client, transport, nil))
//	mw, err := tseino.New(ctx, &tseino.Options{DynamicTools: tools, Registry: reg, CallTool: hub.CallToolText})
//
// The registry's tools are given to the agent when a run starts: a tool a
// server lists in the middle of a run is offered from the next run on.
//
// # Errors reaching the model
//
// A ToolSearch call that cannot be answered, and a call to a deferred or
// registry tool that the Session's CheckCall refuses (unknown tool,
// arguments that do not match the schema, a server not connected), reach
// the model as the tool's output, with toolsearch.ModelText(err): the
// error's text written for the model, without a Go package prefix. Eino's tool messages have no error flag, and a tool
// error would end the run. The refused tool does not run.
//
// # Schemas
//
// Tool converts eino's parameters (the params map or a JSON Schema) into
// the JSON Schema eino's model components send. ToolInfo converts a JSON
// Schema into eino's JSON Schema type without losing any keyword: what the
// type has no field for travels in its Extras.
package tseino
