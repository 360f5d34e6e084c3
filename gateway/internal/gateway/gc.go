package gateway

import (
	"os"
	"runtime/debug"
)

// GCPercent is the garbage collector's target that TuneGC sets.
const GCPercent = 400

// TuneGC sets the garbage collector's target of a gateway process to
// GCPercent (the heap may grow to five times what is live before a
// collection), unless the GOGC environment variable is set, which then
// wins. Every call through the gateway makes the MCP SDK decode two more
// JSON-RPC messages, each with a fresh 32 KiB buffer, so that a busy
// gateway makes hundreds of kilobytes of garbage per call while keeping
// little alive: at Go's default target (100) it collects every few calls,
// and on a shared machine those collections take the CPU that the calls
// wait for. `toolsearch-mcp serve` calls it first thing.
func TuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(GCPercent)
	}
}
