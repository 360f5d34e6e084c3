package toolsearch

import (
	"cmp"
	"iter"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/toolsearch/toolsearch/internal/cow"
)

// snapshot is an immutable view of the registry. Everything derived from the
// set of tools hangs off it and is built at most once. A change builds the
// next snapshot from this one, sharing what the change does not touch.
type snapshot struct {
	// The lists are in pages shared with the snapshots before and after:
	// a change copies the pages it writes.
	pool     cow.Sorted[*entry]  // available tools in pool order
	loaded   cow.Sorted[*entry]  // available tools that are not deferred, in pool order
	deferred cow.Sorted[slotted] // available deferred tools in pool order, with their keyword-index slots
	dpos     *slotPositions      // keyword-index slot → position in deferred, made on first use
	// names finds available tools by name, alias and lowercased name (see
	// named, aliased, lowered).
	names   *nameIndex
	prefix  *prefixIndex // deferred tools by lowercased name, for mcp__ prefixes
	ix      *index       // keyword index of the deferred tools
	pending []string     // pending servers, sorted
	texts   memo[*promptTexts]
	// suggestions indexes the pool's names for close names (snapshot_suggest.go),
	// built on the first name not found.
	suggestions memo[*suggestIndex]
	// bare finds available MCP tools by bare tool name (ClaudeCode2_1_332's
	// select:), built on first use.
	bare memo[map[string][]*entry]

	// What Registry.Lookup and Registry.ServerStatus read, so that they
	// never wait for a writer: every registered tool, available or not,
	// and the servers' statuses (set by Registry.publish).
	all     *toolMap
	servers map[string]ServerStatus
	// log numbers the snapshot and records what its publication changed
	// (snapshot_changes.go); nil for the empty snapshot.
	log *changeLog
}

var emptySnapshot = buildSnapshot(nil, nil, nil, nil)

// slotted is a deferred tool and its keyword-index slot in one snapshot.
type slotted struct {
	e    *entry
	slot int32
}

func slottedCompare(a, b slotted) int { return poolCompare(a.e, b.e) }

// deferredAt returns the deferred tool at position i of s.
func (s *snapshot) deferredAt(i int) *entry { return s.deferred.At(i).e }

// deferredTools yields the deferred tools of s in pool order.
func (s *snapshot) deferredTools() iter.Seq[*entry] {
	return func(yield func(*entry) bool) {
		for d := range s.deferred.All() {
			if !yield(d.e) {
				return
			}
		}
	}
}

// slotPositions is the position of every keyword-index slot of a
// snapshot's deferred tools, made once, on first use (a search, not a
// change, pays for it); snapshots whose deferred tools have the same slots
// at the same positions share it.
type slotPositions struct {
	once sync.Once
	pos  []int32 // -1 for a free slot
}

// positions returns the position in s.deferred of every slot of s.ix.
func (s *snapshot) positions() []int32 {
	s.dpos.once.Do(func() {
		pos := make([]int32, s.ix.nslots)
		for i := range pos {
			pos[i] = -1
		}
		for i, d := range s.deferred.From(0) {
			pos[d.slot] = int32(i)
		}
		s.dpos.pos = pos
	})
	return s.dpos.pos
}

// available reports whether e's server (if any) is connected.
func available(e *entry, servers map[string]ServerStatus) bool {
	return e.tool.Server == "" || servers[e.tool.Server] == ServerConnected
}

// buildSnapshot builds a snapshot from scratch. old is the keyword index
// of the snapshot it replaces, or nil: its tools keep their slots.
func buildSnapshot(tools map[string]*entry, servers map[string]ServerStatus, scratch *scratchPool, old *index) *snapshot {
	s := &snapshot{dpos: &slotPositions{}}
	pool := make([]*entry, 0, len(tools))
	for _, e := range tools {
		if available(e, servers) {
			pool = append(pool, e)
		}
	}
	sortPool(pool)
	var deferred, loaded []*entry
	for _, e := range pool {
		if e.deferred {
			deferred = append(deferred, e)
		} else {
			loaded = append(loaded, e)
		}
	}
	// The name and prefix indexes and the keyword index (which sets the
	// entries' slots) read different fields: large ones are built side by side.
	names := func() {
		s.names = buildNames(pool)
		s.prefix = buildPrefix(deferred)
		s.pool, s.loaded = cow.NewSorted(pool, nil), cow.NewSorted(loaded, nil)
	}
	if len(pool) >= parallelBuild && runtime.GOMAXPROCS(0) > 1 {
		var wg sync.WaitGroup
		wg.Go(names)
		s.ix = buildIndex(deferred, scratch, old)
		wg.Wait()
	} else {
		names()
		s.ix = buildIndex(deferred, scratch, old)
	}
	ds := make([]slotted, len(deferred))
	for i, e := range deferred {
		ds[i] = slotted{e, e.slot}
	}
	s.deferred = cow.NewSorted(ds, nil)
	s.pending = pendingServers(servers)
	return s
}

