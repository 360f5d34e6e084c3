//go:build race

package toolsearch

// raceEnabled is true when tests run with -race, which makes them about 20
// times slower; long randomized tests run fewer cases then.
const raceEnabled = true
