// Command test is the repository's test command: go vet, then go test
// -race, over every module of the library's workspaces (the root go.work:
// the root module and the adapters; genkit/go.work: the Genkit adapter,
// which cannot share a build list with the anthropic adapter; not
// benchmarks). It prints go test's usual summary, the output of failing
// tests, and then every skipped test with the reason it gave, so that a
// test that could not run (the real MCP server tests without their npm
// packages, for example) is never silent. Run it from the repository root.
//
//	go run ./scripts/test                 # what .ci/run runs
//	go run ./scripts/test -run Servers    # extra arguments go to go test
//
// The exit status is go vet's or go test's when either fails.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// workspaces are the directories whose go.work the command tests, in
// order. A module listed by more than one is tested with the first.
// benchmarks/go.work is left out on purpose: its peers (bleve, eino's own
// middleware) are large, and its tests run with cd benchmarks && go test.
var workspaces = []string{".", "genkit"}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	seen := map[string]bool{}
	var skipped []string
	status := 0
	for _, ws := range workspaces {
		patterns, err := modules(ws, seen)
		if err != nil {
			fmt.Fprintf(stderr, "test: listing the modules of %s: %v\n", filepath.Join(ws, "go.work"), err)
			return 1
		}
		if len(patterns) == 0 {
			continue
		}
		vet := exec.Command("go", append([]string{"vet"}, patterns...)...)
		vet.Dir, vet.Stdout, vet.Stderr = ws, stdout, stderr
		if err := vet.Run(); err != nil {
			fmt.Fprintf(stderr, "test: go vet failed in %s\n", ws)
			return 1
		}
		test := exec.Command("go", append(append([]string{"test", "-race", "-json"}, args...), patterns...)...)
		test.Dir, test.Stderr = ws, stderr // build errors are not JSON
		events, err := test.StdoutPipe()
		if err != nil {
			fmt.Fprintln(stderr, "test:", err)
			return 1
		}
		if err := test.Start(); err != nil {
			fmt.Fprintln(stderr, "test:", err)
			return 1
		}
		skipped = append(skipped, report(events, stdout)...)
		if err := test.Wait(); err != nil {
			status = 1
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(stdout, "\n%d skipped:\n", len(skipped))
		for _, s := range skipped {
			fmt.Fprintln(stdout, s)
		}
	}
	return status
}

// modules returns a package pattern (dir/...) for each module of the
// workspace in directory ws that is not in seen, and adds them to seen.
func modules(ws string, seen map[string]bool) ([]string, error) {
	list := exec.Command("go", "list", "-m", "-f", "{{.Dir}}")
	list.Dir = ws
	out, err := list.Output()
	if err != nil {
		return nil, err
	}
	var patterns []string
	for _, dir := range strings.Fields(string(out)) {
		if !seen[dir] {
			seen[dir] = true
			patterns = append(patterns, dir+"/...")
		}
	}
	return patterns, nil
}

// event is one line of go test -json (see go doc test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// report reads go test -json events from r and writes what go test writes
// without -json and -v: a line per package, and the output of the tests
// that fail. It returns a line per skipped test, with its reason.
func report(r io.Reader, w io.Writer) (skipped []string) {
	output := map[string][]string{} // of each running test, by package and name
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(w, sc.Text()) // not an event: pass it on
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Test == "" && e.Action == "output":
			if !strings.HasPrefix(e.Output, "=== ") && !strings.HasPrefix(e.Output, "PASS\n") {
				fmt.Fprint(w, e.Output)
			}
		case e.Action == "output":
			output[key] = append(output[key], e.Output)
		case e.Action == "fail" && e.Test != "":
			for _, l := range output[key] {
				if !strings.HasPrefix(l, "=== ") {
					fmt.Fprint(w, l)
				}
			}
			delete(output, key)
		case e.Action == "skip" && e.Test != "":
			skipped = append(skipped, fmt.Sprintf("  %s %s: %s", e.Package, e.Test, reason(output[key])))
			delete(output, key)
		case e.Action == "pass":
			delete(output, key)
		}
	}
	return skipped
}

// reason returns what a skipped test logged, without go test's own lines.
func reason(lines []string) string {
	var b bytes.Buffer
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString(t)
	}
	if b.Len() == 0 {
		return "(no reason given)"
	}
	return b.String()
}
