// Package termsafe escapes the characters a terminal acts on, so that
// text from a file or a server that a command prints cannot move the
// cursor, clear the screen, set the window title or forge output.
package termsafe

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// Writer returns a writer that writes to w what it is given, with every
// control character but newline and tab (C0, DEL and the C1 range
// U+0080–U+009F) written as \xNN or \u00NN, and every byte that is not
// part of valid UTF-8 as \xNN. A character split between two writes is
// kept until the next one; Flush writes what is kept.
func Writer(w io.Writer) *EscapeWriter { return &EscapeWriter{w: w} }

// EscapeWriter is the writer of Writer. It is not safe for concurrent
// use.
type EscapeWriter struct {
	w       io.Writer
	pending []byte // the start of a character the next write completes
}

// Write escapes p and writes it; it returns len(p) unless w fails.
func (e *EscapeWriter) Write(p []byte) (int, error) {
	buf := append(e.pending, p...)
	out := make([]byte, 0, len(buf))
	i := 0
	for i < len(buf) {
		if buf[i] >= utf8.RuneSelf && !utf8.FullRune(buf[i:]) {
			break // completed by the next write, or by Flush
		}
		out, i = escapeAt(out, buf, i)
	}
	e.pending = append([]byte(nil), buf[i:]...)
	if _, err := e.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes, escaped, the bytes kept from the last write.
func (e *EscapeWriter) Flush() error {
	var out []byte
	for i := 0; i < len(e.pending); {
		out, i = escapeAt(out, e.pending, i)
	}
	e.pending = nil
	if len(out) == 0 {
		return nil
	}
	_, err := e.w.Write(out)
	return err
}

// escapeAt appends the character at b[i], escaped if it must be, and
// returns the index after it.
func escapeAt(out, b []byte, i int) ([]byte, int) {
	c := b[i]
	if c < utf8.RuneSelf {
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return fmt.Appendf(out, `\x%02x`, c), i + 1
		}
		return append(out, c), i + 1
	}
	r, size := utf8.DecodeRune(b[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Appendf(out, `\x%02x`, c), i + 1
	case r <= 0x9f:
		return fmt.Appendf(out, `\u%04x`, r), i + size
	}
	return append(out, b[i:i+size]...), i + size
}
