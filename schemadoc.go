package toolsearch

import (
	"encoding/json"
	"strings"
	"sync"
)

// schemaDoc is a JSON document parsed for the quick check of an input
// schema (schemaquick.go): every value in one slice, strings and numbers as
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
	// unfit is set when the document is not for the quick check: nested
	// deeper than maxDepth, holding a number out of bounds or an object
	// with a key given twice. The full check then decides.
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

// parseSchemaDoc parses src, which must be valid JSON (json.Valid), into a
// pooled schemaDoc; release it with put. doc.unfit reports a document the
// quick check leaves to the full one.
func parseSchemaDoc(src string, maxDepth int) *schemaDoc {
	d := schemaDocs.Get().(*schemaDoc)
	d.src, d.pos, d.maxDepth, d.unfit = src, 0, maxDepth, false
	d.vals, d.members, d.stack = d.vals[:0], d.members[:0], d.stack[:0]
	d.root = d.value(0)
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

// value reads the value at d.pos, depth objects and arrays down.
func (d *schemaDoc) value(depth int) int32 {
	d.skipSpace()
	switch c := d.src[d.pos]; c {
	case '{', '[':
		return d.container(depth+1, c == '{')
	case '"':
		return d.add(docVal{kind: docString, text: d.str()})
	case 't':
		d.pos += len("true")
		return d.add(docVal{kind: docTrue})
	case 'f':
		d.pos += len("false")
		return d.add(docVal{kind: docFalse})
	case 'n':
		d.pos += len("null")
		return d.add(docVal{kind: docNull})
	}
	start := d.pos
	for d.pos < len(d.src) && strings.IndexByte("+-.eE0123456789", d.src[d.pos]) >= 0 {
		d.pos++
	}
	text := d.src[start:d.pos]
	if (len(text) > 16 || strings.ContainsAny(text, "eE")) && numberProblem(text) != "" {
		d.unfit = true
	}
	return d.add(docVal{kind: docNumber, text: text})
}

// container reads the object or array at d.pos.
func (d *schemaDoc) container(depth int, object bool) int32 {
	if depth > d.maxDepth {
		d.unfit = true
		return 0
	}
	kind, end := docArray, byte(']')
	if object {
		kind, end = docObject, '}'
	}
	d.pos++
	base := len(d.stack)
	d.skipSpace()
	if d.src[d.pos] == end {
		d.pos++
	} else {
		for {
			var key string
			if object {
				d.skipSpace()
				key = d.str()
				d.skipSpace()
				d.pos++ // ':'
			}
			v := d.value(depth)
			if d.unfit {
				return 0
			}
			d.stack = append(d.stack, docMember{key, v})
			d.skipSpace()
			c := d.src[d.pos]
			d.pos++
			if c == end {
				break
			}
		}
	}
	ms := d.stack[base:]
	if object && d.repeatsKey(ms) {
		d.unfit = true
		return 0
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

// str reads the string at d.pos and returns its value: a slice of the
// source, or, when it has escapes, what a JSON decoder makes of it.
func (d *schemaDoc) str() string {
	start := d.pos + 1
	i := strings.IndexByte(d.src[start:], '"')
	if raw := d.src[start : start+i]; strings.IndexByte(raw, '\\') < 0 {
		d.pos = start + i + 1
		return raw
	}
	j := start
	for d.src[j] != '"' {
		if d.src[j] == '\\' {
			j++
		}
		j++
	}
	d.pos = j + 1
	var s string
	_ = json.Unmarshal([]byte(d.src[start-1:j+1]), &s) // valid JSON
	return s
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
