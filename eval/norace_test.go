//go:build !race

package eval

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
