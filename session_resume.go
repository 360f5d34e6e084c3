package toolsearch

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/text"
)

// Resume adds to the discovered set the tools that a conversation history
// shows as discovered, for a conversation that goes on in a new Session
// (after a restart, say). history is raw JSON: an array of messages (or
// items), or a request body holding one under "messages" or "input".
// Three shapes are read, and may be mixed:
//
//   - Anthropic Messages: the {"type":"tool_reference","tool_name":…}
//     blocks directly in the content of a tool_result answering a
//     ToolSearch tool_use (with or without text blocks beside them; the
//     text blocks that follow the tool_result in the same message are not
//     read), the inline or functions rendering of a ToolSearch result in
//     such a tool_result, and the tool_references of a
//     tool_search_tool_result (Anthropic's server-side tool search);
//   - OpenAI Chat Completions: the inline or functions rendering in a role
//     "tool" message answering a ToolSearch tool call;
//   - OpenAI Responses: the same in a function_call_output answering a
//     ToolSearch function_call.
//
// Only answers to ToolSearch calls count: a tool result that answers any
// other call in the history is never read, whatever it holds (a command's
// output may print a ToolSearch result), and neither is anything else
// (messages, tool inputs, tool_reference blocks nested deeper). When
// several calls share an id, its results count only if every one of them
// is a ToolSearch call: a later ToolSearch call that reuses a command's
// id does not make the command's output count. A tool result whose call
// is not in the history at all (the history was cut before it) counts
// when it holds tool_reference blocks, or when its whole text, one text
// and nothing else, is a complete inline ToolSearch result (an object
// with "matches", "query" and "total_deferred_tools", with nothing after
// it). Error results are ignored.
//
// A history that is not JSON or not an array is an error wrapping
// ErrInvalidHistory, and nothing is added. A name that is not a valid tool
// name is skipped: skipped holds one error per such name (quoting at most
// its first 128 bytes; after 100 of them, one error counts the rest),
// wrapping ErrInvalidName. Names beyond SessionOptions.MaxDiscovered are
// skipped too (see AddDiscovered). The other names are added.
func (s *Session) Resume(history json.RawMessage) (skipped []error, err error) {
	names, skipped, err := discoveredInHistory(history)
	if err != nil {
		return nil, err
	}
	return append(skipped, s.AddDiscovered(names...)...), nil
}

// maxSkippedNames is how many invalid names Resume reports one by one.
const maxSkippedNames = 100

// discoveredInHistory returns the names of the tools that history shows as
// discovered (see Resume), sorted, without duplicates, and an error for
// each name that is not a valid tool name, left out.
func discoveredInHistory(history json.RawMessage) (names []string, skipped []error, err error) {
	var doc any
	if err := json.Unmarshal(history, &doc); err != nil {
		return nil, nil, errorf(ErrInvalidHistory, "not valid JSON: %v", err)
	}
	if m, ok := doc.(map[string]any); ok {
		switch {
		case m["messages"] != nil:
			doc = m["messages"]
		case m["input"] != nil:
			doc = m["input"]
			if _, ok := doc.(string); ok {
				return []string{}, nil, nil // a Responses input given as plain text
			}
		default:
			return nil, nil, errorf(ErrInvalidHistory, `an object without "messages" or "input"`)
		}
	}
	items, ok := doc.([]any)
	if !ok {
		return nil, nil, errorf(ErrInvalidHistory, "want an array of messages, got %s", jsonKind(doc))
	}
	h := historyScan{calls: map[string]callKinds{}, names: map[string]bool{}}
	for _, it := range items {
		h.visit(it)
	}
	for _, r := range h.results {
		kinds, known := h.calls[r.id]
		if r.id == "" {
			known = false // cannot be matched to its call
		}
		search := known && kinds == callSearch
		if r.isError || known && !search {
			continue // only answers to ToolSearch calls count, and only theirs
		}
		if r.refs {
			h.references(r.content)
		}
		texts := contentTexts(r.content)
		if !search && len(texts) != 1 {
			continue // a cut-off call's result counts only if all of it is a result
		}
		for _, t := range texts {
			h.readResultText(t, search)
		}
	}
	names = make([]string, 0, len(h.names))
	bad := 0
	for _, n := range slices.Sorted(maps.Keys(h.names)) {
		if err := checkName(n); err != nil {
			if bad++; bad <= maxSkippedNames {
				skipped = append(skipped, wrapf(err, "history names %q", text.Echo(n)))
			}
			continue
		}
		names = append(names, n)
	}
	if bad > maxSkippedNames {
		skipped = append(skipped, wrapf(ErrInvalidName, "history names %d more invalid names", bad-maxSkippedNames))
	}
	return names, skipped, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "an object"
}

// historyScan collects the calls and tool results of a history.
type historyScan struct {
	calls   map[string]callKinds // id of every call → the kinds of the calls with that id
	results []toolResult
	names   map[string]bool
}

