//go:build !race

package schema

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
