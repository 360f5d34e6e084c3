package jsonfast

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of arrays and objects a Reader accepts,
// as encoding/json's.
const MaxDepth = 10000

// Reader reads one JSON document from a byte slice in a single pass, value
// by value, without building a tree: the caller asks for what it expects
// next (an object's keys, a string, a raw value) and skips the rest. What
// it accepts and how it decodes strings is what encoding/json does: the
// same grammar, the same nesting limit, invalid UTF-8 and lone surrogates
// in strings decoded as U+FFFD. Every error is a *SyntaxError or a
// *TypeError that says at which byte. A Reader is not safe for concurrent
// use.
type Reader struct {
	data  []byte
	pos   int
	depth int
}

// NewReader returns a Reader of data, which it reads but never changes.
func NewReader(data []byte) *Reader { return &Reader{data: data} }

// SyntaxError is a document that is not JSON, at byte Offset.
type SyntaxError struct {
	Msg    string
	Offset int
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("byte %d: %s", e.Offset, e.Msg) }

// TypeError is a JSON value of another kind than the one asked for
// (Found and Want are "string", "number", "object", "array", "boolean" or
// "null"), at byte Offset.
type TypeError struct {
	Found, Want string
	Offset      int
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("byte %d: %s where %s is wanted", e.Offset, article(e.Found), article(e.Want))
}

func article(kind string) string {
	switch kind {
	case "array", "object":
		return "an " + kind
	case "null":
		return kind
	}
	return "a " + kind
}

// Offset is the number of bytes read so far.
func (r *Reader) Offset() int { return r.pos }

func (r *Reader) ws() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

func (r *Reader) syntax(format string, args ...any) error {
	return &SyntaxError{Msg: fmt.Sprintf(format, args...), Offset: r.pos}
}

// unexpected is the error of the byte at r.pos (or of the end) where a
// value or a delimiter (what) was wanted.
func (r *Reader) unexpected(what string) error {
	if r.pos >= len(r.data) {
		return r.syntax("unexpected end of input, looking for %s", what)
	}
	return r.syntax("invalid character %q, looking for %s", rune(r.data[r.pos]), what)
}

// Kind returns the kind of the next value ("string", "number", "object",
// "array", "boolean", "null"), or "" when no value starts there.
func (r *Reader) Kind() string {
	r.ws()
	if r.pos >= len(r.data) {
		return ""
	}
	switch c := r.data[r.pos]; {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "number"
	}
	return ""
}

// want checks that the next value is of kind want (or null, when null is
// true) and returns its kind; for another kind it returns a *TypeError,
// after skipping the value, or a *SyntaxError if there is no value.
func (r *Reader) want(want string, null bool) (string, error) {
	k := r.Kind()
	if k == want || null && k == "null" {
		return k, nil
	}
	if k == "" {
		return "", r.unexpected("a value")
	}
	at := r.pos
	if _, err := r.Raw(); err != nil {
		return "", err
	}
	return "", &TypeError{Found: k, Want: want, Offset: at}
}

// Object reads an object (or null, for which it calls nothing), calling
// each with every key in order, decoded; each must read or skip the key's
// value. The key's bytes are valid only during the call.
func (r *Reader) Object(each func(key []byte) error) error {
	k, err := r.want("object", true)
	if err != nil || k == "null" {
		return cmp.Or(err, r.word("null"))
	}
	return r.members(true, each)
}

// members reads the object at r.pos, calling each once the reader is at a
// member's value, which each must read or skip: with decode set, with the
// member's key decoded (its bytes valid only during the call), else with
// nil once the key is checked.
func (r *Reader) members(decode bool, each func(key []byte) error) error {
	if err := r.enter(); err != nil {
		return err
	}
	r.ws()
	if r.pos < len(r.data) && r.data[r.pos] == '}' {
		r.pos++
		r.depth--
		return nil
	}
	var key []byte
	for {
		r.ws()
		if r.pos >= len(r.data) || r.data[r.pos] != '"' {
			return r.unexpected("the beginning of an object key")
		}
		var err error
		if decode {
			key, err = r.str(key[:0])
		} else {
			err = r.skipString()
		}
		if err != nil {
			return err
		}
		r.ws()
		if r.pos >= len(r.data) || r.data[r.pos] != ':' {
			return r.unexpected("':' after an object key")
		}
		r.pos++
		if err := each(key); err != nil {
			return err
		}
		r.ws()
		if r.pos < len(r.data) && r.data[r.pos] == ',' {
			r.pos++
			continue
		}
		if r.pos < len(r.data) && r.data[r.pos] == '}' {
			r.pos++
			r.depth--
			return nil
		}
		return r.unexpected("',' or '}' after an object value")
	}
}

