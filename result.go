package toolsearch

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Result is the answer to one ToolSearch query. Its JSON form is the inline
// rendering (see JSON). The slices are the caller's; a match's Schema is
// shared with the registry and must not be changed.
type Result struct {
	// Matches are the tools found, best first. Never nil.
	Matches []Match `json:"matches"`
	// Query is the query as given, each byte of invalid UTF-8 replaced by
	// U+FFFD (as a JSON decoder reads it).
	Query string `json:"query"`
	// TotalDeferredTools is the number of deferred tools searched.
	TotalDeferredTools int `json:"total_deferred_tools"`
	// PendingMCPServers are the servers still connecting, sorted.
	PendingMCPServers []string `json:"pending_mcp_servers,omitempty"`
	// NotFound are the names of a select: query that match no tool, in
	// request order.
	NotFound []string `json:"not_found,omitempty"`
	// Suggestions maps each name in NotFound that has close tool names to
	// up to three of them, closest first.
	Suggestions map[string][]string `json:"suggestions,omitempty"`
	// Notes say what a limit, a failure or the strategy changed or left
	// out (a lowered max_results, select: names not looked up, a tool whose
	// schema could not be loaded or did not fit in MaxResultSchemaBytes),
	// naming the tools.
	//
	// With ClaudeCode2_1_332 the last note may name the tools that the
	// query names and that are not deferred, so already in the model's
	// tool list, as Claude Code 2.1.332 does: "Already available in this
	// conversation: X. Call it directly." (the tools that the whole query,
	// its terms joined by '_', or a term holding a '_' name, by name, alias
	// or bare MCP tool name, when no tool has the query as its name). With
	// tool references it is sent in a <system-reminder> block, as Claude
	// Code sends it.
	Notes []string `json:"notes,omitempty"`
	// Form is the query form that answered (see the package
	// documentation, Query forms).
	Form Form `json:"-"`

	// cc holds what ClaudeCode2_1_332 writes differently; nil for the
	// default profile (one pointer, so that a Result stays small).
	cc *cc332Result
}

// cc332Result is what a Result of ClaudeCode2_1_332 carries for its texts.
type cc332Result struct {
	model        ModelTraits
	available    []string // the tools the query names that are loaded already (the last note names them)
	disconnected []string // the servers whose tools are gone, sorted, for the no-match text
}

// Form is the query form that answered a ToolSearch query. Its text form
// (String, MarshalText, UnmarshalText) is "ranked", "select", "exact" or
// "prefix".
type Form uint8

// The query forms.
const (
	// FormRanked is the strategy's ranking, whatever the strategy; also
	// the form of a query with nothing to rank.
	FormRanked Form = iota
	// FormSelect is select:A,B.
	FormSelect
	// FormExact is a query that is a tool's name.
	FormExact
	// FormPrefix is an MCP prefix: mcp__server.
	FormPrefix
)

// formNames are the text forms of the query forms, by value.
var formNames = [...]string{"ranked", "select", "exact", "prefix"}

// String returns "ranked", "select", "exact" or "prefix", and "Form(N)"
// for a value that is none of them.
func (f Form) String() string { return enumString(f, formNames[:], "Form") }

// MarshalText returns the String form.
func (f Form) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads "ranked", "select", "exact" or "prefix". Another
// text is an error wrapping ErrInvalidOption.
func (f *Form) UnmarshalText(text []byte) error {
	v, err := enumParse[Form](text, formNames[:], "query form")
	if err == nil {
		*f = v
	}
	return err
}

// Match is one tool in a Result.
type Match struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	// Deferred reports whether the tool is deferred (a select: query may
	// return tools that are not).
	Deferred bool `json:"-"`
	// Score is the strategy's score for the ranked form (0 for the other
	// forms). The default strategy's scores are whole numbers.
	Score float64 `json:"-"`
	// Rules are the rules that fired for at least one term.
	Rules Rule `json:"-"`

	// src is the tool the Searcher made the match of: Result.JSON copies
	// the name and description as the tool keeps them encoded, and the
	// schema when the tool knows it needs no escaping, while they are the
	// tool's own.
	src *entry
}

