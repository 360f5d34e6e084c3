// Package jsonfast holds the hand-written JSON readers and writers of the
// hot paths: the arguments of a ToolSearch call in the shape models send
// them (PlainArgs), and JSON strings written as encoding/json writes them
// (AppendString, PlainCompact). Each does what encoding/json would, or
// says that it cannot, so that the caller falls back to encoding/json.
package jsonfast

import (
	"bytes"
	"unicode/utf8"
)

// PlainArgs reads the arguments of a ToolSearch call against the
// default input schema in the shape models send: an object with a "query"
// string and maybe a "max_results" whole number of 1 to 9 digits, nothing
// else, no escapes in the query, valid UTF-8. ok is false for anything else
// (including every input the schema refuses): the caller then decodes
// it with encoding/json, and says what is wrong. Nothing is decoded into an
// interface value.
func PlainArgs(args []byte) (query string, k int, ok bool) {
	i := 0
	ws := func() {
		for i < len(args) && (args[i] == ' ' || args[i] == '\t' || args[i] == '\n' || args[i] == '\r') {
			i++
		}
	}
	// str returns the bytes of the plain string at i (no escapes, no
	// control characters).
	str := func() ([]byte, bool) {
		if i >= len(args) || args[i] != '"' {
			return nil, false
		}
		j := bytes.IndexByte(args[i+1:], '"')
		if j < 0 {
			return nil, false
		}
		s := args[i+1 : i+1+j]
		for _, c := range s {
			if c < 0x20 || c == '\\' {
				return nil, false
			}
		}
		i += j + 2
		return s, true
	}
	ws()
	if i >= len(args) || args[i] != '{' {
		return "", 0, false
	}
	i++
	var haveQuery, haveMax bool
	for {
		ws()
		key, good := str()
		if !good {
			return "", 0, false
		}
		ws()
		if i >= len(args) || args[i] != ':' {
			return "", 0, false
		}
		i++
		ws()
		switch string(key) {
		case "query":
			v, good := str()
			if !good || haveQuery || !utf8.Valid(v) {
				return "", 0, false
			}
			query, haveQuery = string(v), true
		case "max_results":
			if haveMax || i >= len(args) || args[i] < '1' || args[i] > '9' {
				return "", 0, false
			}
			n, j := 0, i
			for j < len(args) && args[j] >= '0' && args[j] <= '9' && j-i < 10 {
				n = n*10 + int(args[j]-'0')
				j++
			}
			if j-i > 9 {
				return "", 0, false
			}
			i = j
			k, haveMax = n, true
		default:
			return "", 0, false
		}
		ws()
		if i >= len(args) {
			return "", 0, false
		}
		if args[i] == '}' {
			i++
			break
		}
		if args[i] != ',' {
			return "", 0, false
		}
		i++
	}
	ws()
	if i != len(args) || !haveQuery {
		return "", 0, false
	}
	return query, k, true
}
