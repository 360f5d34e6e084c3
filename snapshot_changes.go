package toolsearch

import "slices"

// The changes between snapshots: each publication numbers its snapshot
// and records the names of the tools it changed, so that what changed
// between an older snapshot and the newest costs what changed, not what
// the registry holds (a Session's delta announcement reads it).

// changeLog is the record of one publication, linked to the ones before
// it while they are kept. It is immutable once published.
type changeLog struct {
	seq   uint64     // the number of the snapshot this publication made
	names []string   // the tools whose definition or availability it may have changed
	all   bool       // every tool may have changed (the first publication)
	prev  *changeLog // the publication before, nil once no longer kept
	kept  int        // records and names in this one and the ones it keeps
}

// maxLoggedChanges bounds the records and names a change log keeps: a
// Session that last announced further back than that lists the deferred
// tools again to tell what changed.
const maxLoggedChanges = 4096

// next returns the record of the publication that follows l (nil for
// none, the first publication) and changed names.
func (l *changeLog) next(changed []string) *changeLog {
	if l == nil {
		return &changeLog{seq: 1, all: true, kept: 1}
	}
	n := &changeLog{seq: l.seq + 1, names: slices.Clone(changed), kept: 1 + len(changed)}
	if !l.all && l.kept+n.kept <= maxLoggedChanges {
		n.prev, n.kept = l, l.kept+n.kept
	}
	return n
}

// since returns the names changed after snapshot seq up to l's (sorted,
// without duplicates), and ok false when l does not reach back to seq.
func (l *changeLog) since(seq uint64) (names []string, ok bool) {
	if l == nil {
		return nil, seq == 0 // the empty snapshot
	}
	for ; l != nil && l.seq > seq; l = l.prev {
		if l.all {
			return nil, false
		}
		names = append(names, l.names...)
		if l.seq == seq+1 {
			slices.Sort(names)
			return slices.Compact(names), true
		}
	}
	return nil, l != nil && l.seq == seq
}

// seqOf returns the number of snapshot s: 0 for the empty one.
func (s *snapshot) seqOf() uint64 {
	if s.log == nil {
		return 0
	}
	return s.log.seq
}
