package toolsearch

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolsearch/toolsearch/internal/text"
)

// This file holds the wording of every text the model reads that the
// package writes: the ToolSearch and CallTool descriptions and schemas,
// the headers of the lists of deferred tools (snapshot_listing.go renders
// them), the texts of results (no match, names not found, "Tool loaded.",
// notes) and the refusals. Each is fixed wording around names and numbers,
// so a prompt is byte-identical for the same registry.

// toolSearchDescription is the ToolSearch tool's default description. It is
// part of every prompt, so it is short.
const toolSearchDescription = `Fetches the full definitions of deferred tools so that you can call them. Deferred tools are listed by name only; their schemas are not loaded, so you cannot call one until this tool has returned it.

Query forms:
- "select:Read,WebFetch" — load these tools by exact name
- "notebook jupyter" — keyword search, best max_results matches (default 5)
- "+slack send" — "+" makes a word required; the others rank the results`

// defaultInputSchema returns the default ToolSearch input schema, reading
// the query from field.
func defaultInputSchema(field string) string {
	f, _ := json.Marshal(field)
	return `{"type":"object","properties":{` + string(f) + `:{"type":"string","description":"select:Name1,Name2 for exact names, or keywords (prefix a word with + to require it)"},"max_results":{"type":"integer","minimum":1,"description":"Maximum number of keyword matches (default 5)"}},"required":[` + string(f) + `],"additionalProperties":false}`
}

// regexDescription and regexSchema are the ToolSearch description and
// input schema of the regex strategy.
const (
	regexDescription = `Fetches the full definitions of deferred tools so that you can call them. Deferred tools are listed by name only; their schemas are not loaded, so you cannot call one until this tool has returned it.

The pattern is a regular expression (RE2 syntax, case-insensitive, at most 200 characters) matched against tool names, descriptions and argument names and descriptions; the best max_results matches are returned (default 5). Examples:
- "slack" — tools that mention slack
- "(create|open).*issue" — creating or opening issues
- "select:Read,WebFetch" — load these tools by exact name
Escape special characters such as ( ) [ ] . * + ? with a backslash.`
	regexSchema = `{"type":"object","properties":{"pattern":{"type":"string","description":"RE2 regular expression, case-insensitive, at most 200 characters; or select:Name1,Name2 for exact names"},"max_results":{"type":"integer","minimum":1,"description":"Maximum number of matches (default 5)"}},"required":["pattern"],"additionalProperties":false}`
)

// The CallTool bridge (SessionOptions.CallBridge). Its definition never
// changes, so that a tool list holding it stays byte-identical.
const (
	callToolDescription = `Calls a tool that ToolSearch returned. Tools found with ToolSearch are not added to your tool list: call them through this tool, with "name" set to the tool's exact name and "arguments" to an object that follows the schema ToolSearch returned for it.`
	callToolSchema      = `{"type":"object","properties":{"name":{"type":"string","description":"The exact name of a tool returned by ToolSearch"},"arguments":{"type":"object","description":"The tool's arguments, following its schema"}},"required":["name","arguments"],"additionalProperties":false}`
	bridgeUsage         = `expected {"name": string, "arguments": object}`
)

// The texts that tell the model which tools are deferred: the
// system-prompt section, the <available-deferred-tools> block of a full
// announcement, and the delta of a later one.
const (
	sectionHeader = "The following deferred tools are available via ToolSearch:"
	blockOpen     = "<available-deferred-tools>"
	blockClose    = "</available-deferred-tools>"
	deltaAdded    = "The following deferred tools are now available via ToolSearch:"
	deltaRemoved  = "The following deferred tools are no longer available (their MCP server disconnected). Do not search for them — ToolSearch will return no match:"
	deltaDropped  = "The following deferred tools were removed. Do not search for them — ToolSearch will return no match:"
	deltaLoaded   = "The following tools are no longer deferred: they are in your tool list now, so call them directly:"
)

// goneTools are the deferred tools a delta announcement says went away,
// by the reason it gives.
type goneTools struct {
	removed      []string // no longer registered
	disconnected []string // registered, but their MCP server is not connected
	loaded       []string // registered and available, but no longer deferred
}

