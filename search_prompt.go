package toolsearch

import (
	"encoding/json"
	"slices"
)

// What a Searcher puts in the prompt: the ToolSearch tool's definition,
// from its strategy's input (StrategyInput, resolved here), and the
// listing of the deferred tools it sees.

// ToolDefinition is a tool as sent to a model: the shape of the Anthropic
// Messages API's tools entries. DeferLoading marks a deferred tool for
// providers that expand tool references themselves.
type ToolDefinition struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"input_schema"`
	DeferLoading bool            `json:"defer_loading,omitempty"`
}

// toolSearchInput is a StrategyInput with the defaults filled in.
type toolSearchInput struct {
	field, description string
	schema             json.RawMessage
	schemaIsDefault    bool   // a default schema for "query": one compiled validator for all
	cc332Schema        bool   // ClaudeCode2_1_332's (its validator is cc332InputValidator)
	usage              string // the expected input, for error texts
	pattern            bool
	maxTerms           int  // the term budget (StrategyInput.MaxTerms)
	eager              bool // StrategyInput.Eager
	claude             bool // the default strategy's: rankings equal to Claude Code's
}

// resolveInput fills in the defaults of a strategy's input: the
// description and schema of profile p (for model m) when the strategy
// gives none.
func resolveInput(in StrategyInput, p Profile, m ModelTraits) toolSearchInput {
	r := toolSearchInput{field: in.Field, description: in.Description, schema: in.Schema, pattern: in.Pattern,
		maxTerms: orDefault(in.MaxTerms, defaultMaxQueryTerms), eager: in.Eager, claude: in.claude}
	if r.field == "" {
		r.field = "query"
	}
	cc332 := p == ClaudeCode2_1_332 && r.field == "query"
	switch {
	case r.description != "":
	case cc332:
		r.description = cc332Description(m)
	default:
		r.description = toolSearchDescription
	}
	switch {
	case len(r.schema) > 0:
	case cc332:
		r.schema = json.RawMessage(cc332InputSchema)
		r.schemaIsDefault, r.cc332Schema = true, true
	default:
		r.schema = json.RawMessage(defaultInputSchema(r.field))
		r.schemaIsDefault = r.field == "query"
	}
	f, _ := json.Marshal(r.field)
	r.usage = `expected {` + string(f) + `: string, "max_results"?: integer ≥ 1}`
	return r
}

// ToolDefinition returns the definition of the ToolSearch tool, to send to
// the model with the tools that are not deferred. Its description and input
// schema are those of the Searcher's strategy (StrategyInput): with the
// regex strategy the input is {"pattern", "max_results"} and the
// description explains patterns.
func (s *Searcher) ToolDefinition() ToolDefinition {
	return ToolDefinition{
		Name:        ToolSearchName,
		Description: s.input.description,
		InputSchema: slices.Clone(s.input.schema),
	}
}

// callToolDefinition returns the definition of the CallTool bridge.
func callToolDefinition() ToolDefinition {
	return ToolDefinition{
		Name:        CallToolName,
		Description: callToolDescription,
		InputSchema: json.RawMessage(callToolSchema),
	}
}

// promptTexts returns the prompt texts of the Searcher's view of snap: the
// snapshot's own for an unscoped Searcher, else the Searcher's.
func (s *Searcher) promptTexts(snap *snapshot) *promptTexts {
	if s.opts.Scope == nil {
		return snap.texts.get(snap, func(snap *snapshot, _ *promptTexts) *promptTexts { return renderTexts(snap, everything) })
	}
	return s.texts.get(snap, func(snap *snapshot, _ *promptTexts) *promptTexts { return renderTexts(snap, s.in) })
}

// SystemPromptSection returns the system-prompt text that lists the
// deferred tools the Searcher sees: a header line, then the names sorted
// and comma-separated; "" when there is none. It is byte-identical for the
// same deferred set whatever the registration order, and rendered once per
// registry change.
//
// With MaxListingBytes it is in its compact form when longer than that.
func (s *Searcher) SystemPromptSection() string { return s.section(s.reg.load()) }