// Format is a rendering of a Result for the model. Its text form (String,
// MarshalText, UnmarshalText) is "inline", "tool_reference" or "functions".
type Format uint8

// The renderings of a Result.
const (
	// FormatInline is the Result as JSON, schemas included: works with any
	// provider.
	FormatInline Format = iota
	// FormatToolReference is Anthropic's tool_reference content blocks,
	// with the notes as text blocks beside them and "Tool loaded." as a
	// text block after the tool_result (see Result.Content); the
	// referenced tools must be in the request's tools with defer_loading
	// set.
	FormatToolReference
	// FormatFunctions is a <functions> block with one <function> line per
	// match, the encoding models see for tool lists.
	FormatFunctions
)

// String returns "inline", "tool_reference" or "functions".
func (f Format) String() string {
	switch f {
	case FormatInline:
		return "inline"
	case FormatToolReference:
		return "tool_reference"
	case FormatFunctions:
		return "functions"
	}
	return "Format(" + fmt.Sprint(uint8(f)) + ")"
}

// MarshalText returns the String form.
func (f Format) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads "inline" (or "json"), "tool_reference" (or
// "anthropic") or "functions". Another text is an error wrapping
// ErrInvalidOption.
func (f *Format) UnmarshalText(text []byte) error {
	switch string(text) {
	case "inline", "json":
		*f = FormatInline
	case "tool_reference", "anthropic":
		*f = FormatToolReference
	case "functions":
		*f = FormatFunctions
	default:
		return errorf(ErrInvalidOption, "unknown format %q (want inline, tool_reference or functions)", text)
	}
	return nil
}

// ContentBlock is one block of a tool result's content, or of the text
// that follows it: a text block or an Anthropic tool_reference block.
type ContentBlock struct {
	Type     string `json:"type"` // "text" or "tool_reference"
	ToolName string `json:"tool_name,omitempty"`
	Text     string `json:"text,omitempty"`
}

// JSON returns the inline rendering: the Result as compact JSON, the
// bytes json.Marshal gives.
func (r *Result) JSON() []byte {
	n := 64 + len(r.Query) + len(r.Query)/8
	for i := range r.Matches {
		m := &r.Matches[i]
		n += 48 + len(m.Schema)
		var l *lazyData
		if m.src != nil {
			l = m.src.lazyData.Load()
		}
		if l != nil && l.descJSON != nil {
			n += len(l.nameJSON) + len(l.descJSON)
		} else {
			n += len(m.Name) + len(m.Description) + len(m.Description)/8
		}
	}
	for _, l := range [][]string{r.PendingMCPServers, r.NotFound, r.Notes} {
		for _, s := range l {
			n += 3 + len(s) + len(s)/8
		}
	}
	if b, ok := r.appendJSON(make([]byte, 0, n)); ok {
		return b
	}
	b, err := json.Marshal(r)
	if err != nil { // every field is plain data and schemas are valid JSON
		panic("toolsearch: encoding a Result: " + err.Error())
	}
	return b
}

// Content returns the result rendered in format f, the one way to answer a
// ToolSearch call: content is the tool result's content, and after are the
// text blocks to send after the tool result, in the same user message.
//
//   - FormatInline: content is one text block, the JSON; after is nil.
//   - FormatToolReference: content is one tool_reference block per match
//     (without matches, one text block, "No matching deferred tools found",
//     naming the pending MCP servers, if any), then one text block for the
//     names not found (with suggestions) and one per note; after is a
//     "Tool loaded." text block when there are matches, else nil.
//   - FormatFunctions: content is one text block,
//     "<functions>\n<function>{…}</function>\n…</functions>", each function
//     {"description", "name", "parameters"} (JSON escapes '<' and '>', so
//     no description can close the block), or the no-match text; the
//     not-found and note texts follow on lines of their own, with '<', '>'
//     and '&' written &lt;, &gt; and &amp;, so that no text after the
//     block can open another. after is nil.
//
// What the model wrote reaches it only inside the tool result: the query
// in the inline rendering's JSON, the names not found and the words a
// note repeats (names not looked up, terms left out) quoted as JSON
// strings ("x\u003c…"), cut to their first 128 bytes. The texts after a
// tool result are the package's fixed words ("Tool loaded."), so nothing
// a model or a server wrote is sent as text of the user's turn.
//
// The Anthropic user message that answers an assistant turn holds every
// tool_result block first (the API wants them before any text), then the
// after blocks of each ToolSearch result, each text once: with two
// ToolSearch calls, "Tool loaded." is sent once. Package tsanthropic builds
// it so; Claude Code sends the same shape.
func (r *Result) Content(f Format) (content, after []ContentBlock) {
	switch f {
	case FormatToolReference:
		return r.toolReferences()
	case FormatFunctions:
		return []ContentBlock{{Type: "text", Text: r.functions()}}, nil
	}
	return []ContentBlock{{Type: "text", Text: string(r.JSON())}}, nil
}

// extraTexts returns the not-found and note texts, in that order.
func (r *Result) extraTexts() []string {
	var out []string
	if t := notFoundText(r.NotFound, r.Suggestions); t != "" {
		out = append(out, t)
	}
	return append(out, r.Notes...)
}

// noMatch returns the text of a result without matches.
func (r *Result) noMatch() string {
	if r.cc != nil {
		return cc332NoMatch(r.PendingMCPServers, r.cc.disconnected)
	}
	return noMatchText(r.PendingMCPServers)
}

// toolLoaded reports whether "Tool loaded." follows a tool-reference
// result with matches.
func (r *Result) toolLoaded() bool {
	return r.cc == nil || toolLoadedSent(ClaudeCode2_1_332, r.cc.model)
}

// toolReferences returns the Anthropic rendering: the references (or the
// no-match text), then the not-found and note texts, inside the tool
// result; "Tool loaded." after it, and with ClaudeCode2_1_332 its note on
// the tools already available, in a <system-reminder> block, as Claude
// Code sends it.
func (r *Result) toolReferences() (content, after []ContentBlock) {
	extra := r.extraTexts()
	var reminder string
	if r.cc != nil && len(r.cc.available) > 0 && len(r.Notes) > 0 {
		// Claude Code 2.1.332 sends its note on the tools already
		// available as a <system-reminder> after the tool result; the
		// note names tools of the catalog, never the model's words.
		reminder = cc332Reminder(extra[len(extra)-1])
		extra = extra[:len(extra)-1]
	}
	if len(r.Matches) == 0 {
		content = make([]ContentBlock, 0, 1+len(extra))
		content = append(content, ContentBlock{Type: "text", Text: r.noMatch()})
	} else {
		content = make([]ContentBlock, 0, len(r.Matches)+len(extra))
		for _, m := range r.Matches {
			content = append(content, ContentBlock{Type: "tool_reference", ToolName: m.Name})
		}
		if r.toolLoaded() {
			after = append(after, ContentBlock{Type: "text", Text: toolLoaded})
		}
	}
	for _, t := range extra { // inside the tool result: they may quote the model or a server
		content = append(content, ContentBlock{Type: "text", Text: t})
	}
	if reminder != "" {
		after = append(after, ContentBlock{Type: "text", Text: reminder})
	}
	return content, after
}

// functionJSON is one tool in the functions rendering; the fields are in the
// order models see them.
type functionJSON struct {
	Description string          `json:"description"`
	Name        string          `json:"name"`
	Parameters  json.RawMessage `json:"parameters"`
}

// functions returns the functions rendering.
func (r *Result) functions() string {
	var b strings.Builder
	if len(r.Matches) == 0 {
		b.WriteString(r.noMatch())
	} else {
		b.WriteString("<functions>\n")
		for _, m := range r.Matches {
			j, err := json.Marshal(functionJSON{m.Description, m.Name, m.Schema})
			if err != nil {
				panic("toolsearch: encoding a function: " + err.Error())
			}
			b.WriteString("<function>")
			b.Write(j)
			b.WriteString("</function>\n")
		}
		b.WriteString("</functions>")
	}
	for _, t := range r.extraTexts() {
		b.WriteString("\n")
		markupEscaper.WriteString(&b, t)
	}
	return b.String()
}

// markupEscaper writes the texts after a <functions> block, so that none
// can open or close an element (a note may quote a server's error).
var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
