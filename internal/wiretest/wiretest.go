// Package wiretest holds what the provider modules' wire tests share: the
// small registry their conversations run over and the golden-file check of
// the request bodies the SDK clients send.
package wiretest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// Registry returns a registry of one tool that is always loaded
// (get_time) and three MCP tools, which are deferred
// (mcp__weather__get_forecast, mcp__weather__get_alerts,
// mcp__mail__send_email).
func Registry(t testing.TB) *toolsearch.Registry {
	t.Helper()
	city := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}`)
	reg, err := toolsearch.NewRegistry(nil,
		toolsearch.Tool{Name: "get_time", Description: "Current time in UTC", InputSchema: json.RawMessage(`{"type":"object"}`)},
		toolsearch.NewMCPTool("weather", "get_forecast", "Get the weather forecast for a city", city, nil),
		toolsearch.NewMCPTool("weather", "get_alerts", "Severe weather alerts for a region", json.RawMessage(`{"type":"object","properties":{"region":{"type":"string"}}}`), nil),
		toolsearch.NewMCPTool("mail", "send_email", "Send an email", json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"},"body":{"type":"string"}},"required":["to","body"]}`), nil),
	)
	require.NoError(t, err)
	return reg
}

// BrokenSchemaRegistry returns a registry of one tool that is always
// loaded (get_time), one that is not deferred and whose lazy schema fails
// to load ("broken", with the error "server said no"), and one MCP tool
// (mcp__weather__get_forecast), so that ToolSearch is offered: a Session's
// Tools over it returns get_time and ToolSearch, and skips "broken".
func BrokenSchemaRegistry(t testing.TB) *toolsearch.Registry {
	t.Helper()
	reg, err := toolsearch.NewRegistry(nil,
		toolsearch.Tool{Name: "get_time", Description: "Current time in UTC"},
		toolsearch.Tool{Name: "broken", LoadSchema: func() (json.RawMessage, error) { return nil, errors.New("server said no") }},
		toolsearch.NewMCPTool("weather", "get_forecast", "Get the weather forecast for a city", nil, nil),
	)
	require.NoError(t, err)
	return reg
}

// Golden compares got, a JSON request body, indented, with testdata/name;
// with update it rewrites the file instead.
func Golden(t *testing.T, update bool, name string, got []byte) {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, json.Indent(&buf, got, "", "  "), "request body is not JSON: %s", got)
	buf.WriteByte('\n')
	GoldenText(t, update, name, buf.Bytes())
}

// GoldenText compares got with testdata/name byte for byte; with update it
// rewrites the file instead.
func GoldenText(t *testing.T, update bool, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	assert.Equal(t, string(want), string(got), "%s differs (run go test -update if the change is intended)", path)
}