// Array reads an array (or null, for which it calls nothing), calling
// each for every element in order, which must read or skip it.
func (r *Reader) Array(each func(i int) error) error {
	k, err := r.want("array", true)
	if err != nil || k == "null" {
		return cmp.Or(err, r.word("null"))
	}
	return r.elements(each)
}

// elements reads the array at r.pos, calling each for every element in
// order, which must read or skip it.
func (r *Reader) elements(each func(i int) error) error {
	if err := r.enter(); err != nil {
		return err
	}
	r.ws()
	if r.pos < len(r.data) && r.data[r.pos] == ']' {
		r.pos++
		r.depth--
		return nil
	}
	for i := 0; ; i++ {
		if err := each(i); err != nil {
			return err
		}
		r.ws()
		if r.pos < len(r.data) && r.data[r.pos] == ',' {
			r.pos++
			continue
		}
		if r.pos < len(r.data) && r.data[r.pos] == ']' {
			r.pos++
			r.depth--
			return nil
		}
		return r.unexpected("',' or ']' after an array element")
	}
}

// enter steps into the object or array at r.pos.
func (r *Reader) enter() error {
	if r.depth >= MaxDepth {
		return r.syntax("nested more than %d deep", MaxDepth)
	}
	r.depth++
	r.pos++
	return nil
}

// String reads a string (or null, for which null is true) and appends its
// decoded bytes to dst.
func (r *Reader) String(dst []byte) (out []byte, null bool, err error) {
	k, err := r.want("string", true)
	if err != nil {
		return dst, false, err
	}
	if k == "null" {
		return dst, true, r.word("null")
	}
	out, err = r.str(dst)
	return out, false, err
}

// Bool reads true, false or null (null is true).
func (r *Reader) Bool() (v, null bool, err error) {
	k, err := r.want("boolean", true)
	switch {
	case err != nil:
		return false, false, err
	case k == "null":
		return false, true, r.word("null")
	case r.data[r.pos] == 't':
		return true, false, r.word("true")
	}
	return false, false, r.word("false")
}

// Raw reads any value and returns its bytes (a subslice of the document),
// checked to be JSON.
func (r *Reader) Raw() ([]byte, error) {
	r.ws()
	start := r.pos
	if err := r.skip(); err != nil {
		return nil, err
	}
	return r.data[start:r.pos], nil
}

// End checks that nothing but white space follows.
func (r *Reader) End() error {
	r.ws()
	if r.pos < len(r.data) {
		return r.syntax("invalid character %q after the top-level value", rune(r.data[r.pos]))
	}
	return nil
}

// skip reads a value, checking it.
func (r *Reader) skip() error {
	r.ws()
	if r.pos >= len(r.data) {
		return r.unexpected("a value")
	}
	switch c := r.data[r.pos]; {
	case c == '{':
		return r.members(false, func([]byte) error { return r.skip() })
	case c == '[':
		return r.elements(func(int) error { return r.skip() })
	case c == '"':
		return r.skipString()
	case c == 't':
		return r.word("true")
	case c == 'f':
		return r.word("false")
	case c == 'n':
		return r.word("null")
	case c == '-' || c >= '0' && c <= '9':
		return r.number()
	}
	return r.unexpected("a value")
}

// word reads the literal word.
func (r *Reader) word(w string) error {
	for i := 0; i < len(w); i++ {
		if r.pos >= len(r.data) || r.data[r.pos] != w[i] {
			return r.unexpected("the literal " + w)
		}
		r.pos++
	}
	return nil
}

// number reads a number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *Reader) number() error {
	digits := func() int {
		n := 0
		for r.pos < len(r.data) && r.data[r.pos] >= '0' && r.data[r.pos] <= '9' {
			r.pos++
			n++
		}
		return n
	}
	if r.data[r.pos] == '-' {
		r.pos++
	}
	switch {
	case r.pos < len(r.data) && r.data[r.pos] == '0':
		r.pos++
	case digits() == 0:
		return r.unexpected("a digit")
	}
	if r.pos < len(r.data) && r.data[r.pos] == '.' {
		r.pos++
		if digits() == 0 {
			return r.unexpected("a digit after the decimal point")
		}
	}
	if r.pos < len(r.data) && (r.data[r.pos] == 'e' || r.data[r.pos] == 'E') {
		r.pos++
		if r.pos < len(r.data) && (r.data[r.pos] == '+' || r.data[r.pos] == '-') {
			r.pos++
		}
		if digits() == 0 {
			return r.unexpected("a digit in the exponent")
		}
	}
	return nil
}

