package schema

import (
	"encoding/json"
	"strings"
	"sync"
	"unicode/utf8"
)

// schemaDoc is a JSON document parsed for the quick check of an input
// schema (quick.go): every value in one slice, strings and numbers as
// slices of the source. It is read once and thrown away, so it is built
// with as few allocations as a document allows, and pooled.
type schemaDoc struct {
	src      string
	pos      int
	maxDepth int
	vals     []docVal
	members  []docMember
	stack    []docMember // members of the objects and arrays being read
	keys     map[string]struct{}
	// unfit is set when the document is not for the quick check: not
	// valid JSON, nested deeper than maxDepth, holding a number out of
	// bounds or an object with a key given twice. The full check then
	// decides.
	unfit bool
	root  int32
}

type docKind uint8

const (
	docNull docKind = iota
	docFalse
	docTrue
	docNumber
	docString
	docArray
	docObject
)

// docVal is one JSON value: its kind, the text of a string (decoded) or
// a number, and the members of an array or object (schemaDoc.members[lo:hi]).
type docVal struct {
	kind   docKind
	text   string
	lo, hi int32
}

// docMember is a member of an object (key and value) or an array (value).
type docMember struct {
	key string
	val int32
}

var schemaDocs = sync.Pool{New: func() any { return &schemaDoc{keys: map[string]struct{}{}} }}

// parseSchemaDoc parses src into a pooled schemaDoc; release it with put.
// doc.unfit reports a document the quick check leaves to the full one: one
// that is not valid JSON (exactly what json.Valid refuses, nested up to
// maxDepth), or that the quick check does not read (see unfit).
func parseSchemaDoc(src string, maxDepth int) *schemaDoc {
	d := schemaDocs.Get().(*schemaDoc)
	d.src, d.pos, d.maxDepth, d.unfit = src, 0, maxDepth, false
	d.vals, d.members, d.stack = d.vals[:0], d.members[:0], d.stack[:0]
	d.root = d.value(0)
	d.skipSpace()
	if d.pos != len(d.src) {
		d.unfit = true // trailing data
	}
	return d
}

func (d *schemaDoc) put() {
	if cap(d.vals) > 1<<14 || cap(d.members) > 1<<14 {
		return // a large document: let it go
	}
	d.src = ""
	schemaDocs.Put(d)
}

