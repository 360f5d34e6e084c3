package toolsearchtest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Golden compares got with the file at path byte for byte and fails t,
// naming the file, when they differ or the file is missing; with update
// (a test's -update flag, say) it writes got to path instead, creating its
// directory.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs (run the test with -update if the change is intended)\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

// GoldenJSON is Golden for a JSON body (a request the loop sent, say),
// compared indented with two spaces and a final newline, so that the file
// reads and diffs line by line. A body that is not JSON fails t.
func GoldenJSON(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, got, "", "  "); err != nil {
		t.Fatalf("the body for %s is not JSON: %v\n%s", path, err, got)
	}
	buf.WriteByte('\n')
	Golden(t, path, buf.Bytes(), update)
}
