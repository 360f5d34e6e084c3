// Command parity332 compares toolsearch with Claude Code 2.1.332's own
// ToolSearch code, run by the oracle of shared/reference/oracle332 (which
// extracts that code from Claude Code's npm package at setup; nothing of
// it is in this repository). It is a development check, not run in CI:
// the oracle needs Node, the npm registry and about 650 MB at setup.
//
//	ORACLE332_CACHE=DIR go run ./scripts/parity332                 # compare, classify the differences
//	go run ./scripts/parity332 -cache DIR -args '--profile claude-code-2.1.332' -texts
//	go run ./scripts/parity332 -cache DIR -record testdata/parity/claude-code-2.1.332.json
//
// The sets compared:
//   - demo: the demo catalog (internal/demo) and the queries of
//     testdata/quality;
//   - gen-N: catalogs and queries made by gen.go from seed N: built-in and
//     MCP tools, raw MCP names with ".", spaces, camelCase, "-", hints,
//     aliases, names that differ only in case, long MCP descriptions and
//     hints; keywords, +required terms, pasted tool names, joined name
//     words, select: with full names, bare MCP tool names and more than 64
//     names, MCP prefixes, sentences of more than 32 terms, whitespace of
//     every kind, case variants, queries near 16,384 UTF-16 code units;
//   - cc-N (with -crosscheck): scripts/crosscheck/gen.py's catalogs and
//     queries.
//
// The library answers through `toolsearch batch` (built from this
// checkout; -args adds arguments, such as a profile). The oracle is fed
// the tools in the library's pool order, so that ties break alike, and the
// MCP descriptions cut at 4,096 UTF-16 code units as Claude Code 2.1.332
// cuts them where it builds MCP tools (the oracle takes descriptions as
// given). A query differs when the matches differ (with -texts, also the
// notes and the no-match text). Each difference is put in a class: the
// first combination of 2.1.332 rules whose removal from the oracle
// (--ablate) gives the library's answer, else a class from the query's
// shape.
//
// -record writes the oracle's answers for the sets into a file that the
// package's tests compare the library with, without Claude Code (the
// library is not run then).
package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "parity332:", err)
		os.Exit(2)
	}
}

