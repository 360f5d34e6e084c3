package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// timeUnit picks the unit a time of ns nanoseconds prints in.
func timeUnit(ns float64) (string, float64) {
	switch {
	case ns < 1e3:
		return "ns", 1
	case ns < 1e6:
		return "µs", 1e3
	case ns < 1e9:
		return "ms", 1e6
	}
	return "s", 1e9
}

// sig prints v with three significant digits (at least the units).
func sig(v float64) string {
	switch a := math.Abs(v); {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// formatRange prints the range lo–hi of a row's values in its unit; one
// value when they are equal.
func formatRange(u unit, lo, hi float64) string {
	var name string
	div := 1.0
	switch u {
	case unitTime:
		name, div = timeUnit(math.Max(math.Abs(lo), math.Abs(hi)))
		name = " " + name
	case unitBytes:
		name, div = bytesUnit(math.Max(lo, hi))
		name = " " + name
	case unitCount:
		return countRange(lo, hi)
	case unitRatio:
		if sig(lo) == sig(hi) {
			return "×" + sig(lo)
		}
		return "×" + sig(lo) + "–×" + sig(hi)
	case unitMBps:
		name = " MB/s"
	}
	a, b := sig(lo/div), sig(hi/div)
	if a == b {
		return a + name
	}
	return a + "–" + b + name
}

// bytesUnit picks the unit a size of v bytes prints in.
func bytesUnit(v float64) (string, float64) {
	switch {
	case v < 1e3:
		return "B", 1
	case v < 1e6:
		return "kB", 1e3
	case v < 1e9:
		return "MB", 1e6
	}
	return "GB", 1e9
}

func countRange(lo, hi float64) string {
	if lo == hi {
		return thousands(lo)
	}
	return thousands(lo) + "–" + thousands(hi)
}

// thousands prints v rounded, with commas every three digits.
func thousands(v float64) string {
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// instructions prints an instruction count as the documents do: 74.2 k,
// 1.31 M.
func instructions(v float64) string {
	switch {
	case v >= 1e6:
		return sig(v/1e6) + " M"
	case v >= 1e3:
		return sig(v/1e3) + " k"
	}
	return fmt.Sprintf("%.0f", v)
}
