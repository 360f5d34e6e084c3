// Command agentloop is a complete agent loop over a toolsearch.Session,
// run against a scripted fake model (no network):
//
//  1. the first request carries the core tools, ToolSearch and the list of
//     deferred tools;
//  2. the model calls ToolSearch; the answer is a tool_result holding only
//     tool_reference blocks, with "Tool loaded." (and any note) after it in
//     the same user message; the next request carries the tool it found
//     (defer_loading, expanded by the tool_reference in the history);
//  3. the model calls that tool, checked by Session.CheckCall first;
//  4. the conversation is compacted: the Session state is saved as JSON,
//     restored in a new Session, and the tool list is byte-identical;
//  5. another process resumes from the saved (uncompacted) history;
//  6. a subagent with a narrower scope cannot find or call tools outside
//     it;
//  7. a conversation with the call bridge, whose tool list never changes.
//
// Each request prints its tool names and what the tool definitions and the
// deferred-tool announcement cost, in characters.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

func main() {
	if _, err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "agentloop:", err)
		os.Exit(1)
	}
}

// Anthropic Messages shapes, reduced to what the loop uses.
type (
	message struct {
		Role    string  `json:"role"`
		Content []block `json:"content"`
	}
	block struct {
		Type      string                    `json:"type"`
		Text      string                    `json:"text,omitempty"`
		ID        string                    `json:"id,omitempty"`
		Name      string                    `json:"name,omitempty"`
		Input     json.RawMessage           `json:"input,omitempty"`
		ToolUseID string                    `json:"tool_use_id,omitempty"`
		Content   []toolsearch.ContentBlock `json:"content,omitempty"`
		IsError   bool                      `json:"is_error,omitempty"`
	}
	request struct {
		Tools    []toolsearch.ToolDefinition
		Messages []message
	}
)

// step is one scripted model turn: it sees the request and answers.
type step func(req request) message

// model replays its steps in order.
type model struct {
	steps []step
	n     int // tool_use ids
}

func (m *model) next(req request) (message, error) {
	if len(m.steps) == 0 {
		return message{}, fmt.Errorf("the script has no answer for request with %d messages", len(req.Messages))
	}
	s := m.steps[0]
	m.steps = m.steps[1:]
	return s(req), nil
}

func text(s string) step {
	return func(request) message { return message{Role: "assistant", Content: []block{{Type: "text", Text: s}}} }
}

func (m *model) call(name, input string) step {
	return func(request) message {
		m.n++
		return message{Role: "assistant", Content: []block{{Type: "tool_use", ID: fmt.Sprintf("toolu_%02d", m.n), Name: name, Input: json.RawMessage(input)}}}
	}
}

// transcript records every request's serialized tools, per conversation,
// and the main conversation's history.
type transcript struct {
	Tools   map[string][][]byte
	History []byte
}

// agent runs one conversation.
type agent struct {
	w       io.Writer
	label   string
	session *toolsearch.Session
	model   *model
	msgs    []message
	tr      *transcript
	turn    int
}

// loop sends requests until the model answers without a tool call.
func (a *agent) loop() error {
	for {
		a.turn++
		if ann := a.session.Announce(); ann.Text != "" {
			last := &a.msgs[len(a.msgs)-1]
			last.Content = append(last.Content, block{Type: "text", Text: ann.Text})
			kind := "delta"
			if ann.Full {
				kind = "full"
			}
			fmt.Fprintf(a.w, "  announce (%s): %d names added, %d removed, %d chars\n", kind, len(ann.Added), len(ann.Removed), len(ann.Text))
		}
		tools, skipped := a.session.Tools()
		if len(skipped) > 0 {
			return errors.Join(skipped...)
		}
		tj, err := json.Marshal(tools)
		if err != nil {
			return err
		}
		a.tr.Tools[a.label] = append(a.tr.Tools[a.label], tj)
		fmt.Fprintf(a.w, "  request %d: %d tools, %d chars: %s\n", a.turn, len(tools), len(tj), strings.Join(names(tools), " "))

		reply, err := a.model.next(request{Tools: tools, Messages: a.msgs})
		if err != nil {
			return err
		}
		a.msgs = append(a.msgs, reply)
		// The user message holds every tool_result first, then the texts
		// that follow the ToolSearch results, each once.
		var results, texts []block
		for _, b := range reply.Content {
			switch b.Type {
			case "text":
				fmt.Fprintf(a.w, "  model: %s\n", b.Text)
			case "tool_use":
				res, after := a.runTool(b)
				results = append(results, res)
				for _, t := range after {
					if !slices.ContainsFunc(texts, func(x block) bool { return x.Text == t.Text }) {
						texts = append(texts, block{Type: "text", Text: t.Text})
					}
				}
			}
		}
		if len(results) == 0 {
			return nil
		}
		a.msgs = append(a.msgs, message{Role: "user", Content: append(results, texts...)})
	}
}

