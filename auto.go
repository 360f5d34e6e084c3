package toolsearch

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
)

// ModeKind says when a Session defers tools and offers ToolSearch.
type ModeKind uint8

// The kinds of ToolSearchMode.
const (
	// ModeAlways defers the tools that are deferred (see Tool.Deferred)
	// and offers ToolSearch whenever one is, or an MCP server is pending.
	// It is the zero value.
	ModeAlways ModeKind = iota
	// ModeNever defers nothing: every tool in scope is sent in full and
	// ToolSearch is not offered.
	ModeNever
	// ModeAuto defers only when the deferred tools' definitions would cost
	// at least Percent% of the context window (spec §8).
	ModeAuto
)

// Auto-mode defaults and constants.
const (
	// DefaultAutoPercent is the share of the context window, in percent,
	// that the deferred tools must cost for ModeAuto to defer them.
	DefaultAutoPercent = 10
	// DefaultContextWindow is the context window, in tokens, assumed when
	// SessionOptions.ContextWindow is 0.
	DefaultContextWindow = 200_000
	// AutoTokenOverhead is subtracted from a token count before it is
	// compared with the threshold: the fixed cost a token-counting request
	// carries besides the tool definitions.
	AutoTokenOverhead = 500
)

// ToolSearchMode is when to defer tools: always, never, or automatically
// when they are large. Its zero value is ModeAlways. See
// ParseToolSearchMode for the string form.
type ToolSearchMode struct {
	Kind ModeKind
	// Percent is the threshold of ModeAuto, in percent of the context
	// window. 0 means DefaultAutoPercent; 100 or more means never defer.
	// ParseToolSearchMode turns "auto:0" into ModeAlways.
	Percent int
}

// ParseToolSearchMode parses an ENABLE_TOOL_SEARCH-style switch: "true"
// (always), "false" (never), "auto" (auto at DefaultAutoPercent) or
// "auto:N" with N an integer from 0 to 100 ("auto:0" is always,
// "auto:100" is never). Case and surrounding whitespace are ignored; ""
// gives the zero ToolSearchMode (always). Anything else is an error
// naming the value.
func ParseToolSearchMode(s string) (ToolSearchMode, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	switch v {
	case "", "true":
		return ToolSearchMode{Kind: ModeAlways}, nil
	case "false":
		return ToolSearchMode{Kind: ModeNever}, nil
	case "auto":
		return ToolSearchMode{Kind: ModeAuto, Percent: DefaultAutoPercent}, nil
	}
	if rest, ok := strings.CutPrefix(v, "auto:"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 || n > 100 || rest != strconv.Itoa(n) {
			return ToolSearchMode{}, fmt.Errorf("toolsearch: tool search mode %q: the percentage must be an integer from 0 to 100", s)
		}
		switch n {
		case 0:
			return ToolSearchMode{Kind: ModeAlways}, nil
		case 100:
			return ToolSearchMode{Kind: ModeNever}, nil
		}
		return ToolSearchMode{Kind: ModeAuto, Percent: n}, nil
	}
	return ToolSearchMode{}, fmt.Errorf("toolsearch: unknown tool search mode %q (want true, false, auto or auto:N)", s)
}

// String returns the mode in the form ParseToolSearchMode reads: "true",
// "false", "auto" (at the default percentage) or "auto:N".
func (m ToolSearchMode) String() string {
	switch m.Kind {
	case ModeNever:
		return "false"
	case ModeAuto:
		p := cmp.Or(m.Percent, DefaultAutoPercent)
		if p == DefaultAutoPercent {
			return "auto"
		}
		return "auto:" + strconv.Itoa(p)
	}
	return "true"
}

// autoThreshold returns the token threshold of auto mode:
// floor(window × percent / 100).
func autoThreshold(window, percent int) int {
	return window * percent / 100
}

// autoDefersTokens reports whether auto mode defers tools whose
// definitions count tokens tokens: tokens − AutoTokenOverhead ≥ threshold.
func autoDefersTokens(tokens, threshold int) bool {
	return tokens-AutoTokenOverhead >= threshold
}

// autoDefersChars reports whether auto mode defers tools whose
// definitions are chars characters long, without a token counter:
// chars ≥ floor(2.5 × threshold).
func autoDefersChars(chars, threshold int) bool {
	return chars >= threshold*5/2
}

// definitionChars returns the characters of a tool definition as auto mode
// counts them: name + description + schema JSON, in UTF-16 code units (the
// length JavaScript reports, for parity).
func definitionChars(d *ToolDefinition) int {
	return utf16Len(d.Name) + utf16Len(d.Description) + utf16Len(string(d.InputSchema))
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// autoDecision caches the auto-mode decision for one registry snapshot.
type autoDecision struct {
	snap *snapshot
	on   bool
}