// deltaText returns the announcement of a change to the deferred set: the
// names that became available, then those that went away, under the
// sentence of their reason (their server disconnected, removed, no longer
// deferred), each list sorted, one name a line; "" when all are empty.
func deltaText(added []string, gone goneTools) string {
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
	write(deltaRemoved, gone.disconnected)
	write(deltaDropped, gone.removed)
	write(deltaLoaded, gone.loaded)
	return b.String()
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return slices.Compact(c)
}

// The texts of a result.

const toolLoaded = "Tool loaded."

// noMatchText is the text of a result without matches: "No matching
// deferred tools found", plus, when MCP servers are pending, a sentence
// naming them and asking the model to search again.
func noMatchText(pending []string) string {
	const none = "No matching deferred tools found"
	if len(pending) == 0 {
		return none
	}
	return none + ". Some MCP servers are still connecting: " + text.ValidUTF8(strings.Join(pending, ", ")) +
		". Their tools will become available shortly — try searching again."
}

// notFoundText says which select: names matched nothing, each quoted
// (text.Quote: a model's words never read as the package's), with
// suggestions; "" when all were found.
func notFoundText(notFound []string, suggestions map[string][]string) string {
	if len(notFound) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("No tool named ")
	for i, n := range notFound {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(text.Quote(n))
		if s := suggestions[n]; len(s) > 0 {
			b.WriteString(" (did you mean " + strings.Join(s, ", ") + "?)")
		}
	}
	b.WriteByte('.')
	return b.String()
}

// The notes of a result: what a limit or a failure changed or left out.

func maxResultsLowered(asked, limit int) string {
	return "max_results " + strconv.Itoa(asked) + " was lowered to the limit " + strconv.Itoa(limit)
}

func selectCut(names []string, limit int) string {
	return "select: named " + strconv.Itoa(len(names)) + " tools; the limit is " + strconv.Itoa(limit) +
		" a query, so these were not looked up: " + quoteAll(names[limit:]) + ". Ask for them in another query."
}

// quoteAll returns the words of a model, each quoted (text.Quote),
// joined by ", ".
func quoteAll(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = text.Quote(s)
	}
	return strings.Join(q, ", ")
}

func termsCut(n, limit int, left []string) string {
	note := "the query has " + strconv.Itoa(n) + " terms and this search reads at most " + strconv.Itoa(limit) +
		": repeated terms were counted once"
	if len(left) == 0 {
		return note + "."
	}
	return note + ", and these were left out (stop words and the most common words first): " + quoteAll(left) + "."
}

func hybridTermsCut(n, limit int) string {
	return "the query has " + strconv.Itoa(n) + " distinct terms and the hybrid ranking reads at most " + strconv.Itoa(limit) +
		": the terms after the first " + strconv.Itoa(limit) + " (required terms first) were left out."
}

func selectLoose(asked, name string) string {
	return "select: no tool is named " + text.Quote(asked) + "; " + name + " was loaded, the one tool whose name differs from it only in \"_\", \"-\" or \".\" (or case)."
}

func leftOutBudget(name string, size, left, limit int) string {
	return name + " was left out: its schema is " + strconv.Itoa(size) + " bytes and this result has " +
		strconv.Itoa(left) + " of its " + strconv.Itoa(limit) + " schema bytes left. Select it in a query of its own."
}

func emptyQuery() string {
	return "The query is empty. Send keywords (github create issue), a tool's name, or select:Name to load a tool by name."
}

func namesListedFirst() string {
	return "The query names tools: they are listed first, then the other matches."
}

func matchingCut() string {
	return "Matching was cut short: this query needed more text scanned than one search may do (terms with punctuation, or a costly pattern), so some matching tools may be missing. Use fewer or plainer words."
}

func suggestionsCut() string {
	return "Close names were not looked for every name not found: that needed more work than one search may do."
}

func leftOutUnloaded(name string, err error) string { return name + " was left out: " + modelText(err) }

// modelText returns the text of err, an error of the package or of a
// user's LoadSchema (which may quote an MCP server), for the model
// (ModelText), cut to a few hundred bytes of valid UTF-8.
func modelText(err error) string { return text.Clip(ModelText(err)) }

// The refusals of ToolSearch input. invalidQuery puts invalidInputPrefix
// before each.

func argsNotJSON(err error, usage string) string {
	return "arguments are not valid JSON (" + err.Error() + "); " + usage
}

