package gateway

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseConfig(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{"mcpServers": {
		"fs": {"command": "npx", "args": ["-y", "fs"], "env": {"A": "1"}, "cwd": "/tmp", "trust": "auto"},
		"remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}},
		"old": {"type": "sse", "url": "http://127.0.0.1:9/sse", "disabled": true},
		"both": {"command": "x", "url": "http://a/b"},
		"ftp": {"url": "ftp://a/b"},
		"kind": {"url": "http://a/b", "type": "websocket"},
		"trusty": {"command": "x", "trust": "always"},
		"none": {"args": ["x"]},
		"garbled": {"command": 3}
	}, "toolsearch": {"mode": "bridge", "strategy": "bm25", "callTimeout": "90s", "holdNewServers": true}}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"both", "fs", "ftp", "garbled", "kind", "none", "old", "remote", "trusty"}, cfg.Names)
	assert.Equal(t, ServerConfig{Command: "npx", Args: []string{"-y", "fs"}, Env: map[string]string{"A": "1"}, Cwd: "/tmp", Trust: "auto"}, cfg.Servers["fs"])
	assert.True(t, cfg.Servers["remote"].Remote())
	assert.True(t, cfg.Servers["old"].Disabled)
	assert.Equal(t, map[string]string{
		"both":    `both "command" and "url" given: a server is one or the other`,
		"ftp":     `url "ftp://a/b" is not an http(s) URL`,
		"kind":    `type "websocket" of a remote server: want "http" (Streamable HTTP, falling back to SSE) or "sse"`,
		"trusty":  `trust "always": want "pin" or "auto"`,
		"none":    `no "command" (or "url") given`,
		"garbled": "bad entry: json: cannot unmarshal number into Go struct field ServerConfig.command of type string",
	}, cfg.Bad)
	assert.Equal(t, Options{Mode: ModeBridge, Strategy: "bm25", CallTimeout: Duration(90 * time.Second), HoldNewServers: true}, cfg.Options)

	vscode, err := ParseConfig([]byte(`{"servers": {"a": {"type": "stdio", "command": "x"}}}`))
	require.NoError(t, err, "VS Code's key")
	assert.Equal(t, []string{"a"}, vscode.Names)
}

func TestParseConfigErrors(t *testing.T) {
	for _, tt := range []struct{ name, cfg, want string }{
		{"not JSON", `{`, "config is not valid JSON"},
		{"trailing text", `{"mcpServers":{}} x`, "text after the top-level object"},
		{"no servers", `{"other":{}}`, `config has no "mcpServers" object`},
		{"both keys", `{"mcpServers":{},"servers":{}}`, `both "mcpServers" and "servers"`},
		{"unknown option", `{"mcpServers":{},"toolsearch":{"moed":"bridge"}}`, `unknown field "moed"`},
		{"bad mode", `{"mcpServers":{},"toolsearch":{"mode":"static"}}`, `mode "static": want "dynamic" or "bridge"`},
		{"bad strategy", `{"mcpServers":{},"toolsearch":{"strategy":"magic"}}`, `unknown strategy "magic"`},
		{"bad duration", `{"mcpServers":{},"toolsearch":{"callTimeout":"-1s"}}`, "must be positive"},
	} {
		_, err := ParseConfig([]byte(tt.cfg))
		assert.ErrorContains(t, err, tt.want, tt.name)
	}
}

func TestModeText(t *testing.T) {
	for _, m := range []Mode{ModeDynamic, ModeBridge} {
		b, err := m.MarshalText()
		require.NoError(t, err)
		var back Mode
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, m, back, string(b))
	}
	assert.Equal(t, "bridge", ModeBridge.String())
}

func TestLoadTokens(t *testing.T) {
	write := func(body string) string {
		p := filepath.Join(t.TempDir(), "tokens.json")
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		return p
	}
	t.Setenv("GW_TOKEN", "from-the-environment-123")
	ts, err := LoadTokens(write(`{"tokens":[{"name":"a","token":"0123456789abcdef","allow":["mcp__x__y"]},{"name":"b","tokenEnv":"GW_TOKEN","allow":["*"]}]}`))
	require.NoError(t, err)
	info, err := ts.verify(t.Context(), "from-the-environment-123", nil)
	require.NoError(t, err)
	assert.Equal(t, "b", info.UserID)
	assert.Equal(t, []string{"*"}, scopeOf(info).Allow)
	assert.True(t, scopeOf(info).IncludeDeferred, `"*" includes the deferred MCP tools`)
	_, err = ts.verify(t.Context(), "0123456789abcdeX", nil)
	assert.ErrorContains(t, err, "unknown bearer token")

	for _, tt := range []struct{ name, body, want string }{
		{"empty", `{"tokens":[]}`, `no entries in "tokens"`},
		{"no name", `{"tokens":[{"token":"0123456789abcdef","allow":["*"]}]}`, "no name"},
		{"no allow", `{"tokens":[{"name":"a","token":"0123456789abcdef"}]}`, `no "allow" list`},
		{"short", `{"tokens":[{"name":"a","token":"short","allow":["*"]}]}`, "at least 16 bytes"},
		{"unset env", `{"tokens":[{"name":"a","tokenEnv":"GW_NOT_SET_ANYWHERE","allow":["*"]}]}`, "GW_NOT_SET_ANYWHERE is not set"},
		{"twice", `{"tokens":[{"name":"a","token":"0123456789abcdef","allow":["*"]},{"name":"b","token":"0123456789abcdef","allow":["*"]}]}`, "the same token as another entry"},
		{"same name", `{"tokens":[{"name":"a","token":"0123456789abcdef","allow":["*"]},{"name":"a","token":"0123456789abcdeg","allow":["*"]}]}`, "the name is used twice"},
		{"unknown key", `{"tokens":[{"name":"a","token":"0123456789abcdef","allow":["*"],"scope":"x"}]}`, `unknown field "scope"`},
	} {
		_, err := LoadTokens(write(tt.body))
		assert.ErrorContains(t, err, tt.want, tt.name)
	}
}
