package toolsearch

// Profile names the Claude Code release whose ToolSearch a Searcher and a
// Session follow: how they rank, what select: and an exact name find, how
// a query is shaped, and every text the model reads (the ToolSearch
// definition, the announcements, the result texts). Its text form
// (String, MarshalText, UnmarshalText, ParseProfile) is the release's
// name, "claude-code-2.1.89" or "claude-code-2.1.332". The zero Profile
// is ClaudeCode2_1_89.
//
// Pick ClaudeCode2_1_332 for Claude models driven as Claude Code drives
// them today; ClaudeCode2_1_89 keeps the rankings, texts and golden files
// of the library's first releases. The README's differences table lists,
// per profile, where the library deliberately differs from the release.
type Profile uint8

// The profiles.
const (
	// ClaudeCode2_1_89 follows Claude Code 2.1.89: name parts split from
	// the tool's name, the rules of the package documentation's table
	// (with the joined-parts rule), the <available-deferred-tools> block,
	// "Tool loaded." after every tool-reference result.
	ClaudeCode2_1_89 Profile = iota
	// ClaudeCode2_1_332 follows Claude Code 2.1.332: whole-name scores on
	// top of the name parts, MCP names split from the raw server and tool
	// names, select: by bare MCP tool name, queries cut to 16,384 UTF-16
	// code units and their first 32 terms, the <system-reminder>
	// announcements, the DeferredToolPlaceholder tool and its result
	// texts (see the package documentation).
	ClaudeCode2_1_332
)

var profileNames = [...]string{"claude-code-2.1.89", "claude-code-2.1.332"}

// String returns the profile's name, "claude-code-2.1.89" or
// "claude-code-2.1.332", and "Profile(N)" for a value that is none of them.
func (p Profile) String() string { return enumString(p, profileNames[:], "Profile") }

// MarshalText returns the String form.
func (p Profile) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a profile's name: "claude-code-2.1.89" (or "", the
// default) or "claude-code-2.1.332". Another text is an error wrapping
// ErrInvalidOption.
func (p *Profile) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*p = ClaudeCode2_1_89
		return nil
	}
	v, err := enumParse[Profile](text, profileNames[:], "profile")
	if err == nil {
		*p = v
	}
	return err
}

// ModelTraits describe the model a conversation talks to, where a profile
// writes differently per model (Claude Code 2.1.332 reads them from its
// table of models). ClaudeCode2_1_89 ignores them.
type ModelTraits struct {
	// SystemMessages reports that the model takes system-role messages in
	// the middle of a conversation. With ClaudeCode2_1_332 the
	// announcements are then paragraphs for a system message rather than
	// <system-reminder> user texts (Announcement.System), the ToolSearch
	// description says that deferred tools appear by name "in a message
	// from the system", and "Tool loaded." follows a tool-reference result
	// only with ToolLoadedText.
	SystemMessages bool
	// ToolLoadedText reports that a model with SystemMessages still wants
	// "Tool loaded." after a tool-reference result (Claude Code's
	// tool_loaded_text capability).
	ToolLoadedText bool
}

// toolLoadedSent reports whether "Tool loaded." follows a tool-reference
// result with matches, for profile p and model m.
func toolLoadedSent(p Profile, m ModelTraits) bool {
	return p != ClaudeCode2_1_332 || !m.SystemMessages || m.ToolLoadedText
}
