//go:build !race

package semantic

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
