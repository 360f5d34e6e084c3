package main

import (
	"strconv"
	"strings"
)

// verdict says whether the row's range meets its target ("≤ 300 ns",
// "≥ 150 MB/s", "≤ ×1.5", "0 allocations"): "met" when every pass's
// median meets it, "**not met**" when none does, "met in some passes"
// otherwise; "" without a target.
func verdict(r row, lo, hi float64, n int) string {
	if r.target == "" {
		return ""
	}
	if n == 0 {
		return r.target + ": not measured"
	}
	atMost, limit, ok := parseTarget(r.target)
	if !ok {
		return r.target
	}
	best, worst := lo, hi
	if !atMost {
		best, worst = hi, lo
	}
	meets := func(v float64) bool {
		if atMost {
			return v <= limit
		}
		return v >= limit
	}
	switch {
	case meets(worst):
		return r.target + ": met"
	case meets(best):
		return r.target + ": met in some passes"
	}
	return r.target + ": **not met**"
}

// parseTarget reads "≤ 20 ms" (times in ns), "≥ 150 MB/s", "≤ ×12",
// "0 allocations".
func parseTarget(t string) (atMost bool, limit float64, ok bool) {
	if t == "0 allocations" {
		return true, 0, true
	}
	var rest string
	switch {
	case strings.HasPrefix(t, "≤ "):
		atMost, rest = true, strings.TrimPrefix(t, "≤ ")
	case strings.HasPrefix(t, "≥ "):
		rest = strings.TrimPrefix(t, "≥ ")
	default:
		return false, 0, false
	}
	rest = strings.TrimPrefix(rest, "×")
	num, unit, _ := strings.Cut(rest, " ")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return false, 0, false
	}
	scale := map[string]float64{"": 1, "ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9, "MB/s": 1}
	f, known := scale[unit]
	if !known {
		return false, 0, false
	}
	return atMost, v * f, true
}
