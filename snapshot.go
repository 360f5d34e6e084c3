package toolsearch

import (
	"cmp"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// snapshot is an immutable view of the registry. Everything derived from the
// set of tools hangs off it and is built at most once. A change builds the
// next snapshot from this one, sharing what the change does not touch.
type snapshot struct {
	pool     []*entry // available tools in pool order
	loaded   []*entry // available tools that are not deferred, in pool order
	deferred []*entry // available deferred tools in pool order
	dslots   []int32  // the keyword-index slot of each of deferred
	dpos     []int32  // keyword-index slot → position in deferred; -1 for none
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

// available reports whether e's server (if any) is connected.
func available(e *entry, servers map[string]ServerStatus) bool {
	return e.tool.Server == "" || servers[e.tool.Server] == ServerConnected
}

// buildSnapshot builds a snapshot from scratch. old is the keyword index
// of the snapshot it replaces, or nil: its tools keep their slots.
func buildSnapshot(tools map[string]*entry, servers map[string]ServerStatus, scratch *scratchPool, old *index) *snapshot {
	s := &snapshot{}
	s.pool = make([]*entry, 0, len(tools))
	for _, e := range tools {
		if available(e, servers) {
			s.pool = append(s.pool, e)
		}
	}
	sortPool(s.pool)
	for _, e := range s.pool {
		if e.deferred {
			s.deferred = append(s.deferred, e)
		} else {
			s.loaded = append(s.loaded, e)
		}
	}
	// The name and prefix indexes and the keyword index (which sets the
	// entries' slots) read different fields: large ones are built side by side.
	names := func() {
		s.names = buildNames(s.pool)
		s.prefix = buildPrefix(s.deferred)
	}
	if len(s.pool) >= parallelBuild && runtime.GOMAXPROCS(0) > 1 {
		var wg sync.WaitGroup
		wg.Go(names)
		s.ix = buildIndex(s.deferred, scratch, old)
		wg.Wait()
	} else {
		names()
		s.ix = buildIndex(s.deferred, scratch, old)
	}
	s.dslots = make([]int32, len(s.deferred))
	for i, e := range s.deferred {
		s.dslots[i] = e.slot
	}
	s.dpos = slotPositions(s.dslots, len(s.ix.slots))
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
// the available set and those in add join it. s is not changed.
func (s *snapshot) apply(remove, add []*entry, servers map[string]ServerStatus) *snapshot {
	n := &snapshot{pending: pendingServers(servers)}
	n.pool = patchSorted(s.pool, remove, add, poolCompare)
	isDeferred := func(e *entry) bool { return !e.deferred }
	rmD := slices.DeleteFunc(slices.Clone(remove), isDeferred)
	addD := slices.DeleteFunc(slices.Clone(add), isDeferred)
	n.names = s.names.update(remove, add)
	n.loaded = s.loaded
	if len(rmD) < len(remove) || len(addD) < len(add) {
		isLoaded := func(e *entry) bool { return e.deferred }
		n.loaded = patchSorted(s.loaded, slices.DeleteFunc(slices.Clone(remove), isLoaded), slices.DeleteFunc(slices.Clone(add), isLoaded), poolCompare)
	}
	if len(rmD)+len(addD) == 0 {
		n.deferred, n.dslots, n.dpos, n.prefix, n.ix = s.deferred, s.dslots, s.dpos, s.prefix, s.ix
		return n
	}
	n.ix = s.ix.update(rmD, addD) // sets the slots of addD
	n.deferred, n.dslots = patchSortedSlots(s.deferred, s.dslots, rmD, addD, poolCompare)
	if len(n.ix.slots) == len(s.ix.slots) && slices.Equal(n.dslots, s.dslots) {
		n.dpos = s.dpos // tools replaced in place
	} else {
		n.dpos = slotPositions(n.dslots, len(n.ix.slots))
	}
	n.prefix = s.prefix.update(rmD, addD)
	return n
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