func run() error {
	oraclePath := flag.String("oracle", os.Getenv("ORACLE332"), "run-oracle.sh (default: shared/reference/oracle332/run-oracle.sh in a directory above the checkout)")
	cache := flag.String("cache", os.Getenv("ORACLE332_CACHE"), "the oracle's CACHE_DIR, made by its setup.sh (or $ORACLE332_CACHE)")
	seeds := flag.Int("seeds", 40, "generated catalogs (seeds 1..N)")
	perSet := flag.Int("queries", 50, "queries per generated catalog")
	demo := flag.Bool("demo", true, "compare the demo catalog with the queries of testdata/quality")
	cross := flag.Int("crosscheck", 0, "also scripts/crosscheck/gen.py's catalogs (seeds 1..N; needs python3)")
	extra := flag.String("args", "", "more arguments for toolsearch batch, space-separated")
	texts := flag.Bool("texts", false, "compare the notes and the no-match text too (batch gets --texts)")
	classify := flag.Bool("classify", true, "classify the differences with the oracle's --ablate")
	record := flag.String("record", "", "write the oracle's answers to this file")
	verbose := flag.Bool("v", false, "print every difference")
	longHints := flag.Bool("long-hints", true, "generate hints over 4,096 UTF-16 code units (batch must accept them)")
	longQueries := flag.Bool("long-queries", true, "generate queries near 16,384 UTF-16 code units")
	flag.Parse()

	root, err := moduleRoot()
	if err != nil {
		return err
	}
	if *oraclePath == "" {
		*oraclePath = findAbove(root, filepath.Join("shared", "reference", "oracle332", "run-oracle.sh"))
	}
	if *oraclePath == "" || *cache == "" {
		return errors.New("need the oracle: -oracle run-oracle.sh (or shared/reference/oracle332 above the checkout) and -cache CACHE_DIR (or $ORACLE332_CACHE)")
	}
	work, err := os.MkdirTemp("", "parity332-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	bin := filepath.Join(work, "toolsearch")
	build := exec.Command("go", "build", "-o", bin, "./cmd/toolsearch")
	build.Dir, build.Stderr = root, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/toolsearch: %w", err)
	}
	orc := &oracle{script: *oraclePath, cache: *cache}
	lib := &library{bin: bin, args: strings.Fields(*extra)}
	if *texts {
		lib.args = append(lib.args, "--texts")
	}

	var sets []*set
	if *demo {
		s, err := demoSet(root)
		if err != nil {
			return err
		}
		sets = append(sets, s)
	}
	gen := generator{Seeds: *seeds, Queries: *perSet, LongHints: *longHints, LongQueries: *longQueries}
	sets = append(sets, gen.sets()...)
	for seed := 1; seed <= *cross; seed++ {
		s, err := crosscheckSet(root, work, seed)
		if err != nil {
			return err
		}
		sets = append(sets, s)
	}

	type tally struct{ queries, differ, first int }
	bySource := map[string]*tally{}
	classes := map[string]int{}
	var diffs []diff
	var recorded []recordedSet
	for _, s := range sets {
		want, err := orc.run(work, s, nil, false)
		if err != nil {
			return err
		}
		if *record != "" {
			recorded = append(recorded, recordSet(s, want))
			continue
		}
		got, err := lib.run(work, s)
		if err != nil {
			return err
		}
		src := strings.SplitN(s.Name, "-", 2)[0]
		t := bySource[src]
		if t == nil {
			t = &tally{}
			bySource[src] = t
		}
		var here []int
		for i := range want {
			t.queries++
			if !same(&want[i], &got[i], *texts) {
				t.differ++
				if firstDiffers(&want[i], &got[i]) {
					t.first++
				}
				here = append(here, i)
			}
		}
		if len(here) > 0 && *classify {
			class := make([]string, len(want))
			for _, a := range ablations {
				alt, err := orc.run(work, s, a.rules, a.uncut)
				if err != nil {
					return err
				}
				for _, i := range here {
					if class[i] == "" && same(&alt[i], &got[i], *texts) {
						class[i] = a.name
					}
				}
			}
			for _, i := range here {
				c := cmp.Or(class[i], shapeClass(s, s.Queries[i].Query, &want[i], &got[i]))
				classes[c]++
				diffs = append(diffs, diff{set: s.Name, query: s.Queries[i], oracle: want[i], lib: got[i], class: c})
			}
		}
	}

	if *verbose {
		for _, d := range diffs {
			q, _ := json.Marshal(d.query.Query)
			if len(q) > 200 {
				q = append(q[:200], "…"...)
			}
			fmt.Printf("%s %s [%s]\n  claude-code-2.1.332: %v %q %q\n  toolsearch:          %v %q %q %s\n", d.set, q, d.class,
				d.oracle.Matches, d.oracle.Notes, d.oracle.noMatchText(), d.lib.Matches, d.lib.reminders(), d.lib.Content, d.lib.Error)
		}
	}
	total, differ := 0, 0
	for _, src := range slices.Sorted(mapKeys(bySource)) {
		t := bySource[src]
		total += t.queries
		differ += t.differ
		fmt.Printf("%-5s %5d queries, %4d differ (first match: %d)\n", src, t.queries, t.differ, t.first)
	}
	fmt.Printf("all   %5d queries, %4d differ\n", total, differ)
	for _, c := range slices.SortedFunc(mapKeys(classes), func(a, b string) int { return cmp.Or(classes[b]-classes[a], strings.Compare(a, b)) }) {
		fmt.Printf("  %5d  %s\n", classes[c], c)
	}
	if *record != "" {
		if err := writeRecord(*record, recorded, gen); err != nil {
			return err
		}
		fmt.Printf("recorded %d sets in %s\n", len(recorded), *record)
	}
	return nil
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// moduleRoot returns the directory of the root module's go.mod, from the
// working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(b), "module github.com/toolsearch/toolsearch\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run from inside the toolsearch checkout")
		}
		dir = parent
	}
}

// findAbove returns the first dir/rel that exists in a directory above
// root, or "".
func findAbove(root, rel string) string {
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		if p := filepath.Join(dir, rel); fileExists(p) {
			return p
		}
		if dir == filepath.Dir(dir) {
			return ""
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// demoSet is the demo catalog and the queries of testdata/quality.
func demoSet(root string) (*set, error) {
	b, err := os.ReadFile(filepath.Join(root, "internal", "demo", "catalog.json"))
	if err != nil {
		return nil, err
	}
	var cat struct {
		Tools []catTool `json:"tools"`
	}
	if err := json.Unmarshal(b, &cat); err != nil {
		return nil, err
	}
	s := &set{Name: "demo", Tools: cat.Tools}
	files, err := filepath.Glob(filepath.Join(root, "testdata", "quality", "*.json"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var d struct {
			Queries []query `json:"queries"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		s.Queries = append(s.Queries, d.Queries...)
	}
	return s, nil
}

// crosscheckSet is catalog seed of scripts/crosscheck/gen.py.
func crosscheckSet(root, work string, seed int) (*set, error) {
	cmd := exec.Command("python3", filepath.Join(root, "scripts", "crosscheck", "gen.py"), fmt.Sprint(seed))
	cmd.Dir, cmd.Stderr = work, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("gen.py %d: %w", seed, err)
	}
	var cat struct {
		Tools []catTool `json:"tools"`
	}
	b, err := os.ReadFile(filepath.Join(work, fmt.Sprintf("cat%d.json", seed)))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &cat); err != nil {
		return nil, err
	}
	b, err = os.ReadFile(filepath.Join(work, fmt.Sprintf("q%d.json", seed)))
	if err != nil {
		return nil, err
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	s := &set{Name: fmt.Sprintf("cc-%d", seed), Tools: cat.Tools}
	for _, r := range raw {
		var q query
		if err := json.Unmarshal(r, &q.Query); err != nil {
			if err := json.Unmarshal(r, &q); err != nil {
				return nil, err
			}
		}
		s.Queries = append(s.Queries, q)
	}
	return s, nil
}
