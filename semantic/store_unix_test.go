//go:build unix

package semantic

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenFileStoreFIFO: a FIFO with no writer at the path is refused at
// once; os.Open waited in open(2) forever.
func TestOpenFileStoreFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(p, 0o600))
	done := make(chan error, 1)
	go func() {
		_, err := OpenFileStore(p, "m", 3, nil)
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("OpenFileStore waits for a writer to open the FIFO")
	}
	assert.EqualError(t, err, "semantic: open vector file: "+p+" is not a regular file but a FIFO")
}