// runTool answers one tool_use: ToolSearch through the session, anything
// else after CheckCall. after are the text blocks that go after the
// message's tool results.
func (a *agent) runTool(b block) (res block, after []toolsearch.ContentBlock) {
	res = block{Type: "tool_result", ToolUseID: b.ID}
	if b.Name == toolsearch.ToolSearchName {
		found, err := a.session.Call(b.Input)
		if err != nil {
			res.Content, res.IsError = []toolsearch.ContentBlock{{Type: "text", Text: err.Error()}}, true
		} else {
			res.Content, after = found.Content(a.session.Format())
		}
		fmt.Fprintf(a.w, "  ToolSearch %s → %s\n", b.Input, summarize(res.Content, after))
		return res, after
	}
	call, err := a.session.CheckCall(b.Name, b.Input)
	if err != nil {
		res.Content, res.IsError = []toolsearch.ContentBlock{{Type: "text", Text: err.Error()}}, true
		fmt.Fprintf(a.w, "  %s refused: %s\n", b.Name, err)
		return res, nil
	}
	out := fmt.Sprintf("ok: %s ran with %s", call.Tool.Name, call.Arguments)
	res.Content = []toolsearch.ContentBlock{{Type: "text", Text: out}}
	fmt.Fprintf(a.w, "  %s %s → %s\n", b.Name, b.Input, out)
	return res, nil
}

func names(defs []toolsearch.ToolDefinition) []string {
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = d.Name
	}
	return out
}

// summarize shortens a ToolSearch result for the log: the tools it
// references or names, and the texts that follow the tool result.
func summarize(content, after []toolsearch.ContentBlock) string {
	var refs []string
	for _, c := range content {
		if c.Type == "tool_reference" {
			refs = append(refs, c.ToolName)
		}
	}
	if len(refs) > 0 {
		out := "tool_reference " + strings.Join(refs, ", ")
		for _, t := range after {
			out += ` + "` + t.Text + `"`
		}
		return out
	}
	if len(content) == 0 {
		return "(empty)"
	}
	var r struct {
		Matches []struct {
			Name string `json:"name"`
		} `json:"matches"`
		NotFound []string `json:"not_found"`
	}
	if json.Unmarshal([]byte(content[0].Text), &r) == nil {
		ns := []string{}
		for _, m := range r.Matches {
			ns = append(ns, m.Name)
		}
		out := fmt.Sprintf("inline, %d chars: matches %v", len(content[0].Text), ns)
		if len(r.NotFound) > 0 {
			out += fmt.Sprintf(", not found %v", r.NotFound)
		}
		return out
	}
	return content[0].Text
}

func userMessage(s string) message {
	return message{Role: "user", Content: []block{{Type: "text", Text: s}}}
}

const sendArgs = `{"channel_id":"C0OPS","text":"deploy done"}`

