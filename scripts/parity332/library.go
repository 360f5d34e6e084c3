package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// The library side: `toolsearch batch` on a set's catalog and queries.

// libResult is one result of `toolsearch batch`.
type libResult struct {
	Query    string   `json:"query"`
	Matches  []string `json:"matches"`
	Total    *int     `json:"total_deferred_tools"`
	NotFound []string `json:"not_found"`
	Notes    []string `json:"notes"`
	Content  string   `json:"content"` // with --texts: the tool_result's text, without matches
	After    []string `json:"after"`   // with --texts: the texts after the tool_result
	Error    string   `json:"error"`
}

// reminders returns the texts after the tool_result that are
// <system-reminder> blocks, unwrapped: the notes Claude Code sends.
func (l *libResult) reminders() []string {
	var out []string
	for _, t := range l.After {
		if r, ok := strings.CutPrefix(t, "<system-reminder>\n"); ok {
			out = append(out, strings.TrimSuffix(r, "\n</system-reminder>"))
		}
	}
	return out
}

// library runs a built toolsearch command.
type library struct {
	bin  string   // the toolsearch binary
	args []string // more batch arguments (a profile, limits)
}

func (l *library) run(dir string, s *set) ([]libResult, error) {
	cat := filepath.Join(dir, s.Name+".catalog.json")
	qs := filepath.Join(dir, s.Name+".queries.json")
	if err := writeJSON(cat, struct {
		Tools []catTool `json:"tools"`
	}{s.Tools}); err != nil {
		return nil, err
	}
	if err := writeJSON(qs, s.Queries); err != nil {
		return nil, err
	}
	args := append([]string{"batch", "--catalog", cat, "--queries", qs}, l.args...)
	if len(s.Pending) > 0 {
		args = append(args, pendingArgs(s.Pending)...)
	}
	cmd := exec.Command(l.bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("toolsearch batch on %s: %v: %s", s.Name, err, stderr.String())
	}
	var res []libResult
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("toolsearch batch on %s: %v", s.Name, err)
	}
	if len(res) != len(s.Queries) {
		return nil, fmt.Errorf("toolsearch batch on %s: %d results for %d queries", s.Name, len(res), len(s.Queries))
	}
	return res, nil
}

// pendingArgs are the batch arguments that mark servers pending.
func pendingArgs(servers []string) []string { return []string{"--pending", strings.Join(servers, ",")} }
