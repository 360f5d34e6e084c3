//go:build !race

package toolsearch

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
