package main

import (
	"bytes"
	"context"
	"flag"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/toolsearchtest"
)

var update = flag.Bool("update", false, "rewrite testdata/transcript.golden")

// The agent's transcript (instruction, tool lists, ToolSearch result,
// tool output, answer) is checked against a golden file.
func TestRunTranscript(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	toolsearchtest.Golden(t, "testdata/transcript.golden", out.Bytes(), *update)
}
