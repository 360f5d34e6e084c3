package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
)

// The library side: `toolsearch batch` on a set's catalog and queries.

// libResult is one result of `toolsearch batch`.
type libResult struct {
	Query    string   `json:"query"`
	Matches  []string `json:"matches"`
	Total    *int     `json:"total_deferred_tools"`
	NotFound []string `json:"not_found"`
	Notes    []string `json:"notes"`
	Content  string   `json:"content"` // the no-match text, when batch reports it
	Error    string   `json:"error"`
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

// pendingArgs are the batch arguments that mark servers pending; none
// until batch has the flag.
var pendingArgs = func([]string) []string { return nil }
