package toolsearch

import (
	"encoding/json"
	"slices"
)

// What a Session of ClaudeCode2_1_332 sends beyond the default profile:
// the announcements as Claude Code 2.1.332 words them, the
// DeferredToolPlaceholder tool, and MCP descriptions cut as it cuts them.

// announcement332 returns the announcement of the names added and removed
// (both sorted): Claude Code 2.1.332's paragraphs, as one <system-reminder>
// user text, or as a paragraph of a system message (system set) for a
// model that takes system messages; "" when both lists are empty. The
// first announcement of a conversation is already such a delta, of every
// deferred name. With a budget (SearchOptions.MaxListingBytes) over
// which the text would be, it is in its compact form (compactDelta332),
// the <system-reminder> lines counted in the budget.
func announcement332(added, removed []string, m ModelTraits, budget int) (text string, system bool) {
	if budget > 0 && !m.SystemMessages {
		budget = max(budget-len(cc332Reminder("")), 1)
	}
	text = compactDelta332(added, removed, budget)
	switch {
	case text == "":
		return "", false
	case m.SystemMessages:
		return text, true
	}
	return cc332Reminder(text), false
}

// placeholderDefinition returns the DeferredToolPlaceholder tool.
func placeholderDefinition() ToolDefinition {
	return ToolDefinition{Name: placeholderName, Description: placeholderDescription,
		InputSchema: json.RawMessage(placeholderSchema), DeferLoading: true}
}

// withPlaceholder inserts the DeferredToolPlaceholder tool before the last
// tool of defs, where Claude Code 2.1.332 puts it (alone, when defs is
// empty).
func withPlaceholder(defs []ToolDefinition) []ToolDefinition {
	at := max(len(defs)-1, 0)
	return slices.Insert(defs, at, placeholderDefinition())
}

// sentDescription332 returns the description Claude Code 2.1.332 sends
// for e in a request's tools: an MCP tool's cut at 16,384 UTF-16 code
// units when ToolSearch loaded it (discovered), else at 4,096.
func sentDescription332(e *entry, discovered bool) string {
	if discovered {
		return cutMCPDescription(e, maxLoadedDescription)
	}
	return cutMCPDescription(e, maxSearchText)
}
