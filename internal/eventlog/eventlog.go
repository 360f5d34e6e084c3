// Package eventlog records what an MCP integration reports through its
// callbacks (status changes, listings, errors), for the integration tests,
// and lets a test wait until a condition holds.
package eventlog

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// Log is a concurrency-safe record of events and errors.
type Log struct {
	mu     sync.Mutex
	events []string
	errs   []string
	signal chan struct{} // capacity 1: something was recorded
}

// New returns an empty Log.
func New() *Log { return &Log{signal: make(chan struct{}, 1)} }

// Event records an event. It never blocks.
func (l *Log) Event(s string) { l.add(&l.events, s) }

// Error records an error. It never blocks.
func (l *Log) Error(s string) { l.add(&l.errs, s) }

func (l *Log) add(to *[]string, s string) {
	l.mu.Lock()
	*to = append(*to, s)
	l.mu.Unlock()
	select {
	case l.signal <- struct{}{}:
	default: // a waiter has not looked yet; it will see this too
	}
}

// Events returns the events recorded so far, in order.
func (l *Log) Events() []string { return l.get(&l.events) }

// Errors returns the errors recorded so far, in order.
func (l *Log) Errors() []string { return l.get(&l.errs) }

func (l *Log) get(which *[]string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(*which)
}

// WaitFor waits until cond holds, checking it after every record, and
// fails t after 10 seconds.
func (l *Log) WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for !cond() {
		select {
		case <-l.signal:
		case <-timeout:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
