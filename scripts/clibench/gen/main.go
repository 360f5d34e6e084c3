// Command gen writes the mixed catalog and the queries that
// scripts/clibench/run.sh measures the CLI on: the n-tool bench catalog
// (internal/benchdata: the demo's built-in tools, then real MCP and dataset
// tools — kebab-case, snake_case and camelCase names, descriptions in
// English, Chinese and other scripts — on synthetic servers of 40 tools)
// and count keyword queries of 1 to 3 terms taken from the datasets' real
// queries, one in four with its first term required ("+term"). Run it from
// the repository root:
//
//	go run ./scripts/clibench/gen -n 10000 -queries 20000 -out DIR
//
// It writes DIR/catalog.json (the CLI's catalog format), DIR/queries.json
// (a JSON array of strings) and DIR/queries-1.json (its first query alone).
// Nothing is random.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolsearch/toolsearch/internal/benchdata"
)

func main() {
	n := flag.Int("n", 10_000, "tools in the catalog")
	count := flag.Int("queries", 20_000, "queries to write")
	out := flag.String("out", ".", "output `directory`")
	flag.Parse()
	if err := run(*n, *count, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

type catalogTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	Server      string          `json:"server,omitempty"`
	SearchHint  string          `json:"search_hint,omitempty"`
	ShouldDefer bool            `json:"should_defer"`
}

func run(n, count int, dir string) error {
	d, err := benchdata.Load(".")
	if err != nil {
		return fmt.Errorf("%w (run from the repository root)", err)
	}
	var tools []catalogTool
	for _, t := range d.Catalog(n) {
		tools = append(tools, catalogTool{Name: t.Name, Description: t.Description, InputSchema: t.Schema,
			Server: t.Server, SearchHint: t.SearchHint, ShouldDefer: t.ShouldDefer})
	}
	if err := write(filepath.Join(dir, "catalog.json"), map[string]any{"tools": tools}); err != nil {
		return err
	}
	// The keywords of every real query, then queries of 1, 2 and 3 terms in
	// turn, each from the next query that has enough keywords.
	var words [][]string
	for _, q := range d.Queries {
		if w := benchdata.Words(q); len(w) > 0 {
			words = append(words, w)
		}
	}
	queries := make([]string, 0, count)
	for i := 0; len(queries) < count; i++ {
		w := words[(i*7919)%len(words)]
		terms := 1 + len(queries)%3
		if len(w) < terms {
			continue
		}
		w = append([]string(nil), w[:terms]...)
		if len(queries)%4 == 3 {
			w[0] = "+" + w[0]
		}
		queries = append(queries, strings.Join(w, " "))
	}
	if err := write(filepath.Join(dir, "queries-1.json"), queries[:1]); err != nil {
		return err
	}
	return write(filepath.Join(dir, "queries.json"), queries)
}

func write(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