// callKinds says which kinds of call a tool-call id was given to.
type callKinds uint8

const (
	callSearch callKinds = 1 << iota // a ToolSearch call
	callOther                        // a call of any other tool
)

// call records a call of tool name with id.
func (h *historyScan) call(id, name string) {
	if name == ToolSearchName {
		h.calls[id] |= callSearch
	} else {
		h.calls[id] |= callOther
	}
}

type toolResult struct {
	id      string
	content any
	isError bool
	refs    bool // an Anthropic tool_result, whose content may hold tool_reference blocks
}

// visit reads one message, item or content block.
func (h *historyScan) visit(v any) {
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			h.visit(x)
		}
	case map[string]any:
		h.visitObject(v)
	}
}

func (h *historyScan) visitObject(m map[string]any) {
	str := func(k string) string { s, _ := m[k].(string); return s }
	switch str("type") {
	case "tool_use", "server_tool_use": // Anthropic call
		h.call(str("id"), str("name"))
		return
	case "function_call": // Responses call
		h.call(str("call_id"), str("name"))
		return
	case "tool_result": // Anthropic result
		isErr, _ := m["is_error"].(bool)
		h.results = append(h.results, toolResult{str("tool_use_id"), m["content"], isErr, true})
		return
	case "tool_search_tool_result": // Anthropic server-side tool search
		if c, ok := m["content"].(map[string]any); ok {
			h.references(c["tool_references"])
		}
		return
	case "function_call_output": // Responses result
		h.results = append(h.results, toolResult{id: str("call_id"), content: m["output"]})
		return
	}
	if f, ok := m["function"].(map[string]any); ok { // Chat tool call
		name, _ := f["name"].(string)
		h.call(str("id"), name)
		return
	}
	if str("role") == "tool" { // Chat result
		h.results = append(h.results, toolResult{id: str("tool_call_id"), content: m["content"]})
		return
	}
	h.visit(m["content"])
	h.visit(m["tool_calls"])
}

// references records the tool_reference blocks of v, a list of content
// blocks (blocks nested deeper are not read).
func (h *historyScan) references(v any) {
	blocks, _ := v.([]any)
	for _, b := range blocks {
		m, _ := b.(map[string]any)
		if t, _ := m["type"].(string); t == "tool_reference" {
			if n, ok := m["tool_name"].(string); ok {
				h.names[n] = true
			}
		}
	}
}

// contentTexts returns the texts of a tool result's content: a string, or
// the "text" of each block of an array.
func contentTexts(c any) []string {
	switch c := c.(type) {
	case string:
		return []string{c}
	case []any:
		var out []string
		for _, b := range c {
			if m, ok := b.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					out = append(out, t)
				}
			}
		}
		return out
	}
	return nil
}

// inlineResult is the part of an inline ToolSearch result that names
// tools.
type inlineResult struct {
	Matches *[]struct {
		Name string `json:"name"`
	} `json:"matches"`
	Query *string `json:"query"`
	Total *int    `json:"total_deferred_tools"`
}

// readResultText records the tools named in the text of a tool result.
// search says the result answers a known ToolSearch call; otherwise only
// a complete inline result counts, with nothing after it.
func (h *historyScan) readResultText(t string, search bool) {
	t = strings.TrimSpace(t)
	if strings.HasPrefix(t, "{") {
		var r inlineResult
		d := json.NewDecoder(strings.NewReader(t))
		ok := d.Decode(&r) == nil && r.Matches != nil
		if !search { // the whole text is the result, and a complete one
			ok = ok && d.InputOffset() == int64(len(t)) && r.Query != nil && r.Total != nil
		}
		if ok {
			for _, m := range *r.Matches {
				h.names[m.Name] = true
			}
		}
		return
	}
	if !search {
		return
	}
	h.readFunctions(t)
}

// readFunctions records the tools of a functions rendering: the
// <function> lines of the <functions> block that t starts with, up to its
// first "</functions>" line. Nothing before or after the block is read
// (the texts after it are the result's notes), and neither is a line of
// the block that is not one whole <function>{…}</function> element.
func (h *historyScan) readFunctions(t string) {
	const open, close = "<function>", "</function>"
	rest, ok := strings.CutPrefix(t, "<functions>\n")
	if !ok {
		return
	}
	for line := range strings.Lines(rest) {
		line = strings.TrimSuffix(line, "\n")
		if line == "</functions>" {
			return
		}
		body, ok := strings.CutPrefix(line, open)
		if !ok {
			continue
		}
		if body, ok = strings.CutSuffix(body, close); !ok {
			continue
		}
		var f struct {
			Name string `json:"name"`
		}
		if json.Unmarshal([]byte(body), &f) == nil && f.Name != "" {
			h.names[f.Name] = true
		}
	}
}