// run plays every scenario, writing the log to w.
func run(w io.Writer) (*transcript, error) {
	tools, err := toolsearch.ParseCatalog(toolsearchtest.DemoCatalog())
	if err != nil {
		return nil, err
	}
	reg, err := toolsearch.NewRegistry(nil, tools...)
	if err != nil {
		return nil, err
	}
	full, err := json.Marshal(fullDefinitions(reg))
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "registry: %d tools; all of them in full would cost %d chars per request\n", len(tools), len(full))
	tr := &transcript{Tools: map[string][][]byte{}}

	// 1–3: discover a tool and call it.
	fmt.Fprintln(w, "\n== conversation: discover and call")
	m := &model{}
	m.steps = []step{
		m.call("ToolSearch", `{"query":"+slack send message","max_results":1}`),
		func(req request) message {
			fmt.Fprintf(w, "  model sees mcp__slack__send_message: %v\n", slices.Contains(names(req.Tools), "mcp__slack__send_message"))
			return m.call("mcp__slack__send_message", sendArgs)(req)
		},
		text("Posted."),
	}
	main := &agent{w: w, label: "main", model: m, tr: tr,
		session: toolsearch.NewSession(reg, &toolsearch.SessionOptions{Format: toolsearch.FormatToolReference}),
		msgs:    []message{userMessage("Tell #ops on Slack that the deploy is done.")}}
	if err := main.loop(); err != nil {
		return nil, err
	}
	history, err := json.Marshal(main.msgs)
	if err != nil {
		return nil, err
	}
	tr.History = history
	before, _ := main.session.Tools()
	beforeJSON, _ := json.Marshal(before)

	// 4: compaction. The state goes to storage as JSON and comes back in a
	// new Session (another process, say); the history is replaced by a
	// summary.
	fmt.Fprintln(w, "\n== compaction")
	saved, err := json.Marshal(main.session.Snapshot())
	if err != nil {
		return nil, err
	}
	var st toolsearch.SessionState
	if err := json.Unmarshal(saved, &st); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "  saved state: %d chars; discovered %v, %d names announced\n", len(saved), st.Discovered, len(st.Announced))
	compacted := toolsearch.NewSession(reg, &toolsearch.SessionOptions{Format: toolsearch.FormatToolReference})
	if err := compacted.Restore(st); err != nil {
		return nil, err
	}
	compacted.Compact()
	after, _ := compacted.Tools()
	afterJSON, _ := json.Marshal(after)
	fmt.Fprintf(w, "  tools byte-identical after restore: %v\n", string(beforeJSON) == string(afterJSON))
	m = &model{n: main.model.n}
	m.steps = []step{m.call("mcp__slack__send_message", `{"channel_id":"C0OPS","text":"and the smoke tests passed"}`), text("Posted again.")}
	cont := &agent{w: w, label: "compacted", model: m, tr: tr, session: compacted,
		msgs: []message{userMessage("Summary of the conversation so far: the deploy was announced in #ops with mcp__slack__send_message. Now add that the smoke tests passed.")}}
	if err := cont.loop(); err != nil {
		return nil, err
	}

	// 5: resume from the saved history, with no saved state.
	fmt.Fprintln(w, "\n== resume from the saved history")
	resumed := toolsearch.NewSession(reg, &toolsearch.SessionOptions{Format: toolsearch.FormatToolReference})
	skipped, err := resumed.Resume(history)
	if err != nil {
		return nil, err
	}
	if len(skipped) > 0 {
		return nil, errors.Join(skipped...)
	}
	discovered := resumed.Snapshot().Discovered
	fmt.Fprintf(w, "  history: %d messages, %d chars; discovered: %v\n", len(main.msgs), len(history), discovered)
	fmt.Fprintf(w, "  same discovered set as the live session: %v\n", slices.Equal(discovered, main.session.Snapshot().Discovered))
	re, _ := resumed.Tools()
	reJSON, _ := json.Marshal(re)
	fmt.Fprintf(w, "  tools byte-identical: %v\n", string(reJSON) == string(beforeJSON))

	// 6: a subagent that may only read code and search GitHub issues.
	fmt.Fprintln(w, "\n== subagent scoped to Read, Grep, Glob, mcp__github__search_issues, mcp__github__get_issue")
	m = &model{}
	m.steps = []step{
		m.call("ToolSearch", `{"query":"github issues search","max_results":3}`),
		m.call("ToolSearch", `{"query":"select:mcp__slack__send_message"}`),
		m.call("mcp__slack__send_message", sendArgs),
		m.call("mcp__github__search_issues", `{"q":"repo:acme/web is:open login"}`),
		text("Found the open login issues."),
	}
	sub := &agent{w: w, label: "subagent", model: m, tr: tr,
		session: toolsearch.NewSession(reg, &toolsearch.SessionOptions{Search: toolsearch.SearchOptions{
			Scope: &toolsearch.Scope{Allow: []string{"Read", "Grep", "Glob", "mcp__github__search_issues", "mcp__github__get_issue"}},
		}}),
		msgs: []message{userMessage("Find open GitHub issues about login in acme/web.")}}
	if err := sub.loop(); err != nil {
		return nil, err
	}

	// 7: the call bridge: the tool list never changes.
	fmt.Fprintln(w, "\n== conversation with the call bridge")
	m = &model{}
	m.steps = []step{
		m.call("ToolSearch", `{"query":"+slack send message","max_results":1}`),
		m.call("CallTool", `{"name":"mcp__slack__send_message","arguments":{"channel":"ops"}}`),
		m.call("CallTool", `{"name":"mcp__slack__send_message","arguments":`+sendArgs+`}`),
		text("Posted through the bridge."),
	}
	bridge := &agent{w: w, label: "bridge", model: m, tr: tr,
		session: toolsearch.NewSession(reg, &toolsearch.SessionOptions{CallBridge: true}),
		msgs:    []message{userMessage("Tell #ops on Slack that the deploy is done.")}}
	if err := bridge.loop(); err != nil {
		return nil, err
	}
	same := true
	for _, t := range tr.Tools["bridge"][1:] {
		same = same && string(t) == string(tr.Tools["bridge"][0])
	}
	fmt.Fprintf(w, "  tools byte-identical on all %d requests: %v\n", len(tr.Tools["bridge"]), same)
	return tr, nil
}

// fullDefinitions returns every tool in full, as with tool search off.
func fullDefinitions(reg *toolsearch.Registry) []toolsearch.ToolDefinition {
	s := toolsearch.NewSession(reg, &toolsearch.SessionOptions{Mode: toolsearch.ModeNever})
	defs, _ := s.Tools()
	return defs
}
