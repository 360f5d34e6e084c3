package toolsearch

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPromptGolden(t *testing.T) {
	s := NewSearcher(specPool(t), nil)
	golden(t, "system_prompt_section.txt", []byte(s.SystemPromptSection()))
	golden(t, "deferred_tools_block.txt", []byte(deferredBlock(s)))
	def, err := json.MarshalIndent(s.ToolDefinition(), "", "  ")
	require.NoError(t, err)
	golden(t, "toolsearch_definition.json", def)
	golden(t, "delta.txt", []byte(deltaText(
		[]string{"mcp__jira__search", "mcp__jira__create_ticket", "mcp__jira__search"},
		goneTools{disconnected: []string{"mcp__slack__send_message"}})))
	golden(t, "delta_reasons.txt", []byte(deltaText(nil, goneTools{
		removed:      []string{"mcp__jira__search"},
		disconnected: []string{"mcp__slack__send_message", "mcp__slack__list_channels"},
		loaded:       []string{"WebFetch"},
	})))
}

// TestPromptIndependentOfRegistrationOrder registers the same tools in many
// orders, in one call or several, and expects byte-identical texts.
func TestPromptIndependentOfRegistrationOrder(t *testing.T) {
	base := specPool(t)
	var tools []Tool
	for tl := range base.Tools() {
		tools = append(tools, tl)
	}
	want := NewSearcher(base, nil)
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range 20 {
		perm := slices.Clone(tools)
		rng.Shuffle(len(perm), func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
		var r Registry
		if i%2 == 0 {
			require.NoError(t, r.Register(perm...))
		} else {
			for _, tl := range perm {
				require.NoError(t, r.Register(tl))
			}
		}
		got := NewSearcher(&r, nil)
		require.Equal(t, want.SystemPromptSection(), got.SystemPromptSection(), "order %d", i)
		require.Equal(t, deferredBlock(want), deferredBlock(got), "order %d", i)
		for _, q := range []string{"web", "list", "github issue", "mcp__github"} {
			a, _ := want.Search(q, 0)
			b, _ := got.Search(q, 0)
			require.Equal(t, string(a.JSON()), string(b.JSON()), "order %d query %q", i, q)
		}
	}
}

func TestPromptTextsEmptyWithoutDeferredTools(t *testing.T) {
	r, err := NewRegistry(nil, Tool{Name: "Read"})
	require.NoError(t, err)
	s := NewSearcher(r, nil)
	assert.Empty(t, s.SystemPromptSection())
	assert.Empty(t, deferredBlock(s))
	assert.Empty(t, deltaText(nil, goneTools{}))
}

func TestScopedPromptTexts(t *testing.T) {
	s := NewSearcher(specPool(t), &SearchOptions{Scope: &Scope{Allow: []string{"WebFetch", "Read", "mcp__slack__send_message"}}})
	assert.Equal(t, "The following deferred tools are available via ToolSearch:\nWebFetch, mcp__slack__send_message", s.SystemPromptSection())
	star := NewSearcher(specPool(t), &SearchOptions{Scope: &Scope{Allow: []string{"*"}}})
	assert.Empty(t, deferredNames(star), "deferred tools are in a * scope only with IncludeDeferred")
	all := NewSearcher(specPool(t), &SearchOptions{Scope: &Scope{Allow: []string{"*"}, IncludeDeferred: true}})
	assert.Len(t, deferredNames(all), 10)
}

func TestToolSearchDescriptionIsConcise(t *testing.T) {
	d := NewSearcher(&Registry{}, nil).ToolDefinition()
	assert.Equal(t, "ToolSearch", d.Name)
	assert.Less(t, len(d.Description), 600, "the description is part of every prompt")
	for _, form := range []string{"select:", "+slack send", "notebook jupyter"} {
		assert.True(t, strings.Contains(d.Description, form), "the description shows %q", form)
	}
	_, err := compileSchema(d.InputSchema)
	require.NoError(t, err)
}
