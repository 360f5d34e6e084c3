// Command figures measures the figures README.md and BENCHMARKS.md state,
// so that what they publish is what anyone re-running it gets: every
// headline benchmark row run in two or more passes at different moments
// (ranges: the lowest and highest of the passes' medians, with the load
// average around each job and the machine), callgrind instruction counts
// for the keyword rows (which do not depend on the load), and the growth
// of each strategy's 1- and 3-keyword query from 100k to 1M tools (the
// 1M registry and indexes built once per pass). It prints a markdown
// report to paste, marked with the commit it measured.
//
//	go run ./scripts/figures -quick -growth=false -counts=false  # the wall passes
//	go run ./scripts/figures -quick -wall=false                  # counts at 10k, growth to 1M
//	go run ./scripts/figures          # 3 passes, longer runs, counts at 100k, checks
//
// On the 2-core VM at a load average of 24–40 the first line took 9.6
// minutes; the second took more than 20 (the 1M registry and indexes, and
// callgrind, each got a fraction of a core): run them at a quieter moment
// or apart.
//
// Run it from the repository root. It needs valgrind (/usr/bin/valgrind)
// for the counts (-counts=false leaves them out) and about 6 GB of memory
// for the 1M pass (-growth=false leaves it out). Timings are of a machine
// that may be shared: the report gives the load average of every job;
// read ratios within one pass, and instruction counts, before absolute
// times.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

func main() {
	quick := flag.Bool("quick", false, "fewer and shorter runs: 2 passes, counts at 10k only, one 1M pass")
	passes := flag.Int("passes", 0, "passes over the benchmarks (default 2; 3 unless -quick)")
	pause := flag.Duration("pause", 0, "wait between passes (default 20s with -quick, 2m otherwise)")
	counts := flag.Bool("counts", true, "count instructions with callgrind")
	growth := flag.Bool("growth", true, "measure 100k → 1M growth")
	wall := flag.Bool("wall", true, "run the wall-time passes (-wall=false: only the counts and the growth, once)")
	out := flag.String("out", "", "also write the report to this `file`")
	flag.Parse()
	if *passes <= 0 {
		*passes = 3
		if *quick {
			*passes = 2
		}
	}
	if *pause <= 0 {
		*pause = 2 * time.Minute
		if *quick {
			*pause = 20 * time.Second
		}
	}
	if err := measure(os.Stdout, *out, *quick, *passes, *pause, *wall, *counts, *growth); err != nil {
		fmt.Fprintln(os.Stderr, "figures:", err)
		os.Exit(1)
	}
}

// measure runs everything and writes the report to w; with out, it also
// writes the report so far to that file after every stage, so that a run
// cut short leaves what it measured.
func measure(w io.Writer, out string, quick bool, passes int, pause time.Duration, doWall, doCounts, doGrowth bool) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	if b, err := os.ReadFile("go.mod"); err != nil || !bytes.Contains(b, []byte("module github.com/toolsearch/toolsearch\n")) {
		return errors.New("run it from the repository root")
	}
	m := describeMachine(root)
	work, err := os.MkdirTemp("", "figures")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	jobs := wallJobs(quick)
	gjobs := growthJobs(quick)
	progress("building the test binaries")
	bins, err := binaries(root, work, append(slices.Clone(jobs), gjobs...))
	if err != nil {
		return err
	}
	cli, err := prepareCLI(root, work, quick)
	if err != nil {
		return err
	}
	var all, grown []pass
	var cnt map[string]count
	var readmeInstr uint64
	save := func() {
		if out == "" {
			return
		}
		var b bytes.Buffer
		_ = writeReport(&b, m, quick, all, grown, cnt, readmeInstr)
		if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
			progress(err.Error())
		}
	}
	if !doWall {
		passes = 1
	}
	start := time.Now()
	for p := range passes {
		if p > 0 {
			progress(fmt.Sprintf("pausing %s before pass %d", pause, p+1))
			time.Sleep(pause)
		}
		if doWall {
			ps, err := runPass(root, bins, jobs, fmt.Sprintf("pass %d", p+1))
			if err != nil {
				return err
			}
			if err := cli.measure(&ps); err != nil {
				return err
			}
			all = append(all, ps)
			save()
		}
		if doGrowth && (p == 0 || !quick) {
			gp, err := runPass(root, bins, gjobs, fmt.Sprintf("growth pass %d", p+1))
			if err != nil {
				return err
			}
			grown = append(grown, gp)
			save()
		}
		if doCounts && p == 0 { // between the first two passes: they run at different moments
			progress("counting instructions under callgrind")
			if cnt, err = countAll(root, bins, work, quick); err != nil {
				return err
			}
			if readmeInstr, err = cli.countReadme(work); err != nil {
				return err
			}
			save()
		}
	}
	progress(fmt.Sprintf("done in %s", time.Since(start).Round(time.Second)))
	save()
	return writeReport(w, m, quick, all, grown, cnt, readmeInstr)
}

