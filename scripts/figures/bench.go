package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A job is one run of a package's test binary: the benchmarks its -bench
// pattern selects, with its environment and flags.
type job struct {
	key       string
	pkg       string   // package directory, relative to the repository root
	env       []string // added to the environment
	bench     string   // -test.bench
	benchtime string   // -test.benchtime
	cpu       string   // -test.cpu ("" for the default)
	count     int      // -test.count
}

// A sample is one benchmark result line: its metrics by unit ("ns/op",
// "B/op", "allocs/op", and any the benchmark reports).
type sample map[string]float64

// results maps a benchmark name (without "Benchmark" and the -N suffix) to
// its result lines, in the order printed.
type results map[string][]sample

// A pass is one run of every job, at one moment.
type pass struct {
	start, end time.Time
	load       []loadSpan // per job, in order
	res        results
	errs       []error // of the jobs that failed
}

// A loadSpan is the 1-minute load average before and after a job.
type loadSpan struct {
	job           string
	before, after float64
}

// binaries builds the test binary of each package the jobs name into dir,
// once, and returns them by package.
func binaries(root, dir string, jobs []job) (map[string]string, error) {
	bins := map[string]string{}
	for _, j := range jobs {
		if _, ok := bins[j.pkg]; ok {
			continue
		}
		out := filepath.Join(dir, strings.NewReplacer("/", "_", ".", "root").Replace(j.pkg)+".test")
		cmd := exec.Command("go", "test", "-c", "-o", out, "./"+j.pkg)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("build the test binary of %s: %v\n%s", j.pkg, err, b)
		}
		bins[j.pkg] = out
	}
	return bins, nil
}

// runJob runs j's benchmarks with the test binary bin, in the package's
// directory (the benchmarks read testdata relative to it), and returns
// their results.
func runJob(root, bin string, j job) (results, error) {
	args := []string{"-test.run", "^$", "-test.bench", j.bench, "-test.benchmem",
		"-test.benchtime", j.benchtime, "-test.count", strconv.Itoa(max(j.count, 1))}
	if j.cpu != "" {
		args = append(args, "-test.cpu", j.cpu)
	}
	cmd := exec.Command("nice", append([]string{"-n", "10", bin}, args...)...)
	cmd.Dir = filepath.Join(root, j.pkg)
	cmd.Env = append(os.Environ(), j.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("job %s: %v\n%s%s", j.key, err, stdout.Bytes(), stderr.Bytes())
	}
	procs := runtime.GOMAXPROCS(0)
	if j.cpu != "" {
		procs, _ = strconv.Atoi(j.cpu)
	}
	res := parseBench(stdout.Bytes(), procs)
	if len(res) == 0 {
		return nil, fmt.Errorf("job %s: no benchmark ran (pattern %q)\n%s", j.key, j.bench, stdout.Bytes())
	}
	return res, nil
}

// parseBench reads go test's benchmark result lines:
//
//	BenchmarkName/sub-2   	     300	     12345 ns/op	     800 B/op	       6 allocs/op
//
// procs is the GOMAXPROCS of the run: go test adds "-procs" to each name
// when it is not 1.
func parseBench(out []byte, procs int) results {
	res := results{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		if _, err := strconv.ParseInt(f[1], 10, 64); err != nil {
			continue
		}
		s := sample{}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				break
			}
			s[f[i+1]] = v
		}
		if len(s) == 0 {
			continue
		}
		name := strings.TrimPrefix(f[0], "Benchmark")
		if procs != 1 {
			name = strings.TrimSuffix(name, "-"+strconv.Itoa(procs))
		}
		res[name] = append(res[name], s)
	}
	return res
}

// median returns the median of the metric over the samples (the mean of
// the two middle ones for an even count), and false when none has it.
func median(ss []sample, metric string) (float64, bool) {
	var vs []float64
	for _, s := range ss {
		if v, ok := s[metric]; ok {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return 0, false
	}
	slices.Sort(vs)
	m := len(vs) / 2
	if len(vs)%2 == 1 {
		return vs[m], true
	}
	return (vs[m-1] + vs[m]) / 2, true
}
