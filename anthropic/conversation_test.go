package tsanthropic_test

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/toolsearch/toolsearch"
)

// conversation is a minimal Conversation over a Searcher: the discovered
// set and the tools to send (spec §7). It stands in for
// *toolsearch.Session until that type is on main.
type conversation struct {
	reg *toolsearch.Registry
	s   *toolsearch.Searcher

	mu         sync.Mutex
	discovered map[string]bool
}

func newConversation(reg *toolsearch.Registry) *conversation {
	return &conversation{reg: reg, s: toolsearch.NewSearcher(reg, nil), discovered: map[string]bool{}}
}

func (c *conversation) Tools() ([]toolsearch.ToolDefinition, error) {
	var core, found []toolsearch.ToolDefinition
	c.mu.Lock()
	defer c.mu.Unlock()
	for t := range c.reg.Tools() {
		d := toolsearch.ToolDefinition{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
		switch {
		case !t.Deferred():
			core = append(core, d)
		case c.discovered[t.Name]:
			d.DeferLoading = true
			found = append(found, d)
		}
	}
	return slices.Concat(core, []toolsearch.ToolDefinition{c.s.ToolDefinition()}, found), nil
}

func (c *conversation) HandleToolSearch(args json.RawMessage) ([]toolsearch.ContentBlock, bool) {
	res, err := c.s.Call(args)
	if err != nil {
		return []toolsearch.ContentBlock{{Type: "text", Text: err.Error()}}, true
	}
	c.mu.Lock()
	for _, m := range res.Matches {
		c.discovered[m.Name] = true
	}
	c.mu.Unlock()
	return res.ToolReferences(), false
}

// Resume reads every tool_reference block in the history.
func (c *conversation) Resume(history json.RawMessage) error {
	var v any
	if err := json.Unmarshal(history, &v); err != nil {
		return err
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["type"] == "tool_reference" {
				if n, ok := x["tool_name"].(string); ok {
					c.mu.Lock()
					c.discovered[n] = true
					c.mu.Unlock()
				}
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return nil
}
