package gateway

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's gateway section shows configurations to copy: every JSON
// block in it is a config the gateway reads without a bad entry (the
// client configs too: they share the format), or a tokens file it loads.
func TestReadmeGatewayConfigsParse(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	require.NoError(t, err)
	text := string(readme)
	start := strings.Index(text, "## An MCP gateway")
	require.Positive(t, start, "the README has the gateway section")
	end := start + strings.Index(text[start:], "\n## Versions and tags")
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(text[start:end], -1)
	require.Len(t, blocks, 5, "the gateway's config, three client configs (Claude Desktop and Cursor, VS Code, Claude Code), the tokens file")
	t.Setenv("TOOLSEARCH_OPS_TOKEN", "an-operations-token-from-the-env")
	for i, b := range blocks {
		if strings.Contains(b[1], `"tokens"`) {
			p := filepath.Join(t.TempDir(), "tokens.json")
			require.NoError(t, os.WriteFile(p, []byte(b[1]), 0o600))
			_, err := LoadTokens(p)
			assert.NoError(t, err, "block %d", i)
			continue
		}
		cfg, err := ParseConfig([]byte(b[1]))
		require.NoError(t, err, "block %d", i)
		assert.Empty(t, cfg.Bad, "block %d", i)
		assert.NotEmpty(t, cfg.Names, "block %d", i)
	}
}
