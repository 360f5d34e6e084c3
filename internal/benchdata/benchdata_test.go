package benchdata

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCatalog(t *testing.T) {
	d, err := Load("../..")
	require.NoError(t, err)
	descs := map[string]bool{}
	for _, b := range d.Base {
		descs[b.Description] = true
	}
	for _, n := range []int{10, 3000} {
		c := d.Catalog(n)
		require.Len(t, c, n)
		assert.Equal(t, c, d.Catalog(n), "deterministic")
		seen := map[string]bool{}
		for _, tl := range c {
			assert.False(t, seen[tl.Name], "name %q is unique", tl.Name)
			seen[tl.Name] = true
			assert.True(t, descs[tl.Description], "%s has a real description", tl.Name)
			assert.NotEmpty(t, tl.Schema, "%s has a schema", tl.Name)
			if !tl.Builtin {
				assert.True(t, strings.HasPrefix(tl.Name, "mcp__"+tl.Server+"__"), "%s is a tool of its synthetic server %s", tl.Name, tl.Server)
			}
		}
	}
}

func TestQueries(t *testing.T) {
	assert.Equal(t, []string{"weather", "forecast", "paris"}, Words("What's the weather forecast for Paris, please?"))
	d, err := Load("../..")
	require.NoError(t, err)
	for _, n := range []int{1, 3, 6} {
		qs := d.KeywordQueries(n, 50, n == 3)
		require.Len(t, qs, 50)
		for _, q := range qs {
			assert.Len(t, strings.Fields(q), n, "%q", q)
			assert.Equal(t, n == 3, strings.HasPrefix(q, "+"), "%q", q)
		}
	}
}
