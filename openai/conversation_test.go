package tsopenai_test

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/toolsearch/toolsearch"
)

// conversation is a minimal Conversation over a Searcher: the discovered
// set and the tools to send (spec §7). It stands in for
// *toolsearch.Session until that type is on main. deferLoading marks the
// discovered tools, as a Session with FormatToolReference does.
type conversation struct {
	reg          *toolsearch.Registry
	s            *toolsearch.Searcher
	deferLoading bool

	mu         sync.Mutex
	discovered map[string]bool
}

func newConversation(reg *toolsearch.Registry, deferLoading bool) *conversation {
	return &conversation{reg: reg, s: toolsearch.NewSearcher(reg, nil), deferLoading: deferLoading, discovered: map[string]bool{}}
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
			d.DeferLoading = c.deferLoading
			found = append(found, d)
		}
	}
	return slices.Concat(core, []toolsearch.ToolDefinition{c.s.ToolDefinition()}, found), nil
}

func (c *conversation) Search(args json.RawMessage) (*toolsearch.Result, error) {
	res, err := c.s.Call(args)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(res.Matches))
	for _, m := range res.Matches {
		names = append(names, m.Name)
	}
	return res, c.AddDiscovered(names...)
}

func (c *conversation) AddDiscovered(names ...string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range names {
		c.discovered[n] = true
	}
	return nil
}

// Resume reads every string in the history that is an inline ToolSearch
// result.
func (c *conversation) Resume(history json.RawMessage) error {
	var v any
	if err := json.Unmarshal(history, &v); err != nil {
		return err
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			var r struct {
				Matches []struct {
					Name string `json:"name"`
				} `json:"matches"`
				Total *int `json:"total_deferred_tools"`
			}
			if json.Unmarshal([]byte(x), &r) == nil && r.Total != nil {
				for _, m := range r.Matches {
					_ = c.AddDiscovered(m.Name)
				}
			}
		case map[string]any:
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
