package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// cliBench measures `toolsearch batch` as whole processes, as
// scripts/clibench/run.sh does: a process answering all the queries
// against one answering the first alone, the difference divided by the
// extra queries (start-up, reading the catalog and registering it cancel
// out). Claude Code's side of that script needs npm and is not run here.
type cliBench struct {
	bin, dir string
	queries  int
	runs     int
}

func prepareCLI(root, work string, quick bool) (*cliBench, error) {
	c := &cliBench{bin: filepath.Join(work, "toolsearch"), dir: filepath.Join(work, "cli"), queries: 20_000, runs: 5}
	if quick {
		c.runs = 3
	}
	progress("building the CLI and the mixed 10k catalog")
	for _, args := range [][]string{
		{"build", "-o", c.bin, "./cmd/toolsearch"},
		{"run", "./scripts/clibench/gen", "-n", "10000", "-queries", strconv.Itoa(c.queries), "-out", c.dir},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		if err := os.MkdirAll(c.dir, 0o755); err != nil {
			return nil, err
		}
		if b, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go %v: %v\n%s", args, err, b)
		}
	}
	return c, nil
}

// measure adds the row "CLIBatch" to the pass: the median over c.runs
// alternations of the wall ("ns/op") and CPU ("cpu-ns/op") time per
// query.
func (c *cliBench) measure(ps *pass) error {
	progress("CLI batch")
	before := loadAverage()
	var w1, wn, c1, cn []float64
	for range c.runs {
		for _, q := range []string{"queries-1.json", "queries.json"} {
			cmd := exec.Command("nice", "-n", "10", c.bin, "batch", "--catalog", filepath.Join(c.dir, "catalog.json"),
				"--queries", filepath.Join(c.dir, q))
			t0 := time.Now()
			if b, err := cmd.Output(); err != nil {
				return fmt.Errorf("toolsearch batch: %v\n%s", err, tail(b, 2000))
			}
			wall := float64(time.Since(t0).Nanoseconds())
			cpu := float64((cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Nanoseconds())
			if q == "queries.json" {
				wn, cn = append(wn, wall), append(cn, cpu)
			} else {
				w1, c1 = append(w1, wall), append(c1, cpu)
			}
		}
	}
	med := func(v []float64) float64 { slices.Sort(v); return v[len(v)/2] }
	extra := float64(c.queries - 1)
	ps.res["CLIBatch"] = []sample{{"ns/op": (med(wn) - med(w1)) / extra, "cpu-ns/op": (med(cn) - med(c1)) / extra}}
	ps.load = append(ps.load, loadSpan{"cli-batch", before, loadAverage()})
	return nil
}

// countReadme returns the instructions of the whole process `toolsearch
// search "create github issue"` (the README's first command) under
// callgrind.
func (c *cliBench) countReadme(work string) (uint64, error) {
	out := filepath.Join(work, "readme.cg.out")
	cmd := exec.Command("nice", "-n", "10", "/usr/bin/valgrind", "--tool=callgrind", "--callgrind-out-file="+out,
		c.bin, "search", "create github issue")
	cmd.Env = append(os.Environ(), "GODEBUG=asyncpreemptoff=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("callgrind toolsearch search: %v\n%s", err, tail(b, 2000))
	}
	return dumpTotal(out)
}
