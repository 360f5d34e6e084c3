package benchdata

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSameAsTheRoots: benchdata.go is the root module's, byte for byte
// (see copy.go). The benchmarks module runs inside the repository only: its
// data are the root's testdata.
func TestSameAsTheRoots(t *testing.T) {
	root, err := os.ReadFile(filepath.Join("..", "..", "..", "internal", "benchdata", "benchdata.go"))
	require.NoError(t, err)
	here, err := os.ReadFile("benchdata.go")
	require.NoError(t, err)
	assert.Equal(t, string(root), string(here), "copy the root's internal/benchdata/benchdata.go here")
}
