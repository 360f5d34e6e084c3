package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf16"
)

// The oracle side: a catalog converted into the oracle's tools file, in
// the library's pool order, and the oracle's output read back.

// oracleTool is one tool of the oracle's tools file (its README has the
// format).
type oracleTool struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	SearchHint  *string  `json:"searchHint,omitempty"`
	IsMCP       bool     `json:"isMcp"`
	ShouldDefer bool     `json:"shouldDefer"`
	AlwaysLoad  bool     `json:"alwaysLoad,omitempty"`
	Aliases     []string `json:"aliases,omitempty"`
	MCPInfo     *mcpInfo `json:"mcpInfo,omitempty"`
}

type mcpInfo struct {
	ServerName string `json:"serverName"`
	ToolName   string `json:"toolName,omitempty"`
}

func isMCP(t catTool) bool { return t.Server != "" || strings.HasPrefix(t.Name, "mcp__") }

// parseMCPName splits mcp__server__tool at the first "__" after the
// prefix, as Claude Code does for a tool without MCP information; ok is
// false when it is not such a name.
func parseMCPName(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", "", false
	}
	i := strings.Index(rest, "__")
	switch {
	case i < 0:
		return rest, "", rest != ""
	case i == 0:
		return "", "", false
	}
	return rest[:i], rest[i+2:], true
}

// maxMCPSearchDescription is where Claude Code 2.1.332 cuts an MCP tool's
// description for search, in UTF-16 code units. The oracle takes a tool's
// description as its prompt() text and does not cut it: the cut happens
// where Claude Code builds MCP tools, so it is applied here.
const maxMCPSearchDescription = 4096

// cutUTF16 cuts s to n UTF-16 code units, dropping a high surrogate left
// alone at the end, followed by "… [truncated]"; s itself when it fits.
func cutUTF16(s string, n int) string {
	u := utf16.Encode([]rune(s))
	if len(u) <= n {
		return s
	}
	u = u[:n]
	if c := u[n-1]; c >= 0xd800 && c <= 0xdbff {
		u = u[:n-1]
	}
	return string(utf16.Decode(u)) + "… [truncated]"
}

// oracleTools converts a catalog into the oracle's tools file, in the
// library's pool order: tools not from MCP servers by name bytes, then MCP
// tools by name bytes (pool order breaks score ties; the library's is
// fixed, Claude Code's is registration order).
func oracleTools(tools []catTool, uncut bool) []oracleTool {
	sorted := slices.Clone(tools)
	slices.SortStableFunc(sorted, func(a, b catTool) int {
		if isMCP(a) != isMCP(b) {
			if isMCP(a) {
				return 1
			}
			return -1
		}
		return strings.Compare(a.Name, b.Name)
	})
	out := make([]oracleTool, 0, len(sorted))
	for _, t := range sorted {
		o := oracleTool{Name: t.Name, Description: t.Description, IsMCP: isMCP(t),
			ShouldDefer: t.ShouldDefer == nil || *t.ShouldDefer, AlwaysLoad: t.AlwaysLoad, Aliases: t.Aliases}
		if t.SearchHint != "" {
			h := t.SearchHint
			o.SearchHint = &h
		}
		if o.IsMCP && !uncut {
			o.Description = cutUTF16(t.Description, maxMCPSearchDescription)
		}
		if t.Server != "" {
			tool := t.MCPToolName
			if tool == "" {
				_, tool, _ = parseMCPName(t.Name)
			}
			o.MCPInfo = &mcpInfo{ServerName: t.Server, ToolName: tool}
		}
		out = append(out, o)
	}
	return out
}

// oracleResult is one result of the oracle.
type oracleResult struct {
	Query      string          `json:"query"`
	Shaped     *string         `json:"shaped_query,omitempty"`
	MaxResults json.RawMessage `json:"max_results"`
	Matches    []string        `json:"matches"`
	Total      int             `json:"total_deferred_tools"`
	Pending    []string        `json:"pending_mcp_servers,omitempty"`
	Notes      []string        `json:"notes,omitempty"`
	ToolResult struct {
		Content json.RawMessage `json:"content"`
	} `json:"tool_result"`
}

// noMatchText returns the tool_result text of a result without matches.
func (o *oracleResult) noMatchText() string {
	var s string
	if json.Unmarshal(o.ToolResult.Content, &s) != nil {
		return ""
	}
	return s
}

// oracle runs Claude Code 2.1.332's search code through run-oracle.sh.
type oracle struct {
	script, cache string
}

// run answers the queries of s, with the rules in ablate removed (see the
// oracle's README: coarse, parse89, descguard, terms) and, when uncut is
// set, the MCP descriptions given whole.
func (o *oracle) run(dir string, s *set, ablate []string, uncut bool) ([]oracleResult, error) {
	tools := filepath.Join(dir, s.Name+".oracle-tools.json")
	queries := filepath.Join(dir, s.Name+".oracle-queries.json")
	if err := writeJSON(tools, oracleTools(s.Tools, uncut)); err != nil {
		return nil, err
	}
	doc := struct {
		Pending []string `json:"pending_mcp_servers"`
		Queries []query  `json:"queries"`
	}{Pending: s.Pending, Queries: s.Queries}
	if doc.Pending == nil {
		doc.Pending = []string{}
	}
	if err := writeJSON(queries, doc); err != nil {
		return nil, err
	}
	args := []string{o.cache, tools, queries}
	if len(ablate) > 0 {
		args = append(args, "--ablate", strings.Join(ablate, ","))
	}
	cmd := exec.Command(o.script, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("oracle on %s: %v: %s", s.Name, err, stderr.String())
	}
	var res struct {
		Results []oracleResult `json:"results"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("oracle on %s: %v", s.Name, err)
	}
	if len(res.Results) != len(s.Queries) {
		return nil, fmt.Errorf("oracle on %s: %d results for %d queries", s.Name, len(res.Results), len(s.Queries))
	}
	return res.Results, nil
}

func writeJSON(path string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
