// Command mutation checks that the tests SECURITY.md cites can fail: for
// each entry of its table (table.go) it removes one protection from a
// copy of the root module and runs the tests the matching row names, which
// must then fail. A protection whose tests still pass is reported as
// SURVIVED, and the command fails.
//
//	go run ./scripts/mutation                      # every entry (several minutes)
//	go run ./scripts/mutation -run 'UTF-8|regex'   # entries whose row matches
//	go run ./scripts/mutation -out scripts/mutation/results.txt
//
// The copy is taken from the files git tracks (the nested modules left
// out) and tested with GOWORK=off, so the adapters need not build.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// mutation is one protection removed.
type mutation struct {
	Row   string // the SECURITY.md row it checks
	File  string // relative to the repository root
	Old   string // exact text of File, found once
	New   string // what replaces it
	Tests string // the tests the row names, as a go test -run alternation
	Pkg   string // the package holding them, relative to the root
}

func main() {
	runPat := flag.String("run", "", "only the entries whose row matches this regular expression")
	out := flag.String("out", "", "also write the results to this file")
	flag.Parse()
	os.Exit(run(*runPat, *out, os.Stdout, os.Stderr))
}

func run(runPat, out string, stdout, stderr io.Writer) int {
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(stderr, "mutation:", err)
		return 1
	}
	if err := check(root, mutations); err != nil {
		fmt.Fprintln(stderr, "mutation:", err)
		return 1
	}
	re, err := regexp.Compile(runPat)
	if err != nil {
		fmt.Fprintln(stderr, "mutation: -run:", err)
		return 2
	}
	work, err := os.MkdirTemp("", "toolsearch-mutation-")
	if err != nil {
		fmt.Fprintln(stderr, "mutation:", err)
		return 1
	}
	defer os.RemoveAll(work)
	if err := copyModule(root, work); err != nil {
		fmt.Fprintln(stderr, "mutation: copying the module:", err)
		return 1
	}
	var report bytes.Buffer
	w := io.MultiWriter(stdout, &report)
	rev, _ := exec.Command("git", "-C", root, "describe", "--always", "--dirty").Output()
	fmt.Fprintf(w, "mutation check of %s, %s, %d entries\n", strings.TrimSpace(string(rev)), time.Now().UTC().Format(time.DateTime), len(mutations))
	failed := 0
	for _, m := range mutations {
		if !re.MatchString(m.Row) {
			continue
		}
		status, detail := apply(work, m)
		if status != "killed" {
			failed++
		}
		fmt.Fprintf(w, "%-8s %-60s %s: %s\n", status, m.Row, m.File, detail)
	}
	fmt.Fprintf(w, "%d entries did not make their tests fail\n", failed)
	if out != "" {
		if err := os.WriteFile(out, report.Bytes(), 0o644); err != nil {
			fmt.Fprintln(stderr, "mutation:", err)
			return 1
		}
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// apply removes m's protection in the copy at work, runs its tests and
// puts the file back. The status is "killed" when the tests failed,
// "SURVIVED" when they passed, "BROKEN" when the mutated code does not
// build (the table is wrong).
func apply(work string, m mutation) (status, detail string) {
	path := filepath.Join(work, m.File)
	orig, err := os.ReadFile(path)
	if err != nil {
		return "BROKEN", err.Error()
	}
	defer os.WriteFile(path, orig, 0o644)
	mutated := strings.Replace(string(orig), m.Old, m.New, 1)
	if err := os.WriteFile(path, []byte(mutated), 0o644); err != nil {
		return "BROKEN", err.Error()
	}
	cmd := exec.Command("go", "test", "-count=1", "-vet=off", "-run", "^("+m.Tests+")$", m.Pkg)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	outb, err := cmd.CombinedOutput()
	output := string(outb)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return "SURVIVED", m.Tests + " passed"
	case !errors.As(err, &exit):
		return "BROKEN", err.Error()
	case strings.Contains(output, "[build failed]") || strings.Contains(output, "[setup failed]"):
		return "BROKEN", firstLines(output, 3)
	}
	return "killed", "failed: " + strings.Join(failedTests(output), ", ")
}

// failedTests returns the top-level tests go test reported as failing.
func failedTests(output string) []string {
	var names []string
	for _, line := range strings.Split(output, "\n") {
		if name, ok := strings.CutPrefix(line, "--- FAIL: "); ok {
			name, _, _ = strings.Cut(name, " ")
			names = append(names, name)
		}
		if strings.HasPrefix(line, "panic:") {
			names = append(names, "(panic)")
		}
	}
	if len(names) == 0 {
		names = append(names, "(no test named: "+firstLines(output, 1)+")")
	}
	return names
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], " / ")
}

// check verifies the table against the sources: each Old occurs exactly
// once in its file, differs from New, and each test named exists in its
// package.
func check(root string, table []mutation) error {
	var errs []error
	for _, m := range table {
		src, err := os.ReadFile(filepath.Join(root, m.File))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if n := strings.Count(string(src), m.Old); n != 1 {
			errs = append(errs, fmt.Errorf("%s: %q occurs %d times in %s", m.Row, m.Old, n, m.File))
		}
		if m.Old == m.New {
			errs = append(errs, fmt.Errorf("%s: the replacement changes nothing", m.Row))
		}
		tests, err := testSources(filepath.Join(root, m.Pkg))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, name := range strings.Split(m.Tests, "|") {
			if !strings.Contains(tests, "func "+name+"(") {
				errs = append(errs, fmt.Errorf("%s: no test %s in %s", m.Row, name, m.Pkg))
			}
		}
	}
	return errors.Join(errs...)
}

// testSources returns the _test.go files of the package in dir.
func testSources(dir string) (string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		b.Write(data)
	}
	return b.String(), nil
}

// repoRoot returns the root module's directory.
func repoRoot() (string, error) {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("finding the repository: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// copyModule copies the files git tracks in root, except those of nested
// modules and of go.work, to dst.
func copyModule(root, dst string) error {
	out, err := exec.Command("git", "-C", root, "ls-files").Output()
	if err != nil {
		return err
	}
	nested := map[string]bool{}
	files := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, f := range files {
		if filepath.Base(f) == "go.mod" && filepath.Dir(f) != "." {
			nested[filepath.Dir(f)] = true
		}
	}
	for _, f := range files {
		if f == "go.work" || f == "go.work.sum" || inNested(f, nested) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return err
		}
		p := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func inNested(f string, nested map[string]bool) bool {
	for d := filepath.Dir(f); d != "." && d != "/"; d = filepath.Dir(d) {
		if nested[d] {
			return true
		}
	}
	return false
}
