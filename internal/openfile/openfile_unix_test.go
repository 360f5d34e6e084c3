//go:build unix

package openfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mkfifo makes a FIFO with no writer in a temporary directory.
func mkfifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(p, 0o600))
	return p
}

// TestFIFOWithoutWriter: opening a FIFO nobody writes to returns at once
// (os.Open would wait forever): Open reads it as empty, OpenRegular refuses
// it, naming it.
func TestFIFOWithoutWriter(t *testing.T) {
	p := mkfifo(t)
	type opened struct {
		f   *os.File
		fi  os.FileInfo
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, fi, err := Open(p)
		done <- opened{f, fi, err}
	}()
	var o opened
	select {
	case o = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Open waits for a writer to open the FIFO")
	}
	f, fi, err := o.f, o.fi, o.err
	require.NoError(t, err)
	assert.Equal(t, os.ModeNamedPipe, fi.Mode().Type())
	n, err := f.Read(make([]byte, 8))
	assert.Zero(t, n, "a FIFO with no writer reads as empty")
	assert.Error(t, err)
	f.Close()

	_, _, err = OpenRegular(p)
	require.Error(t, err)
	assert.Contains(t, err.Error(), p+" is not a regular file but a FIFO")

	reg := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(reg, []byte("data"), 0o600))
	f, fi, err = OpenRegular(reg)
	require.NoError(t, err)
	assert.Equal(t, int64(4), fi.Size())
	f.Close()
}
