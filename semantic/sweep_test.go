package semantic

import "os"

// sweepSize returns the size of a sweep test (random catalogs, steps, schemas):
// small, or large when TOOLSEARCH_SWEEPS=large asks for the large sweeps
// (CI runs them once, without the race detector; see README,
// Development). Plain and -race runs check the same cases.
func sweepSize(small, large int) int {
	if os.Getenv("TOOLSEARCH_SWEEPS") == "large" {
		return large
	}
	return small
}