// sortPool sorts tools, whose names differ, in pool order: by name within
// each group, the names copied beside the entries so that comparing reads
// no entry; a large group in two halves sorted side by side, then merged.
func sortPool(tools []*entry) {
	keys := make([]poolKey, 0, len(tools))
	for _, mcp := range []bool{false, true} {
		for _, e := range tools {
			if e.isMCP == mcp {
				keys = append(keys, poolKey{e.tool.Name, e})
			}
		}
	}
	local := 0
	for local < len(keys) && !keys[local].e.isMCP {
		local++
	}
	sortByName(keys[:local])
	sortByName(keys[local:])
	for i := range keys {
		tools[i] = keys[i].e
	}
}

// poolKey is an entry and its name, for sortPool.
type poolKey struct {
	name string
	e    *entry
}

func sortByName(keys []poolKey) {
	byName := func(a, b poolKey) int { return strings.Compare(a.name, b.name) }
	if len(keys) < parallelBuild || runtime.GOMAXPROCS(0) < 2 {
		slices.SortFunc(keys, byName)
		return
	}
	half := len(keys) / 2
	var wg sync.WaitGroup
	wg.Go(func() { slices.SortFunc(keys[:half], byName) })
	slices.SortFunc(keys[half:], byName)
	wg.Wait()
	a, b := slices.Clone(keys[:half]), keys[half:]
	i, j := 0, 0
	for k := range keys {
		if j == len(b) || i < len(a) && a[i].name < b[j].name {
			keys[k] = a[i]
			i++
		} else {
			keys[k] = b[j]
			j++
		}
	}
}

// apply returns the snapshot that follows s when the tools in remove leave
// the available set and those in add join it. s is not changed: the new
// snapshot shares every page of its lists and every shard of its indexes
// that the change does not write.
func (s *snapshot) apply(remove, add []*entry, servers map[string]ServerStatus) *snapshot {
	n := &snapshot{pending: pendingServers(servers)}
	n.pool = s.pool.With(remove, add, poolCompare)
	isLoaded := func(e *entry) bool { return !e.deferred }
	isDeferred := func(e *entry) bool { return e.deferred }
	rmD, addD := slices.Collect(filter(remove, isDeferred)), slices.Collect(filter(add, isDeferred))
	n.names = s.names.update(remove, add)
	n.loaded = s.loaded
	if len(rmD) < len(remove) || len(addD) < len(add) {
		n.loaded = s.loaded.With(slices.Collect(filter(remove, isLoaded)), slices.Collect(filter(add, isLoaded)), poolCompare)
	}
	if len(rmD)+len(addD) == 0 {
		n.deferred, n.dpos, n.prefix, n.ix = s.deferred, s.dpos, s.prefix, s.ix
		return n
	}
	n.ix = s.ix.update(rmD, addD) // sets the slots of addD
	n.deferred = s.deferred.With(slotsOf(rmD), slotsOf(addD), slottedCompare)
	n.dpos = &slotPositions{}
	if replacedInPlace(rmD, addD) && n.ix.nslots == s.ix.nslots {
		n.dpos = s.dpos // the same slots at the same positions
	}
	n.prefix = s.prefix.update(rmD, addD)
	return n
}

// filter yields the entries of l that keep accepts.
func filter(l []*entry, keep func(*entry) bool) iter.Seq[*entry] {
	return func(yield func(*entry) bool) {
		for _, e := range l {
			if keep(e) && !yield(e) {
				return
			}
		}
	}
}

// slotsOf returns the entries with their slots.
func slotsOf(l []*entry) []slotted {
	out := make([]slotted, len(l))
	for i, e := range l {
		out[i] = slotted{e, e.slot}
	}
	return out
}

// replacedInPlace reports whether every tool of add replaces one of remove
// at its place in pool order, and every tool of remove is replaced; the
// index has given each the slot of the tool it replaces.
func replacedInPlace(remove, add []*entry) bool {
	if len(remove) != len(add) {
		return false
	}
	byName := make(map[string]*entry, len(remove))
	for _, r := range remove {
		byName[r.tool.Name] = r
	}
	for _, a := range add {
		if r := byName[a.tool.Name]; r == nil || poolCompare(r, a) != 0 {
			return false
		}
	}
	return true
}

func pendingServers(servers map[string]ServerStatus) []string {
	var p []string
	for srv, st := range servers {
		if st == ServerPending {
			p = append(p, srv)
		}
	}
	slices.Sort(p)
	return p
}

// poolCompare orders tools not from MCP servers before MCP tools, each group
// by name in byte order.
func poolCompare(a, b *entry) int {
	if a.isMCP != b.isMCP {
		if a.isMCP {
			return 1
		}
		return -1
	}
	return cmp.Compare(a.tool.Name, b.tool.Name)
}

// oldIndex returns s's keyword index, or nil for no snapshot.
func oldIndex(s *snapshot) *index {
	if s == nil {
		return nil
	}
	return s.ix
}
