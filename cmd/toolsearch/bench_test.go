package main

import (
	"io"
	"testing"
)

// BenchmarkReadmeCommand is the README's first command, `toolsearch search
// "create github issue"` over the embedded demo catalog, as the process runs
// it after start (parse, register, search, print).
func BenchmarkReadmeCommand(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if code := run([]string{"search", "create github issue"}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit code %d", code)
		}
	}
}
