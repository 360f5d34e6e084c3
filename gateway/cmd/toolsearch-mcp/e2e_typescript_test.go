package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch/gateway/internal/npmtest"
)

// tsReport is what testdata/npm/client.mjs prints.
type tsReport struct {
	Instructions string              `json:"instructions"`
	Before       []string            `json:"before"`
	After        []string            `json:"after"`
	Search       *mcp.CallToolResult `json:"search"`
	Changed      bool                `json:"changed"`
	Echo         *mcp.CallToolResult `json:"echo"`
}

// runTSClient runs the TypeScript SDK client script with args and decodes
// its report.
func runTSClient(t *testing.T, args ...string) tsReport {
	t.Helper()
	dir := npmtest.Dir(t)
	cmd := exec.Command("node", append([]string{filepath.Join(dir, "client.mjs")}, args...)...)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	out, err := cmd.Output()
	var stderr string
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = string(ee.Stderr)
	}
	require.NoError(t, err, "the TypeScript client failed: %s", stderr)
	var rep tsReport
	require.NoError(t, json.Unmarshal(out, &rep), "%s", out)
	return rep
}

func checkTSReport(t *testing.T, rep tsReport) {
	t.Helper()
	mustContain(t, rep.Instructions, "mcp__everything__echo")
	assert.Equal(t, []string{"ToolSearch"}, rep.Before)
	require.NotNil(t, rep.Search)
	assert.False(t, rep.Search.IsError, text(rep.Search))
	assert.True(t, rep.Changed, "the TypeScript client received notifications/tools/list_changed")
	assert.Equal(t, []string{"ToolSearch", "mcp__everything__echo"}, rep.After)
	want := direct(t).call(t, "echo", map[string]any{"message": "from typescript"})
	assert.Equal(t, asJSON(t, want), asJSON(t, rep.Echo), "echo through the gateway equals echo called directly")
}

func TestE2ETypeScriptStdio(t *testing.T) {
	t.Parallel()
	cfg := writeGatewayConfig(t, map[string]any{"everything": everythingServer(t)}, nil)
	exe, err := os.Executable()
	require.NoError(t, err)
	checkTSReport(t, runTSClient(t, append([]string{"stdio", exe}, serveArgs("--config", cfg, "--no-pinning")...)...))
}

func TestE2ETypeScriptHTTP(t *testing.T) {
	t.Parallel()
	cfg := writeGatewayConfig(t, map[string]any{"everything": everythingServer(t)}, nil)
	g := startHTTPGateway(t, "--config", cfg, "--no-pinning")
	checkTSReport(t, runTSClient(t, "http", g.url))
}
