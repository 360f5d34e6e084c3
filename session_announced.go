package toolsearch

import "slices"

// announcedSet is what a Session last announced: the deferred names the
// model was told of. It is a sorted list shared with the listing it came
// from, plus the names whose state changed since, so that a delta costs
// what changed, not the listing.
type announcedSet struct {
	told  bool            // something was announced since the start or the last Compact
	base  []string        // sorted, never changed once set (it may be a snapshot's listing)
	over  map[string]bool // names whose state differs from base: true announced, false not
	seq   uint64          // the snapshot whose view the set is, when known
	known bool            // the set is the view of snapshot seq (not a restored list)
}

// inBase reports whether base holds name.
func (a *announcedSet) inBase(name string) bool {
	_, ok := slices.BinarySearch(a.base, name)
	return ok
}

// has reports whether name was announced.
func (a *announcedSet) has(name string) bool {
	if v, ok := a.over[name]; ok {
		return v
	}
	return a.inBase(name)
}

// list returns the announced names, sorted; the slice may be shared, so
// it must not be changed. It is non-nil when told.
func (a *announcedSet) list() []string {
	if len(a.over) == 0 {
		if a.base == nil && a.told {
			return []string{}
		}
		return a.base
	}
	out := make([]string, 0, len(a.base)+len(a.over))
	for _, n := range a.base {
		if v, ok := a.over[n]; !ok || v {
			out = append(out, n)
		}
	}
	for n, v := range a.over {
		if v && !a.inBase(n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// reset makes the set names (sorted, shared), the view of snapshot seq.
func (a *announcedSet) reset(names []string, seq uint64) {
	*a = announcedSet{told: true, base: names, seq: seq, known: true}
}

// advance moves the set to the view of snapshot seq, given the names
// that changed since its snapshot (sorted) and whether each is in the
// view now, and returns the names added to it and removed from it,
// sorted.
func (a *announcedSet) advance(changed []string, seq uint64, inView func(string) bool) (added, removed []string) {
	for _, n := range changed {
		was, now := a.has(n), inView(n)
		if was == now {
			continue
		}
		if now {
			added = append(added, n)
		} else {
			removed = append(removed, n)
		}
		if now == a.inBase(n) {
			delete(a.over, n)
		} else {
			if a.over == nil {
				a.over = map[string]bool{}
			}
			a.over[n] = now
		}
	}
	a.seq = seq
	if len(a.over) > 64+len(a.base)/4 {
		// Folded into a new base now and then: a lookup stays a binary
		// search, at a cost shared by the changes that grew it.
		a.base, a.over = a.list(), nil
	}
	return added, removed
}

// announcedList returns the deferred names last announced, sorted; nil
// when nothing was announced since the start or the last Compact. The
// slice may be shared: it must not be changed. s.mu must be held.
func (s *Session) announcedList() []string {
	if !s.ann.told {
		return nil
	}
	return s.ann.list()
}

// whyGone sorts the deferred names that went away since the last
// announcement by why (see goneTools), and returns them with the names
// the announcement gives: a name outside the scope (one a Restore kept
// from before, say) is dropped, unnamed.
func (s *Session) whyGone(snap *snapshot, names []string) (gone goneTools, kept []string) {
	kept = names[:0]
	for _, n := range names {
		e := snap.all.get(n)
		switch {
		case e == nil:
			gone.removed = append(gone.removed, n)
		case !s.in(e):
			continue
		case !available(e, snap.servers):
			gone.disconnected = append(gone.disconnected, n)
		case !e.deferred:
			gone.loaded = append(gone.loaded, n)
		default: // deferred and available, yet not listed: a name of no tool the scope holds
			continue
		}
		kept = append(kept, n)
	}
	return gone, kept
}
