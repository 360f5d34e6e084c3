package schema

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/internal/text"
)

// DuplicateKeyError is what DecodeArgs returns for an object that gives a
// key twice: the key (as decoded) and the JSON pointer of the object.
type DuplicateKeyError struct{ Key, Object string }

func (e *DuplicateKeyError) Error() string {
	return "the key " + strconv.Quote(text.Echo(e.Key)) + " is given twice in the object at " + text.Echo(e.Object)
}

// DecodeArgs decodes one JSON value for validation (numbers kept exact)
// and returns it with its compact form, the bytes to hand on. Empty input
// means {}.
//
// The compact form reads as the decoded value does, for any JSON reader:
// what is validated is what is handed on. So an object that gives a key
// twice, at any depth, is refused with a *DuplicateKeyError (readers disagree
// on which one counts: Go's and JavaScript's keep the last, others the
// first); keys are compared as the decoder reads them, so "a" and
// "\u0061" are the same key. An invalid UTF-8 byte and an escaped lone
// surrogate ("\ud800"), which the decoder reads as U+FFFD, are handed on
// as U+FFFD.
func DecodeArgs(args json.RawMessage) (any, json.RawMessage, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		return map[string]any{}, json.RawMessage(`{}`), nil
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, args); err != nil { // also refuses trailing data
		return nil, nil, err
	}
	compact := buf.Bytes()
	if !utf8.Valid(compact) {
		compact = []byte(text.ValidUTF8(string(compact))) // as the decoder read them
	}
	members, lone := scanCompact(compact)
	if members != decodedMembers(v) {
		return nil, nil, findDuplicate(compact)
	}
	if lone {
		compact = replaceLoneSurrogates(compact)
	}
	return v, compact, nil
}

// scanCompact returns the number of object members of the compact JSON
// text b (every ':' outside a string is one) and whether a string in it
// escapes a lone surrogate.
func scanCompact(b []byte) (members int, lone bool) {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case ':':
			members++
		case '"':
			for i++; b[i] != '"'; i++ {
				if b[i] != '\\' {
					continue
				}
				if b[i+1] == 'u' {
					if n := surrogateEscape(b, i); n == 0 {
						lone = true
					} else {
						i += n - 2
					}
				}
				i++
			}
		}
	}
	return members, lone
}

// surrogateEscape reads the escape \uXXXX at b[i:]: it returns 0 for a lone
// surrogate, else the bytes of the escape (12 for a surrogate pair).
func surrogateEscape(b []byte, i int) int {
	r := hex4(b[i+2 : i+6])
	switch {
	case r >= 0xd800 && r < 0xdc00:
		if i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
			if lo := hex4(b[i+8 : i+12]); lo >= 0xdc00 && lo < 0xe000 {
				return 12
			}
		}
		return 0
	case r >= 0xdc00 && r < 0xe000:
		return 0
	}
	return 6
}

func hex4(b []byte) rune {
	n, err := strconv.ParseUint(string(b), 16, 32)
	if err != nil {
		return -1
	}
	return rune(n)
}

// replaceLoneSurrogates returns b with every escaped lone surrogate
// replaced by \ufffd, as the decoder reads it.
func replaceLoneSurrogates(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		out = append(out, b[i])
		if b[i] != '"' {
			continue
		}
		for i++; b[i] != '"'; i++ {
			if b[i] == '\\' && b[i+1] == 'u' {
				n := surrogateEscape(b, i)
				if n == 0 {
					out, n = append(out, `\ufffd`...), 6
				} else {
					out = append(out, b[i:i+n]...)
				}
				i += n - 1
				continue
			}
			out = append(out, b[i])
			if b[i] == '\\' {
				i++
				out = append(out, b[i])
			}
		}
		out = append(out, '"')
	}
	return out
}

// decodedMembers returns the number of members of the objects of v.
func decodedMembers(v any) int {
	switch v := v.(type) {
	case map[string]any:
		n := len(v)
		for _, x := range v {
			n += decodedMembers(x)
		}
		return n
	case []any:
		n := 0
		for _, x := range v {
			n += decodedMembers(x)
		}
		return n
	}
	return 0
}

// findDuplicate returns the error for the first key given twice in an
// object of the compact JSON text b (one that has one), naming the key and
// the JSON pointer of its object.
func findDuplicate(b []byte) error {
	f := &dupFinder{b: b}
	f.value()
	return &DuplicateKeyError{Key: f.key, Object: "/" + strings.Join(f.path, "/")}
}

type dupFinder struct {
	b    []byte
	i    int
	path []string
	key  string
}

// value reads the value at f.i, reporting true (with f.path and f.key set)
// at the first duplicate key.
func (f *dupFinder) value() bool {
	switch f.b[f.i] {
	case '{':
		f.i++
		keys := map[string]bool{}
		for f.b[f.i] != '}' {
			k := f.str()
			f.i++ // ':'
			if keys[k] {
				f.key = k
				return true
			}
			keys[k] = true
			f.path = append(f.path, pointerToken(k))
			if f.value() {
				return true
			}
			f.path = f.path[:len(f.path)-1]
			if f.b[f.i] == ',' {
				f.i++
			}
		}
		f.i++
	case '[':
		f.i++
		for n := 0; f.b[f.i] != ']'; n++ {
			f.path = append(f.path, strconv.Itoa(n))
			if f.value() {
				return true
			}
			f.path = f.path[:len(f.path)-1]
			if f.b[f.i] == ',' {
				f.i++
			}
		}
		f.i++
	case '"':
		f.str()
	default:
		for f.i < len(f.b) && !strings.ContainsRune(",]}", rune(f.b[f.i])) {
			f.i++
		}
	}
	return false
}

// str reads the string at f.i and returns it as the decoder reads it.
func (f *dupFinder) str() string {
	start, plain := f.i, true
	for f.i++; f.b[f.i] != '"'; f.i++ {
		if f.b[f.i] == '\\' {
			plain = false
			f.i++
		} else if f.b[f.i] >= utf8.RuneSelf {
			plain = false
		}
	}
	f.i++
	tok := f.b[start:f.i]
	if plain {
		return string(tok[1 : len(tok)-1])
	}
	var s string
	_ = json.Unmarshal(tok, &s) // a string of a valid text
	return s
}

// pointerToken escapes k as a JSON pointer token.
func pointerToken(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