func runPass(root string, bins map[string]string, jobs []job, name string) (pass, error) {
	ps := pass{start: time.Now(), res: results{}}
	for _, j := range jobs {
		progress(name + ": " + j.key)
		before := loadAverage()
		res, err := runJob(root, bins[j.pkg], j)
		if err != nil { // the other jobs' figures are still worth having; the report says what failed
			progress(err.Error())
			ps.errs = append(ps.errs, err)
			continue
		}
		ps.load = append(ps.load, loadSpan{j.key, before, loadAverage()})
		for k, v := range res {
			ps.res[k] = append(ps.res[k], v...)
		}
	}
	ps.end = time.Now()
	return ps, nil
}

func countAll(root string, bins map[string]string, work string, quick bool) (map[string]count, error) {
	out := map[string]count{}
	for _, j := range countJobs(quick) {
		c, err := countRows(bins[j.pkg], root, work, j, !quick, 2)
		if err != nil {
			return nil, err
		}
		for k, v := range c {
			out[k] = v
		}
	}
	return out, nil
}

func progress(s string) {
	fmt.Fprintf(os.Stderr, "figures: %s %s\n", time.Now().UTC().Format("15:04:05"), s)
}

// rangeOf returns the lowest and highest of the row's value over the
// passes, and how many passes had it.
func rangeOf(r row, ps []pass) (lo, hi float64, n int) {
	for _, p := range ps {
		v, ok := r.value(p.res)
		if !ok {
			continue
		}
		if n == 0 || v < lo {
			lo = v
		}
		if n == 0 || v > hi {
			hi = v
		}
		n++
	}
	return lo, hi, n
}

func writeReport(w io.Writer, m machine, quick bool, all, grown []pass, cnt map[string]count, readmeInstr uint64) error {
	cmd := "go run ./scripts/figures " + strings.Join(os.Args[1:], " ")
	fmt.Fprintf(w, "Measured at commit `%s` (%s) with `%s`, %s UTC.\n\n", m.commit, m.subject, strings.TrimSpace(cmd), time.Now().UTC().Format("2006-01-02 15:04"))
	fmt.Fprintf(w, "**Machine**: %s. The load average (1 minute) before and after each job:\n\n", m)
	for i, p := range append(slices.Clone(all), grown...) {
		name := fmt.Sprintf("pass %d", i+1)
		if i >= len(all) {
			name = fmt.Sprintf("growth pass %d", i-len(all)+1)
		}
		var loads []string
		for _, l := range p.load {
			loads = append(loads, fmt.Sprintf("%s %.1f→%.1f", l.job, l.before, l.after))
		}
		fmt.Fprintf(w, "- %s, %s–%s: %s\n", name, p.start.UTC().Format("15:04:05"), p.end.UTC().Format("15:04:05"), strings.Join(loads, ", "))
		for _, err := range p.errs {
			first, _, _ := strings.Cut(err.Error(), "\n")
			fmt.Fprintf(w, "  - failed: %s\n", first)
		}
	}
	fmt.Fprintf(w, "\nEach figure is the range of the %d passes' medians (%s); instructions per query are callgrind's, "+
		"the difference of two whole processes divided by the queries added (see scripts/figures/callgrind.go).\n\n", len(all), "3 runs each")
	rows := append(engineRows(), otherRows()...)
	group := ""
	for _, r := range rows {
		if r.group != group {
			group = r.group
			fmt.Fprintf(w, "\n| %s | measured | instructions | stated before | target |\n|---|---:|---:|---|---|\n", group)
		}
		lo, hi, n := rangeOf(r, all)
		val := "not measured"
		if n > 0 {
			val = formatRange(r.unit, lo, hi)
		}
		instr := ""
		if c, ok := cnt[r.bench]; ok {
			instr = instructions(c.perQuery)
			if n > 0 && m.mhz > 0 {
				instr += fmt.Sprintf(" (IPC %.2f at the fastest pass)", c.perQuery/(lo*m.mhz/1e3))
			}
		}
		if r.bench == "ReadmeCommand" && readmeInstr > 0 {
			instr = instructions(float64(readmeInstr)) + " (whole process)"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", r.label, val, instr, r.stated, verdict(r, lo, hi, n))
	}
	if len(grown) > 0 {
		fmt.Fprintf(w, "\n| growth 100k → 1M tools | 100k | 1M | 1M ÷ 100k | target ×12 |\n|---|---:|---:|---:|---|\n")
		for _, r := range growthRows() {
			a, b, _ := rangeOf(row{bench: r.over}, grown)
			c, d, _ := rangeOf(row{bench: r.bench}, grown)
			lo, hi, n := rangeOf(r, grown)
			if n == 0 {
				continue // not run (-quick leaves the floor out: another 1M registry)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", r.label, formatRange(unitTime, a, b), formatRange(unitTime, c, d),
				formatRange(unitRatio, lo, hi), verdict(r, lo, hi, n))
		}
		r := row{bench: "RegisterGrowth/n=1000k", metric: "ns/tool"}
		if lo, hi, n := rangeOf(r, grown); n > 0 {
			fmt.Fprintf(w, "\nRegistering 1M tools without schemas (`RegisterGrowth/n=1000k`, 2 cores): %s (%s per tool); target ≤ 10 s: %s.\n",
				formatRange(unitTime, lo*1e6, hi*1e6), formatRange(unitTime, lo, hi), verdict(row{target: "≤ 10 s"}, lo*1e6, hi*1e6, n))
		}
	}
	return nil
}
