//go:build unix

package semantic

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used (user and system),
// and true; benchmarks report it per operation, a figure that other jobs
// on a shared machine do not inflate as they do the wall time.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