func argsTooLong(n, limit int) string {
	return "the arguments are " + strconv.Itoa(n) + " bytes long, the limit is " + strconv.Itoa(limit)
}

func argsTrailing(usage string) string {
	return "arguments hold more than one JSON value, or text after it; " + usage
}

func argsBadNumber(err error, usage string) string {
	return "arguments: " + err.Error() + "; " + usage
}

func argsNoQuery(field, usage string) string { return field + " must be a string; " + usage }

func argsBadMaxResults(usage string) string { return "max_results must be an integer ≥ 1; " + usage }

func badMaxResults(n int) string {
	return "max_results must be an integer ≥ 1, got " + strconv.Itoa(n)
}

func queryTooLong(n, limit int) string {
	return "the query is " + strconv.Itoa(n) + " bytes long, the limit is " + strconv.Itoa(limit)
}

func patternTooLong(n, limit int) string {
	return fmt.Sprintf("the pattern is %d characters long; the limit is %d: use a shorter pattern, for example a few alternatives like \"slack|message\"", n, limit)
}

func patternTooCostly(n, limit int) string {
	return "the pattern is too costly to match: its program has " + strconv.Itoa(n) + " instructions, the limit is " + strconv.Itoa(limit) + ". Use smaller repeat counts ({n,m}) or fewer alternatives"
}

func patternInvalid(why string) string {
	return "the pattern is not a valid RE2 regular expression (" + why + "): escape special characters such as ( ) [ ] . * + ? with a backslash"
}

// The refusals of the call guard (Session.CheckCall).

func refuseToolSearch() string {
	return "ToolSearch is not run as an application tool: its calls are answered by the tool search."
}

func refuseUnavailable(name, server string, pending bool) string {
	why := "is disconnected"
	if pending {
		why = "is still connecting; try again shortly"
	}
	return "Tool " + name + " is not available: its MCP server " + text.ValidUTF8(server) + " " + why + "."
}

func refuseUnknown(name string, suggestions []string) string {
	msg := "No tool named " + text.Echo(name) + " is available."
	if len(suggestions) > 0 {
		msg += " Did you mean " + strings.Join(suggestions, ", ") + "?"
	}
	return msg
}

func refuseNameTooLong(name string) string {
	return "No tool named " + text.Echo(name) + " is available: tool names are at most " + strconv.Itoa(maxNameLength) + " bytes."
}

func refuseNoSchema(name string, err error) string {
	return "Tool " + name + " cannot be called: " + modelText(err) + "."
}

func refuseArgsNotJSON(name string, err error) string {
	return "The arguments for " + name + " are not valid JSON: " + err.Error() + "."
}

func refuseArgsDuplicate(name, why string) string {
	return "The arguments for " + name + " give a key twice: " + why + ". Send each key once, with the one value you mean."
}

func refuseArgsNotLoaded(name, why string) string {
	return "The arguments for " + name + " do not match its schema (" + why + "). This tool's schema was not loaded: call ToolSearch with select:" + name + ", then retry."
}

func refuseArgsBounds(name string, err error) string {
	return "The arguments for " + name + " cannot be checked: " + err.Error() + "."
}

func refuseArgsTooLong(name string, n, limit int) string {
	return "The arguments for " + name + " are " + strconv.Itoa(n) + " bytes long; the limit is " + strconv.Itoa(limit) + " bytes. Send less, or split the work into several calls."
}

func refuseArgsWork(name string) string {
	return "The arguments for " + name + " cannot be checked: validating them against the tool's schema would take too long (long strings checked against its patterns or formats, or too many values). Send smaller arguments."
}

func refuseArgs(name, why string) string {
	return "The arguments for " + name + " do not match its schema: " + why + "."
}

func refuseBridgeNotJSON(err error) string {
	return "The arguments for " + CallToolName + " are not valid JSON: " + err.Error() + "; " + bridgeUsage + "."
}

func refuseBridgeArgs(why string) string {
	return "The arguments for " + CallToolName + " do not match its schema: " + why + "; " + bridgeUsage + "."
}

func refuseBridgeSelf() string { return CallToolName + " cannot call itself." }

func refuseBridgeToolSearch() string {
	return ToolSearchName + " is in your tool list: call it directly, not through " + CallToolName + "."
}
