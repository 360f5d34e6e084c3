package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Instruction counts come from whole processes, not from toggling
// collection around a function: Go switches goroutine stacks (morestack,
// systemstack, the benchmark's own goroutine), which callgrind's
// --toggle-collect follows badly (a harness that toggled per query
// reported 1,033 instructions for a 3-keyword query at 10k tools), and
// dumps triggered on entering a function come at spurious places too (a
// goroutine that resumes looks to callgrind like a new call).
//
// So a row is counted by running the test binary under callgrind with
// that row alone, twice: -benchtime 2x and (2+n)x. Everything but the
// queries is the same in the two processes (loading the data, building
// the registry and the indexes, the warm-up), so the difference of the
// two totals divided by n is the cost of one query, averaged over n
// queries (n a multiple of the 200 queries a row cycles through, so that
// each counts as often as the others). 1x is not the baseline: go test
// ends a 1x benchmark on another path. The difference must be at least
// minShare of the whole process, or the count is refused as noise. With
// check, a third process runs (2+2n)x: the second n queries must cost
// what the first did (within checkTolerance), or the count is refused.
//
// GOGC=off keeps the garbage collector, whose timing differs from one
// process to the next, out of the counts (so they leave out the
// collector's share of a query's cost: these rows allocate under 1.5 KB a
// query); GODEBUG=asyncpreemptoff=1 is what Go needs under valgrind.

const (
	checkTolerance = 0.03
	minShare       = 0.01
)

// A countJob is a set of rows of one package counted with n queries each.
type countJob struct {
	key  string
	pkg  string
	env  []string
	rows []string // benchmark names
	n    int
}

// A count is one row's instructions per query.
type count struct {
	perQuery float64
	check    float64 // (third − second) ÷ (second − first); 0 when not run
}

// countRows counts every row of j, running at most par processes at
// once, and returns the instructions per query by benchmark name.
func countRows(bin, root, work string, j countJob, check bool, par int) (map[string]count, error) {
	iters := []int{2, 2 + j.n}
	if check {
		iters = append(iters, 2+2*j.n)
	}
	totals := make([][]uint64, len(j.rows))
	errs := make([]error, len(j.rows)*len(iters))
	sem := make(chan struct{}, max(par, 1))
	var wg sync.WaitGroup
	for r, name := range j.rows {
		totals[r] = make([]uint64, len(iters))
		for i, it := range iters {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				dir := filepath.Join(work, fmt.Sprintf("%s-%d-%d", j.key, r, it))
				totals[r][i], errs[r*len(iters)+i] = callgrind(bin, filepath.Join(root, j.pkg), dir, j.env, name, it)
			})
		}
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	out := map[string]count{}
	for r, name := range j.rows {
		t := totals[r]
		first := float64(t[1]) - float64(t[0])
		if first < minShare*float64(t[1]) {
			return nil, fmt.Errorf("count %s: %d more queries cost %.0f of %d instructions: too few to tell from the noise",
				name, j.n, first, t[1])
		}
		c := count{perQuery: first / float64(j.n)}
		if check {
			c.check = (float64(t[2]) - float64(t[1])) / first
			if c.check < 1-checkTolerance || c.check > 1+checkTolerance {
				return nil, fmt.Errorf("count %s: the second %d queries cost ×%.3f the first: the counts are not linear", name, j.n, c.check)
			}
		}
		out[name] = c
	}
	return out, nil
}

// benchPattern is the -bench pattern that selects the benchmark name
// alone.
func benchPattern(name string) string {
	parts := strings.Split("Benchmark"+name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// callgrind runs the benchmark name alone at -benchtime itx under
// callgrind in the package directory pkgDir and returns the instructions
// of the whole process.
func callgrind(bin, pkgDir, dir string, env []string, name string, it int) (uint64, error) {
	if err := os.RemoveAll(dir); err != nil {
		return 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	outFile := filepath.Join(dir, "cg.out")
	cmd := exec.Command("nice", "-n", "10", "/usr/bin/valgrind", "--tool=callgrind", "--callgrind-out-file="+outFile,
		bin, "-test.run", "^$", "-test.bench", benchPattern(name), "-test.benchtime", strconv.Itoa(it)+"x", "-test.cpu", "1")
	cmd.Dir = pkgDir
	cmd.Env = append(append(os.Environ(), "GODEBUG=asyncpreemptoff=1", "GOGC=off"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("callgrind %s (%dx): %v\n%s%s", name, it, err, stdout.Bytes(), tail(stderr.Bytes(), 2000))
	}
	if ran := parseBench(stdout.Bytes(), 1); len(ran) != 1 || ran[name] == nil {
		return 0, fmt.Errorf("callgrind %s (%dx): ran %d benchmarks, not that one\n%s", name, it, len(ran), stdout.Bytes())
	}
	return dumpTotal(outFile)
}

// dumpTotal reads the instructions of one callgrind dump (its "summary:"
// or "totals:" line).
func dumpTotal(path string) (uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		for _, p := range []string{"summary:", "totals:"} {
			if v, ok := strings.CutPrefix(line, p); ok {
				f := strings.Fields(v)
				if len(f) == 0 {
					return 0, fmt.Errorf("%s: empty %s line", path, p)
				}
				return strconv.ParseUint(f[0], 10, 64)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%s: no summary or totals line", path)
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
