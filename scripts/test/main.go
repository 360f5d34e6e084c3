// Command test is the repository's test command: go vet, then go test
// -race, over every module of the workspace (the root module and the
// adapters listed in go.work; not benchmarks). It prints go test's usual
// summary, the output of failing tests, and then every skipped test with
// the reason it gave, so that a test that could not run (the real MCP
// server tests without their npm packages, for example) is never silent.
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
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}/...").Output()
	if err != nil {
		fmt.Fprintln(stderr, "test: listing the workspace modules:", err)
		return 1
	}
	patterns := strings.Fields(string(out))

	vet := exec.Command("go", append([]string{"vet"}, patterns...)...)
	vet.Stdout, vet.Stderr = stdout, stderr
	if err := vet.Run(); err != nil {
		fmt.Fprintln(stderr, "test: go vet failed")
		return 1
	}

	test := exec.Command("go", append(append([]string{"test", "-race", "-json"}, args...), patterns...)...)
	test.Stderr = stderr // build errors are not JSON
	events, err := test.StdoutPipe()
	if err != nil {
		fmt.Fprintln(stderr, "test:", err)
		return 1
	}
	if err := test.Start(); err != nil {
		fmt.Fprintln(stderr, "test:", err)
		return 1
	}
	skipped := report(events, stdout)
	err = test.Wait()
	if len(skipped) > 0 {
		fmt.Fprintf(stdout, "\n%d skipped:\n", len(skipped))
		for _, s := range skipped {
			fmt.Fprintln(stdout, s)
		}
	}
	if err != nil {
		return 1
	}
	return 0
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
