// Command callgrind counts the instructions of the query engines with
// valgrind's callgrind, which do not depend on the machine's load: for
// each ranker (floor, default, bm25, hybrid), query shape and catalog
// size it runs the root package's TestCallgrindQueries under callgrind,
// counting only the 200 queries (callgrindLoop, after one warm-up pass),
// and prints instructions per query and per posting (the postings the
// queries' words have, counted the same way for every ranker). Run it from
// the repository root:
//
//	go run ./scripts/callgrind                         # 10k and 100k, every ranker, keywords-1, keywords-3, request
//	go run ./scripts/callgrind -sizes 100000 -rankers hybrid -shapes keywords-3
//	go run ./scripts/callgrind -bin /tmp/before.test   # a test binary built elsewhere (go test -c)
//
// Not yet trustworthy: a first 10k run gave counts far below what the
// queries must cost, so the per-call dumps need checking against a
// whole-run count before its figures are published. It needs valgrind
// (/usr/bin/valgrind). Building each catalog under
// valgrind takes a while (about a minute at 100k tools).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

func main() {
	sizes := flag.String("sizes", "10000,100000", "catalog sizes, comma-separated")
	rankers := flag.String("rankers", "floor,default,bm25,hybrid", "rankers, comma-separated")
	shapes := flag.String("shapes", "keywords-1,keywords-3,request", "query shapes, comma-separated")
	bin := flag.String("bin", "", "a test binary of the root package (default: built with go test -c)")
	flag.Parse()
	if err := run(*bin, split(*sizes), split(*rankers), split(*shapes)); err != nil {
		fmt.Fprintln(os.Stderr, "callgrind:", err)
		os.Exit(1)
	}
}

func split(s string) []string {
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func run(bin string, sizes, rankers, shapes []string) error {
	dir, err := os.MkdirTemp("", "callgrind")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if bin == "" {
		bin = filepath.Join(dir, "toolsearch.test")
		cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go test -c: %w", err)
		}
	}
	bin, err = filepath.Abs(bin)
	if err != nil {
		return err
	}
	fmt.Println("| ranker | shape | n | instructions/query | postings/query | instructions/posting |")
	fmt.Println("|---|---|---:|---:|---:|---:|")
	for _, n := range sizes {
		rows, err := measure(bin, dir, n+":"+strings.Join(rankers, ",")+":"+strings.Join(shapes, ","))
		if err != nil {
			return err
		}
		for _, r := range rows {
			fmt.Printf("| %s | %s | %s | %s | %.0f | %.1f |\n", r.ranker, r.shape, n, group(r.ir/uint64(r.queries)),
				float64(r.postings)/float64(r.queries), float64(r.ir)/float64(max(r.postings, 1)))
		}
	}
	return nil
}

// row is one count: a ranker's instructions over the queries of a shape.
type row struct {
	ranker, shape     string
	ir                uint64
	queries, postings int
}

var (
	workload = regexp.MustCompile(`(?m)^callgrind: (\S+) (\S+) \d+ queries (\d+) postings (\d+)$`)
	summary  = regexp.MustCompile(`(?m)^(?:summary|totals): (\d+)`)
)

// measure runs the workload spec (TestCallgrindQueries) under callgrind,
// which writes a count after each call of callgrindLoop (out.1, out.2, …,
// in the order of the test's lines).
func measure(bin, dir, spec string) ([]row, error) {
	out := filepath.Join(dir, "callgrind.out")
	cmd := exec.Command("valgrind", "--tool=callgrind", "--callgrind-out-file="+out,
		"--collect-atstart=no", "--toggle-collect=*callgrindLoop", "--dump-after=*callgrindLoop",
		bin, "-test.run=^TestCallgrindQueries$", "-test.count=1")
	cmd.Dir = "." // the test reads testdata from the package directory
	cmd.Env = append(os.Environ(), "TOOLSEARCH_CALLGRIND="+spec, "GOMAXPROCS=1",
		"GODEBUG=asyncpreemptoff=1") // callgrind fails on the signals of asynchronous preemption
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %w\n%s%s", spec, err, stdout.Bytes(), stderr.Bytes())
	}
	var rows []row
	for i, m := range workload.FindAllSubmatch(stdout.Bytes(), -1) {
		r := row{ranker: string(m[1]), shape: string(m[2])}
		r.queries, _ = strconv.Atoi(string(m[3]))
		r.postings, _ = strconv.Atoi(string(m[4]))
		data, err := os.ReadFile(out + "." + strconv.Itoa(i+1))
		if err != nil {
			return nil, fmt.Errorf("%s: the count of %s %s: %w", spec, r.ranker, r.shape, err)
		}
		s := summary.FindSubmatch(data)
		if s == nil || r.queries == 0 {
			return nil, fmt.Errorf("%s: no instruction count for %s %s", spec, r.ranker, r.shape)
		}
		r.ir, _ = strconv.ParseUint(string(s[1]), 10, 64)
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: the test printed no workload line:\n%s", spec, stdout.Bytes())
	}
	return rows, nil
}

// group writes n with a comma between groups of three digits.
func group(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