// plain reports whether c needs no work inside a string: not a quote, a
// backslash, a control character or the start of a multi-byte sequence.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainRun returns the index of the first byte from i on that is a quote,
// a backslash, a control character or (if ascii) not ASCII, or len(b). It
// tests eight bytes at a time.
func plainRun(b []byte, i int, ascii bool) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	var hi uint64 // the high bits that stop the run as well
	if ascii {
		hi = highs
	}
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		q, bs := w^('"'*ones), w^('\\'*ones)
		// A byte of zero in q or bs, or below 0x20 in w, sets its high bit.
		stop := (q-ones)&^q | (bs-ones)&^bs | (w-0x20*ones)&^w
		if stop&highs|w&hi != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; !plain[c] && (ascii || c < utf8.RuneSelf) {
			return i
		}
	}
	return i
}

// skipString reads a string, checking its escapes.
func (r *Reader) skipString() error {
	r.pos++ // the quote
	for {
		r.pos = plainRun(r.data, r.pos, false)
		if r.pos >= len(r.data) {
			return r.unexpected("the end of a string")
		}
		switch c := r.data[r.pos]; {
		case c == '"':
			r.pos++
			return nil
		case c == '\\':
			if _, err := r.escape(); err != nil {
				return err
			}
		default:
			return r.syntax("invalid character %q in a string", rune(c))
		}
	}
}

// escape reads the escape at r.pos (its backslash) and returns the rune
// it stands for; a \u escape of a surrogate half is returned as it is.
func (r *Reader) escape() (rune, error) {
	r.pos++
	if r.pos >= len(r.data) {
		return 0, r.unexpected("an escape")
	}
	c := r.data[r.pos]
	r.pos++
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		var v rune
		for range 4 {
			if r.pos >= len(r.data) {
				return 0, r.unexpected("a hexadecimal digit")
			}
			d := r.data[r.pos]
			switch {
			case d >= '0' && d <= '9':
				d -= '0'
			case d >= 'a' && d <= 'f':
				d -= 'a' - 10
			case d >= 'A' && d <= 'F':
				d -= 'A' - 10
			default:
				return 0, r.unexpected("a hexadecimal digit")
			}
			v = v<<4 | rune(d)
			r.pos++
		}
		return v, nil
	}
	r.pos -= 2
	return 0, r.syntax("invalid escape %q in a string", "\\"+string(rune(c)))
}

// str reads the string at r.pos and appends its decoded bytes to dst, as
// encoding/json decodes them: invalid UTF-8 and unpaired surrogates become
// U+FFFD.
func (r *Reader) str(dst []byte) ([]byte, error) {
	r.pos++ // the quote
	for {
		start := r.pos
		r.pos = plainRun(r.data, r.pos, true)
		dst = append(dst, r.data[start:r.pos]...)
		if r.pos >= len(r.data) {
			return dst, r.unexpected("the end of a string")
		}
		switch c := r.data[r.pos]; {
		case c == '"':
			r.pos++
			return dst, nil
		case c == '\\':
			v, err := r.escape()
			if err != nil {
				return dst, err
			}
			if utf16.IsSurrogate(v) {
				v = r.pair(v)
			}
			dst = utf8.AppendRune(dst, v)
		case c >= utf8.RuneSelf:
			v, size := utf8.DecodeRune(r.data[r.pos:])
			if v == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, unicode.ReplacementChar)
			} else {
				dst = append(dst, r.data[r.pos:r.pos+size]...)
			}
			r.pos += size
		default:
			return dst, r.syntax("invalid character %q in a string", rune(c))
		}
	}
}

// pair returns the rune of the surrogate half hi and the \u escape that
// follows it, if that is its other half (which it then reads), or U+FFFD.
func (r *Reader) pair(hi rune) rune {
	if len(r.data)-r.pos >= 6 && r.data[r.pos] == '\\' && r.data[r.pos+1] == 'u' {
		save := r.pos
		if lo, err := r.escape(); err == nil {
			if v := utf16.DecodeRune(hi, lo); v != unicode.ReplacementChar {
				return v
			}
		}
		r.pos = save
	}
	return unicode.ReplacementChar
}
