//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFIFOInputDoesNotBlock: a catalog that is a FIFO nobody writes to is
// read as empty (and refused as a catalog) at once; os.Open waited in
// open(2) forever.
func TestFIFOInputDoesNotBlock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(p, 0o600))
	code, _, errs := runCmd(t, "search", "--catalog", p, "read")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, p+":")
}
