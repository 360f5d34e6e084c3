// Package tsgenkit connects toolsearch to Firebase Genkit for Go
// (github.com/firebase/genkit/go): deferred tools in Genkit's generate
// loop, behind toolsearch's ToolSearch tool, and converters between
// Genkit's ai.ToolDefinition and toolsearch.Tool.
//
// Make the deferred tools once with New, start a Conversation per
// conversation (over a toolsearch.Session), and give each Generate call
// the Conversation's tools and middleware:
//
//	deferred, err := tsgenkit.New(&tsgenkit.Options{DynamicTools: tools})
//	conv, err := deferred.Conversation(toolsearch.NewSession(deferred.Registry(), nil))
//	callTools, err := conv.Tools(ownTools...)
//	resp, err := genkit.Generate(ctx, g, ai.WithPrompt(prompt),
//		ai.WithTools(callTools...), ai.WithMiddleware(conv.Middleware()))
//
// Genkit fixes the tools of a Generate call when it starts, but runs its
// tool loop through the model middleware: before each model call the
// middleware sets the tools the model sees (the caller's tools, sorted by
// name, the registry's tools that are not deferred, ToolSearch, and the
// tools found so far, in the Session's order) and adds the section about
// the deferred tools to the system message. Every deferred tool is passed
// to Generate, wrapped so that Session.CheckCall checks each call before
// the tool runs; a tool found in the middle of the loop can so be called
// in the same Generate.
//
// # MCP tools
//
// Options.Registry may hold tools that are not Genkit tools, such as the
// tools of MCP servers that an mcphub.Hub keeps up to date; a
// Conversation defers them like the dynamic tools and runs their calls
// through Options.CallTool:
//
//	reg := &toolsearch.Registry{}
//	hub := mcphub.New(reg, nil) // then hub.Attach(ctx, sessions.Dial("github", client, transport, nil))
//	deferred, err := tsgenkit.New(&tsgenkit.Options{DynamicTools: tools, Registry: reg,
//		CallTool: func(ctx context.Context, name string, args json.RawMessage) (any, error) {
//			return hub.CallToolText(ctx, name, args)
//		}})
//
// The registry's tools are passed to Generate by Conversation.Tools: a
// tool a server lists during a Generate call is offered from the next
// call on.
//
// # Errors reaching the model
//
// A ToolSearch call that cannot be answered, and a call that CheckCall
// refuses, reach the model as the tool's output, with
// toolsearch.ModelText(err), the error's text written for the model
// without a Go package prefix: Genkit's tool responses have no error
// flag, and a tool error would end Generate. The refused tool does not
// run.
//
// # Schemas
//
// Genkit holds schemas as maps decoded from JSON (numbers as float64):
// ToolDefinition refuses a schema with a number a float64 would change.
package tsgenkit
