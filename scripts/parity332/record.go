package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// The recorded file: for each set, its catalog (the demo set names the
// demo catalog instead) and queries, with the oracle's answers. The
// package's tests read it to compare the library with Claude Code 2.1.332
// without Claude Code.

type recordedQuery struct {
	Query       string   `json:"query"`
	MaxResults  *int     `json:"max_results,omitempty"`
	Matches     []string `json:"matches"`
	Total       int      `json:"total_deferred_tools"`
	Notes       []string `json:"notes,omitempty"`
	NoMatchText string   `json:"no_match_text,omitempty"`
}

type recordedSet struct {
	Name    string          `json:"name"`
	Catalog string          `json:"catalog,omitempty"`
	Pending []string        `json:"pending_mcp_servers,omitempty"`
	Tools   []catTool       `json:"tools,omitempty"`
	Queries []recordedQuery `json:"queries"`
}

func recordSet(s *set, want []oracleResult) recordedSet {
	r := recordedSet{Name: s.Name, Pending: s.Pending, Tools: s.Tools}
	if s.Name == "demo" {
		r.Catalog, r.Tools = "internal/demo/catalog.json", nil
	}
	for i, q := range s.Queries {
		w := &want[i]
		rq := recordedQuery{Query: q.Query, MaxResults: q.MaxResults, Matches: w.Matches, Total: w.Total, Notes: w.Notes}
		if rq.Matches == nil {
			rq.Matches = []string{}
		}
		if len(w.Matches) == 0 {
			rq.NoMatchText = w.noMatchText()
		}
		r.Queries = append(r.Queries, rq)
	}
	return r
}

// writeRecord writes the file with one tool and one query a line, so that
// a change shows as the lines it changes.
func writeRecord(path string, sets []recordedSet, gen generator) error {
	source := "The answers of Claude Code 2.1.332's own ToolSearch code (run by the oracle of shared/reference/oracle332, fed the tools in the library's pool order and the MCP descriptions cut at 4,096 UTF-16 code units as Claude Code cuts them) to the demo catalog with the queries of testdata/quality, and to the catalogs and queries that scripts/parity332 generates (\"generator\"). Written by: go run ./scripts/parity332 -record FILE."
	var b bytes.Buffer
	line := func(v any) error {
		var e bytes.Buffer
		enc := json.NewEncoder(&e)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		b.Write(bytes.TrimSuffix(e.Bytes(), []byte("\n")))
		return nil
	}
	b.WriteString(`{"source": `)
	if err := line(source); err != nil {
		return err
	}
	b.WriteString(",\n\"generator\": ")
	if err := line(gen); err != nil {
		return err
	}
	b.WriteString(",\n\"sets\": [")
	for i, s := range sets {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n{\"name\": ")
		if err := line(s.Name); err != nil {
			return err
		}
		if s.Catalog != "" {
			b.WriteString(`, "catalog": `)
			if err := line(s.Catalog); err != nil {
				return err
			}
		}
		if len(s.Pending) > 0 {
			b.WriteString(`, "pending_mcp_servers": `)
			if err := line(s.Pending); err != nil {
				return err
			}
		}
		if len(s.Tools) > 0 {
			b.WriteString(`, "tools": [`)
			for j, t := range s.Tools {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString("\n  ")
				if err := line(t); err != nil {
					return err
				}
			}
			b.WriteString("\n]")
		}
		b.WriteString(`, "queries": [`)
		for j, q := range s.Queries {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n  ")
			if err := line(q); err != nil {
				return err
			}
		}
		b.WriteString("\n]}")
	}
	b.WriteString("\n]}\n")
	if !json.Valid(b.Bytes()) {
		return fmt.Errorf("%s: the record is not valid JSON", path)
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
