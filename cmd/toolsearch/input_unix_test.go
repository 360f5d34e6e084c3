//go:build unix

package main

import (
	"bytes"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFIFOInputDoesNotBlock: a catalog that is a FIFO nobody writes to is
// read as empty (and refused as a catalog) at once; os.Open waited in
// open(2) forever.
func TestFIFOInputDoesNotBlock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(p, 0o600))
	type answer struct {
		code int
		errs string
	}
	done := make(chan answer, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run([]string{"search", "--catalog", p, "read"}, &out, &errb)
		done <- answer{code, errb.String()}
	}()
	var a answer
	select {
	case a = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the command waits for a writer to open the FIFO")
	}
	code, errs := a.code, a.errs
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, p+":")
}
