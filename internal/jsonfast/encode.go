package jsonfast

import "unicode/utf8"

const jsonHex = "0123456789abcdef"

// AppendString appends s as a JSON string, escaped as json.Marshal
// escapes it: '<', '>', '&', U+2028 and U+2029 as \u sequences, invalid
// UTF-8 as \ufffd.
func AppendString(b []byte, s string) []byte {
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

// PlainCompact reports whether the JSON text j can be written as it is:
// no whitespace outside strings (it is compact) and nothing json.Marshal
// would escape ('<', '>', '&', U+2028, U+2029). j is trusted to be valid
// JSON (a registered schema, compacted when it was loaded).
func PlainCompact(j []byte) bool {
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
