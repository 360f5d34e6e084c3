package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordPath is the recorded file that the root package's parity test
// reads.
var recordPath = filepath.Join("..", "..", "testdata", "parity", "claude-code-2.1.332.json")

// TestRecordIsGenerated: the catalogs and queries of the recorded file are
// what the generator makes from the seeds the file names, and the demo
// queries those of testdata/quality, so that the file can be made again
// with -record and nothing in it was written by hand.
func TestRecordIsGenerated(t *testing.T) {
	b, err := os.ReadFile(recordPath)
	require.NoError(t, err)
	var rec struct {
		Generator generator     `json:"generator"`
		Sets      []recordedSet `json:"sets"`
	}
	require.NoError(t, json.Unmarshal(b, &rec))
	require.Positive(t, rec.Generator.Seeds)
	demo, err := demoSet(filepath.Join("..", ".."))
	require.NoError(t, err)
	want := append([]*set{demo}, rec.Generator.sets()...)
	require.Len(t, rec.Sets, len(want))
	for i, w := range want {
		got := rec.Sets[i]
		assert.Equal(t, w.Name, got.Name)
		assert.Equal(t, w.Pending, got.Pending, "set %s: pending servers", w.Name)
		if w.Name != "demo" {
			assert.Equal(t, w.Tools, got.Tools, "set %s: tools", w.Name)
		}
		require.Len(t, got.Queries, len(w.Queries), "set %s", w.Name)
		for j, q := range w.Queries {
			assert.Equal(t, q.Query, got.Queries[j].Query, "set %s, query %d", w.Name, j)
			assert.Equal(t, q.MaxResults, got.Queries[j].MaxResults, "set %s, query %d", w.Name, j)
		}
	}
}

func TestCutUTF16(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc… [truncated]"},
		{"ab😀", 3, "ab… [truncated]"}, // the high surrogate left alone is dropped
		{"ab😀", 4, "ab😀"},
		{"éé", 1, "é… [truncated]"},
	} {
		assert.Equal(t, c.want, cutUTF16(c.in, c.n), "cutUTF16(%q, %d)", c.in, c.n)
	}
}

func TestParseMCPName(t *testing.T) {
	for _, c := range []struct {
		name, server, tool string
		ok                 bool
	}{
		{"mcp__slack__send_message", "slack", "send_message", true},
		{"mcp__a__b__c", "a", "b__c", true},
		{"mcp__solo", "solo", "", true},
		{"mcp____x", "", "", false},
		{"mcp__", "", "", false},
		{"Read", "", "", false},
	} {
		s, tl, ok := parseMCPName(c.name)
		assert.Equal(t, []any{c.server, c.tool, c.ok}, []any{s, tl, ok}, "parseMCPName(%q)", c.name)
	}
}
