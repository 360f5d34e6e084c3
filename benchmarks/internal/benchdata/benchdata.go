// Package benchdata builds the deterministic catalogs and queries that the
// benchmarks of toolsearch and of its peers (the benchmarks module) run on.
// Everything comes from the real tool descriptions and queries in
// testdata/bench and internal/demo; nothing is random.
package benchdata

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Tool is one catalog tool.
type Tool struct {
	Name        string
	Description string
	Schema      json.RawMessage // never empty
	Server      string          // empty for the demo's built-in tools
	SearchHint  string
	ShouldDefer bool
	Builtin     bool // one of the demo's agent tools (not from an MCP server)
}

// Data is the parsed source material.
type Data struct {
	Base    []Tool   // the real tools, in file order
	Queries []string // the real queries, in file order
}

// files are the sources under the repository root, in the order used.
var files = []string{
	"internal/demo/catalog.json",
	"testdata/bench/livemcpbench.json",
	"testdata/bench/bfcl.json",
	"testdata/bench/seal_tools.json",
	"testdata/bench/metatool.json",
}

// Load reads the source files under root, the repository root.
func Load(root string) (*Data, error) {
	d := &Data{}
	for _, f := range files {
		raw, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		var doc struct {
			Tools []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"input_schema"`
				Server      string          `json:"server"`
				SearchHint  string          `json:"search_hint"`
				ShouldDefer *bool           `json:"should_defer"`
			} `json:"tools"`
			Queries []struct {
				Query string `json:"query"`
			} `json:"queries"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, t := range doc.Tools {
			schema := t.InputSchema
			if len(schema) == 0 || string(schema) == "null" {
				schema = json.RawMessage(`{"type":"object"}`)
			}
			d.Base = append(d.Base, Tool{
				Name: t.Name, Description: t.Description, Schema: schema, Server: t.Server,
				SearchHint: t.SearchHint, ShouldDefer: t.ShouldDefer == nil || *t.ShouldDefer,
				Builtin: f == files[0] && t.Server == "" && !strings.HasPrefix(t.Name, "mcp__"),
			})
		}
		for _, q := range doc.Queries {
			d.Queries = append(d.Queries, q.Query)
		}
	}
	return d, nil
}

// ToolsPerServer is the size of a synthetic MCP server.
const ToolsPerServer = 40

// Catalog returns n tools. The demo's built-in tools come first, as they
// are; every other tool is an MCP tool of a synthetic server
// "s<i>-<original server or dataset tool name>": the real tools are taken in
// order, round after round, ToolsPerServer to a server, so names are unique
// and every description is a real one.
func (d *Data) Catalog(n int) []Tool {
	out := make([]Tool, 0, n)
	seen := make(map[string]bool, n)
	var mcp []Tool
	for _, t := range d.Base {
		if t.Builtin && len(out) < n {
			out = append(out, t)
			seen[t.Name] = true
			continue
		}
		mcp = append(mcp, t)
	}
	for i := 0; len(out) < n; i++ {
		t := mcp[i%len(mcp)]
		srv := "s" + strconv.Itoa(i/ToolsPerServer)
		raw := t.Name
		if rest, ok := strings.CutPrefix(raw, "mcp__"); ok {
			if _, tool, ok := strings.Cut(rest, "__"); ok {
				raw = tool
			}
		}
		name := mcpName(srv, raw)
		if seen[name] {
			continue
		}
		seen[name] = true
		t.Name, t.Server, t.ShouldDefer = name, srv, true
		out = append(out, t)
	}
	return out
}

func mcpName(server, tool string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
				return r
			}
			return '_'
		}, s)
	}
	return "mcp__" + clean(server) + "__" + clean(tool)
}

// stop are words a model leaves out of a keyword query.
var stop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the and for with from that this what which who how are was were have has
		can you your our their its into about using use give get find show tell please need want would could should
		there them they then than also some any all one two three of in on at to by or an is it be as me my i we
		do does did not no yes if so up out over more most just like make made let lets per via`) {
		stop[w] = true
	}
}

// Words returns the keywords of a query as a model would write them:
// lowercased runs of letters and digits, three characters or more, stop
// words left out.
func Words(query string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if len(w) >= 3 && !stop[w] {
			out = append(out, w)
		}
	}
	return out
}

// KeywordQueries returns count keyword queries of exactly terms words each,
// taken in order from the real queries that have enough keywords; with
// required, the first word is marked required ("+word").
func (d *Data) KeywordQueries(terms, count int, required bool) []string {
	var out []string
	for i := 0; len(out) < count && i < len(d.Queries); i++ {
		// Spread the picks over all the datasets.
		q := d.Queries[(i*7919)%len(d.Queries)]
		w := Words(q)
		if len(w) < terms {
			continue
		}
		w = w[:terms]
		if required {
			w[0] = "+" + w[0]
		}
		out = append(out, strings.Join(w, " "))
	}
	return out
}
