package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseBench(t *testing.T) {
	out := []byte(`goos: linux
pkg: github.com/toolsearch/toolsearch
BenchmarkStrategyIndex/query/hybrid/keywords-3/n=10k-2         	   10000	     31234 ns/op	    1384 B/op	      18 allocs/op
BenchmarkStrategyIndex/query/hybrid/keywords-3/n=10k-2         	   10000	     29000 ns/op	    1384 B/op	      18 allocs/op
BenchmarkParseCatalog/n=100k-2   	       3	 157000000 ns/op	 450.50 MB/s	161000000 B/op	  300768 allocs/op
BenchmarkNameForms/select-1/n=10k-2 --- FAIL: something
PASS
`)
	res := parseBench(out, 2)
	require.Len(t, res, 2, "rows of %s", out)
	kw := res["StrategyIndex/query/hybrid/keywords-3/n=10k"]
	require.Len(t, kw, 2)
	assert.Equal(t, 31234.0, kw[0]["ns/op"])
	assert.Equal(t, 18.0, kw[1]["allocs/op"])
	assert.Equal(t, 450.5, res["ParseCatalog/n=100k"][0]["MB/s"])

	one := parseBench([]byte("BenchmarkNameForms/select-1/n=10k \t 100 \t 250 ns/op\n"), 1)
	assert.Contains(t, one, "NameForms/select-1/n=10k", "with -cpu 1 go test adds no suffix, and none is cut")
}

func TestMedian(t *testing.T) {
	ss := []sample{{"ns/op": 5}, {"ns/op": 1}, {"ns/op": 3}, {"B/op": 7}}
	m, ok := median(ss, "ns/op")
	require.True(t, ok)
	assert.Equal(t, 3.0, m)
	m, _ = median(ss[:2], "ns/op")
	assert.Equal(t, 3.0, m, "the mean of the two middle values")
	_, ok = median(ss, "MB/s")
	assert.False(t, ok)
}

func TestRowValue(t *testing.T) {
	res := results{"a": {{"ns/op": 30}}, "b": {{"ns/op": 10}}}
	v, ok := row{bench: "a", over: "b", unit: unitRatio}.value(res)
	require.True(t, ok)
	assert.Equal(t, 3.0, v)
	v, _ = row{bench: "a", over: "b", minus: true}.value(res)
	assert.Equal(t, 20.0, v)
	_, ok = row{bench: "a", over: "missing"}.value(res)
	assert.False(t, ok)
}

func TestFormatRange(t *testing.T) {
	for _, c := range []struct {
		u      unit
		lo, hi float64
		want   string
	}{
		{unitTime, 12_900, 35_100, "12.9–35.1 µs"},
		{unitTime, 212, 212, "212 ns"},
		{unitTime, 152e6, 176e6, "152–176 ms"},
		{unitTime, 0.9e6, 1.2e6, "0.90–1.20 ms"},
		{unitRatio, 12.94, 19.4, "×12.9–×19.4"},
		{unitBytes, 4.02e6, 4.02e6, "4.02 MB"},
		{unitCount, 0, 0, "0"},
		{unitCount, 1234567, 1234567, "1,234,567"},
		{unitMBps, 450, 480, "450–480 MB/s"},
	} {
		assert.Equal(t, c.want, formatRange(c.u, c.lo, c.hi), "%v %v %v", c.u, c.lo, c.hi)
	}
	assert.Equal(t, "74.2 k", instructions(74_200))
	assert.Equal(t, "1.31 M", instructions(1_310_000))
}

func TestVerdict(t *testing.T) {
	for _, c := range []struct {
		target string
		lo, hi float64
		want   string
	}{
		{"≤ 300 ns", 200, 250, "≤ 300 ns: met"},
		{"≤ 300 ns", 200, 350, "≤ 300 ns: met in some passes"},
		{"≤ 100 ms", 152e6, 176e6, "≤ 100 ms: **not met**"},
		{"≥ 150 MB/s", 160, 450, "≥ 150 MB/s: met"},
		{"≥ 150 MB/s", 100, 140, "≥ 150 MB/s: **not met**"},
		{"≤ ×12", 13, 19, "≤ ×12: **not met**"},
		{"0 allocations", 0, 0, "0 allocations: met"},
		{"0 allocations", 0, 1, "0 allocations: met in some passes"},
	} {
		assert.Equal(t, c.want, verdict(row{target: c.target}, c.lo, c.hi, 1), "%s over %v–%v", c.target, c.lo, c.hi)
	}
	assert.Equal(t, "≤ 1 s: not measured", verdict(row{target: "≤ 1 s"}, 0, 0, 0))
}

// matches reports whether go test's -bench pattern reports the benchmark
// name: each slash-separated element of the name must match the pattern's
// element at its level, and a name with fewer levels than the pattern only
// runs to find sub-benchmarks (levels past the pattern's are free).
func matches(pattern, name string) bool {
	pats := strings.Split(pattern, "/")
	els := strings.Split("Benchmark"+name, "/")
	if len(els) < len(pats) {
		return false
	}
	for i, el := range els {
		if i >= len(pats) {
			return true
		}
		if !regexp.MustCompile(pats[i]).MatchString(el) {
			return false
		}
	}
	return true
}

// TestEveryRowIsRun checks that some job's pattern selects every row's
// benchmarks, so that no figure of the report is silently missing.
func TestEveryRowIsRun(t *testing.T) {
	selected := func(name string, jobs []job) bool {
		for _, j := range jobs {
			if matches(j.bench, name) {
				return true
			}
		}
		return false
	}
	for _, r := range append(engineRows(), otherRows()...) {
		for _, b := range []string{r.bench, r.over} {
			if b != "" && b != "CLIBatch" {
				assert.True(t, selected(b, wallJobs(false)), "row %q: no job runs %s", r.label, b)
			}
		}
	}
	for _, r := range growthRows() {
		assert.True(t, selected(r.bench, growthJobs(false)), "growth row %q: no job runs %s", r.label, r.bench)
		assert.True(t, selected(r.over, growthJobs(false)), "growth row %q: no job runs %s", r.label, r.over)
	}
	for _, j := range countJobs(false) {
		for _, name := range j.rows {
			assert.True(t, matches(benchPattern(name), name), "count pattern %s", benchPattern(name))
			assert.False(t, matches(benchPattern(name), name+"x"), "count pattern %s selects more than %s", benchPattern(name), name)
		}
	}
	assert.False(t, matches(engineQueries, "StrategyIndex/change+query/hybrid/n=10k"), "the engine job leaves out the change rows")
	assert.False(t, matches(engineFloor, "Floor/keywords-3/n=10k/rank"), "the floor job runs only the floor of BenchmarkFloor")
}

func TestParseTarget(t *testing.T) {
	atMost, v, ok := parseTarget("≤ 20 ms")
	require.True(t, ok)
	assert.True(t, atMost)
	assert.Equal(t, 20e6, v)
	_, _, ok = parseTarget("about 3")
	assert.False(t, ok)
}
