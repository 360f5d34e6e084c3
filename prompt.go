package toolsearch

import (
	"encoding/json"
	"slices"
	"strings"
)

// ToolDefinition is a tool as sent to a model: the shape of the Anthropic
// Messages API's tools entries. DeferLoading marks a deferred tool for
// providers that expand tool references themselves.
type ToolDefinition struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"input_schema"`
	DeferLoading bool            `json:"defer_loading,omitempty"`
}

// toolSearchDescription is the ToolSearch tool's description. It is part of
// every prompt, so it is short.
const toolSearchDescription = `Fetches the full definitions of deferred tools so that you can call them. Deferred tools are listed by name only; their schemas are not loaded, so you cannot call one until this tool has returned it.

Query forms:
- "select:Read,WebFetch" — load these tools by exact name
- "notebook jupyter" — keyword search, best max_results matches (default 5)
- "+slack send" — "+" makes a word required; the others rank the results`

// toolSearchSchema is the ToolSearch input schema.
const toolSearchSchema = `{"type":"object","properties":{"query":{"type":"string","description":"select:Name1,Name2 for exact names, or keywords (prefix a word with + to require it)"},"max_results":{"type":"integer","minimum":1,"description":"Maximum number of keyword matches (default 5)"}},"required":["query"],"additionalProperties":false}`

// toolSearchRegexDescription is the ToolSearch description with the regex
// strategy.
const toolSearchRegexDescription = `Fetches the full definitions of deferred tools so that you can call them. Deferred tools are listed by name only; their schemas are not loaded, so you cannot call one until this tool has returned it.

The pattern is a regular expression (RE2 syntax, case-insensitive, at most 200 characters) matched against tool names, descriptions and argument names and descriptions; the best max_results matches are returned (default 5). Examples:
- "slack" — tools that mention slack
- "(create|open).*issue" — creating or opening issues
- "select:Read,WebFetch" — load these tools by exact name
Escape special characters such as ( ) [ ] . * + ? with a backslash.`

// toolSearchRegexSchema is the ToolSearch input schema with the regex
// strategy.
const toolSearchRegexSchema = `{"type":"object","properties":{"pattern":{"type":"string","description":"RE2 regular expression, case-insensitive, at most 200 characters; or select:Name1,Name2 for exact names"},"max_results":{"type":"integer","minimum":1,"description":"Maximum number of matches (default 5)"}},"required":["pattern"],"additionalProperties":false}`

// ToolDefinition returns the definition of the ToolSearch tool, to send to
// the model with the tools that are not deferred. It follows the Searcher's
// strategy: with the regex strategy the input is {"pattern", "max_results"}
// and the description explains patterns.
func (s *Searcher) ToolDefinition() ToolDefinition {
	desc, schema := s.toolSearchInput()
	return ToolDefinition{
		Name:        ToolSearchName,
		Description: desc,
		InputSchema: json.RawMessage(schema),
	}
}

// toolSearchInput returns the ToolSearch description and input schema for
// the Searcher's strategy.
func (s *Searcher) toolSearchInput() (description, schema string) {
	if _, ok := s.opts.Strategy.(regexStrategy); ok {
		return toolSearchRegexDescription, toolSearchRegexSchema
	}
	return toolSearchDescription, toolSearchSchema
}

// Headers of the texts that tell the model what is deferred.
const (
	sectionHeader = "The following deferred tools are available via ToolSearch:"
	blockOpen     = "<available-deferred-tools>"
	blockClose    = "</available-deferred-tools>"
	deltaAdded    = "The following deferred tools are now available via ToolSearch:"
	deltaRemoved  = "The following deferred tools are no longer available (their MCP server disconnected). Do not search for them — ToolSearch will return no match:"
)

// SystemPromptSection returns the system-prompt text that lists the
// deferred tools: a header line, then the names sorted and comma-separated.
// It is "" when no tool is deferred. The text is byte-identical for the same
// deferred set whatever the registration order, and is rendered once per
// registry change.
func (s *Searcher) SystemPromptSection() string { return s.texts(s.reg.load()).section }

// DeferredToolsBlock returns the deferred tools as an
// <available-deferred-tools> block, one name a line, sorted; "" when no tool
// is deferred. Byte-identical for the same deferred set.
func (s *Searcher) DeferredToolsBlock() string { return s.texts(s.reg.load()).block }

// DeferredNames returns the names of the deferred tools, sorted. The slice
// is the caller's.
func (s *Searcher) DeferredNames() []string { return slices.Clone(s.texts(s.reg.load()).names) }

func renderSection(names []string) string {
	if len(names) == 0 {
		return ""
	}
	n := len(sectionHeader) + 1
	for _, name := range names {
		n += len(name) + 2
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(sectionHeader)
	b.WriteByte('\n')
	for i, name := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name)
	}
	return b.String()
}

func renderBlock(names []string) string {
	if len(names) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(blockOpen)
	b.WriteByte('\n')
	for _, name := range names {
		b.WriteString(name)
		b.WriteByte('\n')
	}
	b.WriteString(blockClose)
	return b.String()
}

// DeltaText returns the announcement of a change to the deferred set: the
// names that became available and those that went away (their server
// disconnected), each list sorted, one name a line. It is "" when both are
// empty.
func DeltaText(added, removed []string) string {
	var b strings.Builder
	write := func(header string, names []string) {
		if len(names) == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(header)
		for _, n := range sortedCopy(names) {
			b.WriteByte('\n')
			b.WriteString(n)
		}
	}
	write(deltaAdded, added)
	write(deltaRemoved, removed)
	return b.String()
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return slices.Compact(c)
}
