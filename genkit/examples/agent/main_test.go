package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/transcript.golden")

// The agent's transcript (instruction, tool lists, ToolSearch result,
// tool output, answer) is checked against a golden file.
func TestRunTranscript(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	path := filepath.Join("testdata", "transcript.golden")
	if *update {
		require.NoError(t, os.WriteFile(path, out.Bytes(), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	assert.Equal(t, string(want), out.String(), "transcript differs from %s (run go test -update if intended)", path)
}
