package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// printable returns s with every control character (newline and tab
// included: a report line is one line) written as \xNN or \u00NN, and
// every byte that is not valid UTF-8 as \xNN: a server's description,
// error or stderr, printed by the report, cannot set the terminal's title,
// clear the screen or forge a line of the report.
func printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || isControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < utf8.RuneSelf && isControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case isControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isControl reports whether r is a C0 or C1 control character or DEL.
func isControl(r rune) bool { return r < 0x20 || r >= 0x7f && r <= 0x9f }

// jsonPrintable rewrites the DEL and C1 characters of JSON text (which
// encoding/json leaves raw; it escapes the C0 ones) as \u00NN escapes: the
// same JSON value, safe on a terminal.
func jsonPrintable(js []byte) []byte {
	var b bytes.Buffer
	for i := 0; i < len(js); {
		r, size := utf8.DecodeRune(js[i:])
		if r >= 0x7f && r <= 0x9f {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.Write(js[i : i+size])
		}
		i += size
	}
	return b.Bytes()
}

// maxConfigBytes bounds the configuration file read.
const maxConfigBytes = 16 << 20

// readConfig reads the configuration file at path: a regular file (a FIFO
// or a device is refused before it is opened, so that the open cannot
// block) of at most maxConfigBytes.
func readConfig(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConfigBytes {
		return nil, fmt.Errorf("%s is over %d bytes", path, maxConfigBytes)
	}
	return data, nil
}
