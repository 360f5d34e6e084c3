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
// It says what it is doing as it goes: a line when each step starts (with
// the time since the start), go test's line for each package as it
// finishes, and, when nothing was printed for 30 s (on a fresh machine the
// module downloads and the first builds take minutes), a line saying what
// still runs and how many packages are done. go vet runs with -race, the
// build go test -race makes, so that the two share one build of every
// package instead of making two.
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
	"sync"
	"time"
)

// workspaces are the directories whose go.work the command tests, in
// order. A module listed by more than one is tested with the first.
// benchmarks/go.work is left out on purpose: its peers (bleve, eino's own
// middleware) are large, and its tests run with cd benchmarks && go test.
var workspaces = []string{".", "genkit"}

// quiet is how long the command stays silent before it says what still
// runs.
const quiet = 30 * time.Second

func main() {
	p := newProgress(os.Stdout, time.Now)
	t := time.NewTicker(quiet / 6)
	go func() {
		for range t.C {
			p.beat()
		}
	}()
	status := run(os.Args[1:], p, p.writer(os.Stderr))
	t.Stop()
	os.Exit(status)
}

func run(args []string, p *progress, stderr io.Writer) int {
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
		where := filepath.Join(ws, "go.work")
		p.begin(fmt.Sprintf("%s, %d module(s): downloading what their tests need, listing their packages", where, len(patterns)), 0)
		pkgs, err := packages(ws, patterns, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "test: listing the packages of %s: %v\n", where, err)
			return 1
		}
		p.begin(fmt.Sprintf("%s: go vet -race, %d packages", where, pkgs), 0)
		vet := exec.Command("go", append([]string{"vet", "-race"}, patterns...)...)
		vet.Dir, vet.Stdout, vet.Stderr = ws, p, stderr
		if err := vet.Run(); err != nil {
			fmt.Fprintf(stderr, "test: go vet failed in %s\n", ws)
			return 1
		}
		p.begin(fmt.Sprintf("%s: go test -race, %d packages", where, pkgs), pkgs)
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
		skipped = append(skipped, report(events, p, p.packageDone)...)
		if err := test.Wait(); err != nil {
			status = 1
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(p, "\n%d skipped:\n", len(skipped))
		for _, s := range skipped {
			fmt.Fprintln(p, s)
		}
	}
	p.begin("done", 0)
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

// packages loads the packages of patterns in workspace ws and everything
// their tests import, downloading the modules that are missing, and
// returns the number of packages the patterns match.
func packages(ws string, patterns []string, stderr io.Writer) (int, error) {
	list := exec.Command("go", append([]string{"list", "-deps", "-test", "-f", "{{if not .DepOnly}}{{if not .ForTest}}{{.ImportPath}}{{end}}{{end}}"}, patterns...)...)
	list.Dir, list.Stderr = ws, stderr
	out, err := list.Output()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, path := range strings.Fields(string(out)) {
		if !strings.HasSuffix(path, ".test") { // a test's main package
			n++
		}
	}
	return n, nil
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
// that fail. It calls done when a package's tests are done. It returns a
// line per skipped test, with its reason.
//
// Two failures have no event of their own, and are shown all the same: a
// build error (build-output events, before the package's "[build failed]"
// line) and a test that never ended because its package's binary did (a
// -timeout panic, an os.Exit, a crash on another goroutine): its output,
// the panic and goroutine dump included, is written when the package fails,
// under a line naming it.
func report(r io.Reader, w io.Writer, done func()) (skipped []string) {
	output := map[string][]string{}  // of each running test, by package and name
	running := map[string][]string{} // the tests run in each package, by name, in order
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(w, sc.Text()) // not an event: pass it on
			continue
		}
		key := e.Package + " " + e.Test
		// unfinished writes (show) or drops the output of e.Package's tests
		// that have not ended.
		unfinished := func(show bool) {
			for _, test := range running[e.Package] {
				k := e.Package + " " + test
				if lines, ok := output[k]; ok && show {
					fmt.Fprintf(w, "--- DID NOT FINISH: %s (%s)\n", test, e.Package)
					printOutput(w, lines)
				}
				delete(output, k)
			}
		}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(w, e.Output)
		case e.Test == "" && e.Action == "output":
			if strings.HasPrefix(e.Output, "FAIL") { // the package's FAIL lines: its unfinished tests first
				unfinished(true)
			}
			if !strings.HasPrefix(e.Output, "=== ") && !strings.HasPrefix(e.Output, "PASS\n") {
				fmt.Fprint(w, e.Output)
			}
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			unfinished(e.Action == "fail")
			delete(running, e.Package)
			done()
		case e.Action == "run":
			running[e.Package] = append(running[e.Package], e.Test)
		case e.Action == "output":
			output[key] = append(output[key], e.Output)
		case e.Action == "fail":
			printOutput(w, output[key])
			delete(output, key)
		case e.Action == "skip":
			skipped = append(skipped, fmt.Sprintf("  %s %s: %s", e.Package, e.Test, reason(output[key])))
			delete(output, key)
		case e.Action == "pass":
			delete(output, key)
		}
	}
	return skipped
}

// printOutput writes a test's output lines but go test's "=== " ones.
func printOutput(w io.Writer, lines []string) {
	for _, l := range lines {
		if !strings.HasPrefix(l, "=== ") {
			fmt.Fprint(w, l)
		}
	}
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

// progress is the command's output: an io.Writer for what the steps print,
// which also says when a step starts and, after quiet, what still runs.
// It is safe for concurrent use.
type progress struct {
	mu          sync.Mutex
	w           io.Writer
	now         func() time.Time
	start, last time.Time // of the command; of the last write
	step        string    // what runs now
	done, total int       // packages tested in the step, of total (0: not a test step)
}

func newProgress(w io.Writer, now func() time.Time) *progress {
	t := now()
	return &progress{w: w, now: now, start: t, last: t}
}

// Write writes b, a step's output.
func (p *progress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = p.now()
	return p.w.Write(b)
}

// writer returns an io.Writer writing to w that counts as output of the
// steps (go vet's and the builds' errors, on stderr).
func (p *progress) writer(w io.Writer) io.Writer { return progressTo{p, w} }

type progressTo struct {
	p *progress
	w io.Writer
}

func (t progressTo) Write(b []byte) (int, error) {
	t.p.mu.Lock()
	defer t.p.mu.Unlock()
	t.p.last = t.p.now()
	return t.w.Write(b)
}

// begin says that step starts; total is the number of packages it tests,
// or 0.
func (p *progress) begin(step string, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.step, p.done, p.total = step, 0, total
	p.last = p.now()
	fmt.Fprintf(p.w, "test: [%s] %s\n", p.last.Sub(p.start).Round(time.Second), step)
}

// packageDone counts a package of the step as tested.
func (p *progress) packageDone() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
}

// beat says what still runs when nothing was written for quiet.
func (p *progress) beat() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if now.Sub(p.last) < quiet {
		return
	}
	p.last = now
	done := ""
	if p.total > 0 {
		done = fmt.Sprintf(" (%d of %d packages done; the others are being built or tested)", p.done, p.total)
	}
	fmt.Fprintf(p.w, "test: [%s] still running: %s%s\n", now.Sub(p.start).Round(time.Second), p.step, done)
}
