package toolsearch

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The inline rendering of a Result, written by hand: the same bytes as
// json.Marshal, without reflection and without compacting again the
// schemas the registry keeps compact.

// appendJSON appends r as json.Marshal writes it. ok is false when a schema
// is empty but not nil (Marshal refuses it): the caller then uses Marshal.
func (r *Result) appendJSON(b []byte) (_ []byte, ok bool) {
	b = append(b, `{"matches":`...)
	if r.Matches == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Matches {
			m := &r.Matches[i]
			if i > 0 {
				b = append(b, ',')
			}
			var src *lazyData // what the match's tool knows of its texts
			if m.src != nil {
				src = m.src.lazyData.Load()
			}
			b = append(b, `{"name":`...)
			if src != nil && src.nameJSON != nil && m.Name == m.src.tool.Name {
				b = append(b, src.nameJSON...)
			} else {
				b = appendJSONString(b, m.Name)
			}
			b = append(b, `,"description":`...)
			if src != nil && src.descJSON != nil && m.Description == m.src.tool.Description {
				b = append(b, src.descJSON...)
			} else {
				b = appendJSONString(b, m.Description)
			}
			b = append(b, `,"schema":`...)
			switch {
			case m.Schema == nil:
				b = append(b, "null"...)
			case len(m.Schema) == 0:
				return b, false
			case src != nil && src.plain && len(src.schema) == len(m.Schema) && &src.schema[0] == &m.Schema[0], plainCompact(m.Schema):
				b = append(b, m.Schema...)
			default: // spaces or characters Marshal escapes: as Marshal does
				s, err := json.Marshal(m.Schema)
				if err != nil {
					return b, false
				}
				b = append(b, s...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"query":`...)
	b = appendJSONString(b, r.Query)
	b = append(b, `,"total_deferred_tools":`...)
	b = strconv.AppendInt(b, int64(r.TotalDeferredTools), 10)
	if len(r.PendingMCPServers) > 0 {
		b = append(b, `,"pending_mcp_servers":`...)
		b = appendJSONStrings(b, r.PendingMCPServers)
	}
	if len(r.NotFound) > 0 {
		b = append(b, `,"not_found":`...)
		b = appendJSONStrings(b, r.NotFound)
	}
	if len(r.Suggestions) > 0 {
		b = append(b, `,"suggestions":{`...)
		keys := make([]string, 0, len(r.Suggestions))
		for k := range r.Suggestions {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = appendJSONStrings(b, r.Suggestions[k])
		}
		b = append(b, '}')
	}
	if len(r.Notes) > 0 {
		b = append(b, `,"notes":`...)
		b = appendJSONStrings(b, r.Notes)
	}
	return append(b, '}'), true
}

// appendJSONStrings appends l as a JSON array (null when nil).
func appendJSONStrings(b []byte, l []string) []byte {
	if l == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

const jsonHex = "0123456789abcdef"

// appendJSONString appends s as a JSON string, escaped as json.Marshal
// escapes it: '<', '>', '&', U+2028 and U+2029 as \u sequences, invalid
// UTF-8 as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', jsonHex[c>>4], jsonHex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', jsonHex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plainCompact reports whether the JSON text j can be written as it is:
// no whitespace outside strings (it is compact) and nothing json.Marshal
// would escape ('<', '>', '&', U+2028, U+2029). j is trusted to be valid
// JSON (a registered schema, compacted when it was loaded).
func plainCompact(j []byte) bool {
	in := false
	for i := 0; i < len(j); i++ {
		switch c := j[i]; c {
		case '"':
			in = !in
		case '\\':
			i++ // only inside strings in valid JSON
		case '<', '>', '&':
			return false
		case 0xE2:
			if i+2 < len(j) && j[i+1] == 0x80 && (j[i+2] == 0xA8 || j[i+2] == 0xA9) {
				return false
			}
		case ' ', '\t', '\n', '\r':
			if !in {
				return false
			}
		}
	}
	return !in
}
