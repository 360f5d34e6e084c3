package schema

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/toolsearch/toolsearch/internal/text"
)

// The JSON Schema library turns every number it compares into an exact
// rational: a number with a huge exponent costs it time and memory in
// proportion to the exponent (1e999999 takes tens of milliseconds), and one
// past its own bound (1e1000001) makes it crash. So every JSON number that
// reaches it, from a model (ToolSearch and tool-call arguments) or from a
// server (input schemas), is checked first against these fixed bounds,
// which leave room for every float64 (up to 1.8e308, down to 5e-324) and
// every 256-bit integer.
const (
	maxNumberDigits   = 100 // digits in a number, before its exponent
	maxNumberExponent = 400 // size of the exponent, either sign
)

// NumberProblem says what is wrong with the JSON number n, or "" when it is
// within the bounds.
func NumberProblem(n string) string {
	mant, exp, hasExp := n, "", false
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		mant, exp, hasExp = n[:i], n[i+1:], true
	}
	digits := 0
	for i := 0; i < len(mant); i++ {
		if mant[i] >= '0' && mant[i] <= '9' {
			digits++
		}
	}
	if digits > maxNumberDigits {
		return "has " + strconv.Itoa(digits) + " digits, more than " + strconv.Itoa(maxNumberDigits)
	}
	if hasExp {
		e := strings.TrimLeft(strings.TrimLeft(exp, "+-"), "0")
		if v, err := strconv.Atoi(e); len(e) > 6 || err == nil && v > maxNumberExponent {
			return "has an exponent beyond ±" + strconv.Itoa(maxNumberExponent)
		}
	}
	return ""
}

// CheckNumbers checks every number of v, a JSON value decoded with
// UseNumber, and reports the first one out of bounds (in key order): its
// JSON pointer, the start of its text and what is wrong, for example
// `/a/0: the number 1e1000001 has an exponent beyond ±400`.
func CheckNumbers(v any) error {
	if !hasBadNumber(v) {
		return nil
	}
	var path []string
	var walk func(v any) error
	walk = func(v any) error {
		switch v := v.(type) {
		case json.Number:
			if p := NumberProblem(string(v)); p != "" {
				return errors.New(text.Echo("/"+strings.Join(path, "/")) + ": the number " + text.Echo(string(v)) + " " + p)
			}
		case []any:
			for i, x := range v {
				path = append(path, strconv.Itoa(i))
				if err := walk(x); err != nil {
					return err
				}
				path = path[:len(path)-1]
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				path = append(path, k)
				if err := walk(v[k]); err != nil {
					return err
				}
				path = path[:len(path)-1]
			}
		}
		return nil
	}
	return walk(v)
}

// hasBadNumber reports whether v holds a number out of bounds, in any
// order (a map's keys are sorted only to report it).
func hasBadNumber(v any) bool {
	switch v := v.(type) {
	case json.Number:
		return NumberProblem(string(v)) != ""
	case []any:
		return slices.ContainsFunc(v, hasBadNumber)
	case map[string]any:
		for _, x := range v {
			if hasBadNumber(x) {
				return true
			}
		}
	}
	return false
}