func (d *schemaDoc) skipSpace() {
	if d.pos < len(d.src) && d.src[d.pos] > ' ' {
		return // the common case: no space
	}
	for d.pos < len(d.src) {
		switch d.src[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *schemaDoc) add(v docVal) int32 {
	d.vals = append(d.vals, v)
	return int32(len(d.vals) - 1)
}

// fail marks the document unfit and returns a value index to go on with.
func (d *schemaDoc) fail() int32 {
	d.unfit = true
	return 0
}

// value reads the value at d.pos, depth objects and arrays down.
func (d *schemaDoc) value(depth int) int32 {
	d.skipSpace()
	if d.pos >= len(d.src) {
		return d.fail()
	}
	switch c := d.src[d.pos]; c {
	case '{', '[':
		return d.container(depth+1, c == '{')
	case '"':
		s, ok := d.str()
		if !ok {
			return d.fail()
		}
		return d.add(docVal{kind: docString, text: s})
	case 't':
		return d.literal("true", docTrue)
	case 'f':
		return d.literal("false", docFalse)
	case 'n':
		return d.literal("null", docNull)
	}
	return d.number()
}

func (d *schemaDoc) literal(word string, kind docKind) int32 {
	if !strings.HasPrefix(d.src[d.pos:], word) {
		return d.fail()
	}
	d.pos += len(word)
	return d.add(docVal{kind: kind})
}

// number reads the number at d.pos: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *schemaDoc) number() int32 {
	start := d.pos
	if d.peek() == '-' {
		d.pos++
	}
	switch c := d.peek(); {
	case c == '0':
		d.pos++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return d.fail()
	}
	if d.peek() == '.' {
		d.pos++
		if d.digits() == 0 {
			return d.fail()
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.pos++
		if c := d.peek(); c == '+' || c == '-' {
			d.pos++
		}
		if d.digits() == 0 {
			return d.fail()
		}
	}
	text := d.src[start:d.pos]
	if (len(text) > 16 || strings.ContainsAny(text, "eE")) && NumberProblem(text) != "" {
		return d.fail() // out of bounds: the full check names it
	}
	return d.add(docVal{kind: docNumber, text: text})
}

// peek returns the byte at d.pos, or 0 at the end.
func (d *schemaDoc) peek() byte {
	if d.pos < len(d.src) {
		return d.src[d.pos]
	}
	return 0
}

// digits skips the digits at d.pos and returns how many there were.
func (d *schemaDoc) digits() int {
	start := d.pos
	for d.pos < len(d.src) && d.src[d.pos] >= '0' && d.src[d.pos] <= '9' {
		d.pos++
	}
	return d.pos - start
}

// container reads the object or array at d.pos.
func (d *schemaDoc) container(depth int, object bool) int32 {
	if depth > d.maxDepth {
		return d.fail()
	}
	kind, end := docArray, byte(']')
	if object {
		kind, end = docObject, '}'
	}
	d.pos++
	base := len(d.stack)
	d.skipSpace()
	if d.peek() == end {
		d.pos++
	} else {
		for {
			var key string
			if object {
				d.skipSpace()
				var ok bool
				if d.peek() != '"' {
					return d.fail()
				}
				if key, ok = d.str(); !ok {
					return d.fail()
				}
				d.skipSpace()
				if d.peek() != ':' {
					return d.fail()
				}
				d.pos++
			}
			v := d.value(depth)
			if d.unfit {
				return 0
			}
			d.stack = append(d.stack, docMember{key, v})
			d.skipSpace()
			c := d.peek()
			d.pos++
			if c == end {
				break
			}
			if c != ',' {
				return d.fail()
			}
		}
	}
	ms := d.stack[base:]
	if object && d.repeatsKey(ms) {
		return d.fail()
	}
	lo := int32(len(d.members))
	d.members = append(d.members, ms...)
	d.stack = d.stack[:base]
	return d.add(docVal{kind: kind, lo: lo, hi: int32(len(d.members))})
}

// repeatsKey reports whether two members of an object have the same key.
// A JSON decoder keeps the last of them; the quick check leaves such a
// document to the full one rather than follow it.
func (d *schemaDoc) repeatsKey(ms []docMember) bool {
	if len(ms) <= 16 {
		for i := range ms {
			for j := range i {
				if ms[i].key == ms[j].key {
					return true
				}
			}
		}
		return false
	}
	defer clear(d.keys)
	for _, m := range ms {
		if _, ok := d.keys[m.key]; ok {
			return true
		}
		d.keys[m.key] = struct{}{}
	}
	return false
}

// str reads the string at d.pos, reporting whether it is valid JSON, and
// returns its value: a slice of the source, or, when it has escapes or
// invalid UTF-8, what a JSON decoder makes of it.
func (d *schemaDoc) str() (string, bool) {
	start := d.pos + 1
	escaped, high := false, false
	for i := start; i < len(d.src); i++ {
		c := d.src[i]
		if plainByte[c] {
			continue
		}
		switch {
		case c == '"':
			d.pos = i + 1
			if !escaped && (!high || utf8.ValidString(d.src[start:i])) {
				return d.src[start:i], true
			}
			var s string
			err := json.Unmarshal([]byte(d.src[start-1:i+1]), &s)
			return s, err == nil
		case c == '\\':
			escaped = true
			i++
			if i == len(d.src) {
				return "", false
			}
			switch d.src[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d.src) {
					return "", false
				}
				for _, h := range []byte(d.src[i+1 : i+5]) {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return "", false
					}
				}
				i += 4
			default:
				return "", false
			}
		case c < 0x20:
			return "", false
		case c >= 0x80:
			high = true // invalid UTF-8 is decoded as U+FFFD
		}
	}
	return "", false
}

// member returns the value of key in object v, or -1.
func (d *schemaDoc) member(v int32, key string) int32 {
	o := d.vals[v]
	if o.kind != docObject {
		return -1
	}
	for _, m := range d.members[o.lo:o.hi] {
		if m.key == key {
			return m.val
		}
	}
	return -1
}

// items returns the members of array or object v.
func (d *schemaDoc) items(v int32) []docMember {
	o := d.vals[v]
	return d.members[o.lo:o.hi]
}

// plainByte marks the bytes that stand for themselves in a JSON string: not
// a quote, a backslash, a control character or part of a multibyte UTF-8
// sequence.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
