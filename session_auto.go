package toolsearch

import (
	"strconv"
	"strings"
	"unicode/utf16"
)

// ToolSearchMode says when a Session defers tools and offers ToolSearch.
// Its value is the threshold of auto mode, in percent of the context
// window: the deferred tools are deferred when their definitions would
// cost at least that share of it. 0 (ModeAlways, the zero value) means
// always, 100 (ModeNever) means never, and 1 to 99 mean auto at that
// percentage (ModeAuto is 10).
//
// Its text form (String, MarshalText, UnmarshalText) is the
// ENABLE_TOOL_SEARCH switch: "true", "false", "auto" (10%) or "auto:N".
type ToolSearchMode int

// The usual modes.
const (
	// ModeAlways defers the tools that are deferred (see Tool.Deferred)
	// and offers ToolSearch whenever one is, or an MCP server is pending.
	ModeAlways ToolSearchMode = 0
	// ModeAuto defers only when the deferred tools' definitions would cost
	// at least 10% of the context window.
	ModeAuto ToolSearchMode = 10
	// ModeNever defers nothing: every tool in scope is sent in full and
	// ToolSearch is not offered.
	ModeNever ToolSearchMode = 100
)

// autoTokenOverhead is subtracted from a token count before it is compared
// with the threshold: the fixed cost a token-counting request carries
// besides the tool definitions.
const autoTokenOverhead = 500

// String returns the mode as UnmarshalText reads it: "true" (0 or less),
// "false" (100 or more), "auto" (10) or "auto:N".
func (m ToolSearchMode) String() string {
	switch {
	case m <= ModeAlways:
		return "true"
	case m >= ModeNever:
		return "false"
	case m == ModeAuto:
		return "auto"
	}
	return "auto:" + strconv.Itoa(int(m))
}

// MarshalText returns the String form.
func (m ToolSearchMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads an ENABLE_TOOL_SEARCH-style switch: "true" (always),
// "false" (never), "auto" (ModeAuto) or "auto:N" with N an integer from 0
// to 100 ("auto:0" is always, "auto:100" is never). Case and surrounding
// whitespace are ignored; "" is always. Anything else is an error wrapping
// ErrInvalidOption and naming the text.
func (m *ToolSearchMode) UnmarshalText(text []byte) error {
	v := strings.ToLower(strings.TrimSpace(string(text)))
	switch v {
	case "", "true":
		*m = ModeAlways
		return nil
	case "false":
		*m = ModeNever
		return nil
	case "auto":
		*m = ModeAuto
		return nil
	}
	rest, ok := strings.CutPrefix(v, "auto:")
	if !ok {
		return errorf(ErrInvalidOption, "unknown tool search mode %q (want true, false, auto or auto:N)", text)
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 || n > 100 || rest != strconv.Itoa(n) {
		return errorf(ErrInvalidOption, "tool search mode %q: the percentage must be an integer from 0 to 100", text)
	}
	*m = ToolSearchMode(n)
	return nil
}

// autoOn decides an auto mode for snap: the deferred tools in scope are
// measured with CountTokens (or in characters) once per snapshot. Without
// CountTokens, the characters of the snapshot measured before are patched
// with the tools changed since (the registry's change log), so that a
// one-tool change costs that tool, not the deferred tools.
func (s *Session) autoOn(snap *snapshot) bool {
	return s.auto.get(snap, func(snap *snapshot, prev autoState) autoState {
		threshold := autoThreshold(s.opts.ContextWindow, int(s.opts.Mode))
		if s.opts.CountTokens == nil && prev.snap != nil {
			if changed, ok := snap.log.since(prev.snap.seqOf()); ok {
				chars := prev.chars
				for _, n := range changed {
					chars += s.autoChars(snap.named(n)) - s.autoChars(prev.snap.named(n))
				}
				return autoState{snap: snap, chars: chars, on: autoDefersChars(chars, threshold)}
			}
		}
		var defs []ToolDefinition
		for e := range snap.deferredTools() {
			if s.in(e) {
				defs = append(defs, definition(e, false))
			}
		}
		if s.opts.CountTokens != nil {
			if n, err := s.opts.CountTokens(defs); err == nil {
				return autoState{on: autoDefersTokens(n, threshold)}
			}
		}
		chars := 0
		for i := range defs {
			chars += definitionChars(&defs[i])
		}
		return autoState{snap: snap, chars: chars, on: autoDefersChars(chars, threshold)}
	}).on
}

// autoState is the auto-mode decision for one snapshot and, when it was
// made by counting characters, the count and the snapshot counted.
type autoState struct {
	snap  *snapshot // nil when counted by CountTokens
	chars int
	on    bool
}

// autoChars returns the characters auto mode counts for e: its definition
// when it is a deferred tool in scope, else 0 (and for nil).
func (s *Session) autoChars(e *entry) int {
	if e == nil || !e.deferred || !s.in(e) {
		return 0
	}
	d := definition(e, false)
	return definitionChars(&d)
}

// autoThreshold returns the token threshold of auto mode:
// floor(window × percent / 100).
func autoThreshold(window, percent int) int {
	return window * percent / 100
}

// autoDefersTokens reports whether auto mode defers tools whose
// definitions count tokens tokens: tokens − 500 ≥ threshold.
func autoDefersTokens(tokens, threshold int) bool {
	return tokens-autoTokenOverhead >= threshold
}

// autoDefersChars reports whether auto mode defers tools whose
// definitions are chars characters long, without a token counter:
// chars ≥ floor(2.5 × threshold).
func autoDefersChars(chars, threshold int) bool {
	return chars >= threshold*5/2
}

// definitionChars returns the characters of a tool definition as auto mode
// counts them: name + description + schema JSON, in UTF-16 code units (the
// length JavaScript reports).
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
