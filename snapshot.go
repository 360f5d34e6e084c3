package toolsearch

import (
	"cmp"
	"hash/maphash"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/words"
)

// snapshot is an immutable view of the registry. Everything derived from the
// set of tools hangs off it and is built at most once. A change builds the
// next snapshot from this one, sharing what the change does not touch.
type snapshot struct {
	pool     []*entry // available tools in pool order
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
	// suggestions indexes the pool's names for close names (suggest.go),
	// built on the first name not found.
	suggestions memo[*suggestIndex]

	// What Registry.Lookup and Registry.ServerStatus read, so that they
	// never wait for a writer: every registered tool, available or not,
	// and the servers' statuses (set by Registry.publish).
	all     *toolMap
	servers map[string]ServerStatus
}

// toolMap maps every registered tool's name to its entry. It is immutable
// once published, and split into shards by a hash of the name, so that a
// change copies only the shards it touches.
type toolMap struct {
	shards [nameShards]map[string]*entry
}

func (m *toolMap) get(name string) *entry {
	if m == nil {
		return nil
	}
	return m.shards[nameSlot(name)][name]
}

// with returns m with the entries of changes (a nil entry: the name is
// removed); m is not changed.
func (m *toolMap) with(changes map[string]*entry) *toolMap {
	n := &toolMap{}
	if m != nil {
		n.shards = m.shards
	}
	var cloned [nameShards]bool
	for name, e := range changes {
		i := nameSlot(name)
		if !cloned[i] {
			cloned[i] = true
			n.shards[i] = cow.CloneMap(n.shards[i])
			if n.shards[i] == nil {
				n.shards[i] = make(map[string]*entry, len(changes)/nameShards)
			}
		}
		if e == nil {
			delete(n.shards[i], name)
		} else {
			n.shards[i][name] = e
		}
	}
	return n
}

// newToolMap returns the map of tools.
func newToolMap(tools map[string]*entry) *toolMap {
	m := &toolMap{}
	for i := range m.shards {
		m.shards[i] = make(map[string]*entry, len(tools)/nameShards)
	}
	for name, e := range tools {
		m.shards[nameSlot(name)][name] = e
	}
	return m
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

// parallelBuild is the number of tools from which building a snapshot,
// or a batch of entries, is spread over two goroutines or more.
const parallelBuild = 4096

// sortPool sorts tools in pool order; a large pool in two halves sorted
// side by side, then merged.
func sortPool(tools []*entry) {
	if len(tools) < parallelBuild || runtime.GOMAXPROCS(0) < 2 {
		slices.SortFunc(tools, poolCompare)
		return
	}
	half := len(tools) / 2
	var wg sync.WaitGroup
	wg.Go(func() { slices.SortFunc(tools[:half], poolCompare) })
	slices.SortFunc(tools[half:], poolCompare)
	wg.Wait()
	a, b := slices.Clone(tools[:half]), tools[half:]
	i, j := 0, 0
	for k := range tools {
		if j == len(b) || i < len(a) && poolCompare(a[i], b[j]) <= 0 {
			tools[k] = a[i]
			i++
		} else {
			tools[k] = b[j]
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

// slotPositions returns the position of each slot in slots (slot → index
// in slots), -1 for a slot not in it.
func slotPositions(slots []int32, n int) []int32 {
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = -1
	}
	for i, s := range slots {
		pos[s] = int32(i)
	}
	return pos
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

// Name lookups. The exact-name path and select: look tools up by name,
// alias and lowercased name. These maps are split into shards by a hash of
// the lowercased key, so that a change copies one small shard, not a map of
// every tool. A tool's name, its lowercased name and (hashed the same way)
// its aliases decide its shards.

const nameShards = 64

type nameShard struct {
	byName  map[string]*entry
	byLower map[string][]*entry // pool order
	alias   map[string]*entry
}

type nameIndex struct {
	shards  [nameShards]*nameShard
	aliases int // aliases in the shards
}

// nameSlot returns the shard of a key of one of the name maps: byName is
// placed by the name, byLower by the lowercased name, alias by the alias.
func nameSlot(key string) int { return int(maphash.String(hashSeed, key) & (nameShards - 1)) }

// named returns the available tool called name.
func (s *snapshot) named(name string) *entry {
	if sh := s.names.shards[nameSlot(name)]; sh != nil {
		return sh.byName[name]
	}
	return nil
}

// aliased returns the available tool that has alias a.
func (s *snapshot) aliased(a string) *entry {
	if s.names.aliases == 0 {
		return nil
	}
	if sh := s.names.shards[nameSlot(a)]; sh != nil {
		return sh.alias[a]
	}
	return nil
}

// lowered returns the available tools whose lowercased name is q, in pool
// order. The slice is shared: do not change it.
func (s *snapshot) lowered(q string) []*entry {
	if sh := s.names.shards[nameSlot(q)]; sh != nil {
		return sh.byLower[q]
	}
	return nil
}

// buildNames indexes tools, given in pool order.
func buildNames(tools []*entry) *nameIndex {
	ni := &nameIndex{}
	per := len(tools)/nameShards + len(tools)/(8*nameShards)
	for i := range ni.shards {
		ni.shards[i] = &nameShard{byName: make(map[string]*entry, per), byLower: make(map[string][]*entry, per)}
	}
	for _, e := range tools {
		// In pool order, so each list of byLower is built by appending.
		sh := ni.shards[nameSlot(e.tool.Name)]
		sh.byName[e.tool.Name] = e
		sh = ni.shards[nameSlot(e.lowerName)]
		sh.byLower[e.lowerName] = append(sh.byLower[e.lowerName], e)
		for _, a := range e.tool.Aliases {
			sh := ni.shards[nameSlot(a)]
			if sh.alias == nil {
				sh.alias = map[string]*entry{}
			}
			sh.alias[a] = e
			ni.aliases++
		}
	}
	return ni
}

// own returns shard i, creating it; for a new index being built.
func (ni *nameIndex) own(i int) *nameShard {
	if ni.shards[i] == nil {
		ni.shards[i] = &nameShard{}
	}
	return ni.shards[i]
}

func (ni *nameIndex) add(e *entry, own func(int) *nameShard) {
	sh := own(nameSlot(e.tool.Name))
	if sh.byName == nil {
		sh.byName = map[string]*entry{}
	}
	sh.byName[e.tool.Name] = e
	sh = own(nameSlot(e.lowerName))
	if sh.byLower == nil {
		sh.byLower = map[string][]*entry{}
	}
	l := sh.byLower[e.lowerName]
	i, _ := slices.BinarySearchFunc(l, e, poolCompare)
	sh.byLower[e.lowerName] = slices.Insert(slices.Clip(l), i, e)
	for _, a := range e.tool.Aliases {
		sh := own(nameSlot(a))
		if sh.alias == nil {
			sh.alias = map[string]*entry{}
		}
		sh.alias[a] = e
		ni.aliases++
	}
}

func (ni *nameIndex) remove(e *entry, own func(int) *nameShard) {
	sh := own(nameSlot(e.tool.Name))
	if sh.byName[e.tool.Name] == e {
		delete(sh.byName, e.tool.Name)
	}
	sh = own(nameSlot(e.lowerName))
	l := slices.DeleteFunc(slices.Clone(sh.byLower[e.lowerName]), func(x *entry) bool { return x == e })
	if len(l) == 0 {
		delete(sh.byLower, e.lowerName)
	} else {
		sh.byLower[e.lowerName] = l
	}
	for _, a := range e.tool.Aliases {
		if sh := own(nameSlot(a)); sh.alias[a] == e {
			delete(sh.alias, a)
			ni.aliases--
		}
	}
}

// update returns a copy of ni without remove and with add; ni is not
// changed.
func (ni *nameIndex) update(remove, add []*entry) *nameIndex {
	nn := &nameIndex{shards: ni.shards, aliases: ni.aliases}
	var cloned [nameShards]bool
	own := func(i int) *nameShard {
		if !cloned[i] {
			cloned[i] = true
			old := nn.shards[i]
			sh := &nameShard{}
			if old != nil {
				sh.byName, sh.byLower, sh.alias = cow.CloneMap(old.byName), cow.CloneMap(old.byLower), cow.CloneMap(old.alias)
			}
			nn.shards[i] = sh
		}
		return nn.shards[i]
	}
	for _, e := range remove {
		nn.remove(e, own)
	}
	for _, e := range add {
		nn.add(e, own)
	}
	return nn
}

// prefixIndex holds the deferred tools whose lowercased names start with
// mcp__, sorted by lowercased name (then pool order), for the MCP-prefix
// form. upper[i] counts the tools among the first i whose names have an
// uppercase letter: where there are none, lowercased order is pool order.
type prefixIndex struct {
	tools []*entry
	upper []int32
}

func lowerCompare(a, b *entry) int {
	if c := strings.Compare(a.lowerName, b.lowerName); c != 0 {
		return c
	}
	return poolCompare(a, b)
}

func prefixed(e *entry) bool { return strings.HasPrefix(e.lowerName, "mcp__") }

func newPrefixIndex(tools []*entry) *prefixIndex {
	p := &prefixIndex{tools: tools}
	p.upper = make([]int32, len(tools)+1)
	for i, e := range tools {
		p.upper[i+1] = p.upper[i]
		if e.upper {
			p.upper[i+1]++
		}
	}
	return p
}

// buildPrefix indexes the deferred tools (any order).
func buildPrefix(deferred []*entry) *prefixIndex {
	var tools []*entry
	for _, e := range deferred {
		if prefixed(e) {
			tools = append(tools, e)
		}
	}
	slices.SortFunc(tools, lowerCompare)
	return newPrefixIndex(tools)
}

func (p *prefixIndex) update(remove, add []*entry) *prefixIndex {
	remove = slices.DeleteFunc(slices.Clone(remove), func(e *entry) bool { return !prefixed(e) })
	add = slices.DeleteFunc(slices.Clone(add), func(e *entry) bool { return !prefixed(e) })
	if len(remove) == 0 && len(add) == 0 {
		return p
	}
	return newPrefixIndex(patchSorted(p.tools, remove, add, lowerCompare))
}

// find returns up to k (k < 0: all) deferred tools whose lowercased names
// start with q and that in accepts, in pool order.
func (p *prefixIndex) find(q string, k int, in func(*entry) bool) []*entry {
	lo, _ := slices.BinarySearchFunc(p.tools, q, func(e *entry, q string) int { return strings.Compare(e.lowerName, q) })
	hi := lo + sort.Search(len(p.tools)-lo, func(i int) bool { return !strings.HasPrefix(p.tools[lo+i].lowerName, q) })
	var out []*entry
	if p.upper[hi] == p.upper[lo] {
		// No uppercase name in range: lowercased order is pool order.
		for _, e := range p.tools[lo:hi] {
			if in(e) {
				if out = append(out, e); len(out) == k {
					break
				}
			}
		}
		return out
	}
	for _, e := range p.tools[lo:hi] {
		if !in(e) {
			continue
		}
		if i, _ := slices.BinarySearchFunc(out, e, poolCompare); k < 0 || i < k {
			if len(out) == k {
				out = out[:k-1]
			}
			out = slices.Insert(out, i, e)
		}
	}
	return out
}

// patchSorted returns list, sorted by cmp, without the entries of remove and
// with those of add. list is not changed.
func patchSorted(list, remove, add []*entry, cmp func(a, b *entry) int) []*entry {
	out, _ := patchSortedSlots(list, nil, remove, add, cmp)
	return out
}

// patchSortedSlots is patchSorted that also patches slots, the keyword-index
// slot of each entry of list (nil: none): an added entry's slot is read from
// it, so the index must have been updated first. Writers only.
func patchSortedSlots(list []*entry, slots []int32, remove, add []*entry, cmp func(a, b *entry) int) ([]*entry, []int32) {
	withSlots := slots != nil
	if len(remove) == 1 && len(add) == 1 && cmp(remove[0], add[0]) == 0 {
		// One tool replaced: same place.
		if i, ok := slices.BinarySearchFunc(list, remove[0], cmp); ok && list[i] == remove[0] {
			out := slices.Clone(list)
			out[i] = add[0]
			if withSlots {
				slots = slices.Clone(slots)
				slots[i] = add[0].slot
			}
			return out, slots
		}
	}
	var pos []int
	for _, e := range remove {
		if i, ok := slices.BinarySearchFunc(list, e, cmp); ok && list[i] == e {
			pos = append(pos, i)
		}
	}
	slices.Sort(pos)
	add = slices.SortedFunc(slices.Values(add), cmp)
	out := make([]*entry, 0, len(list)-len(pos)+len(add))
	var outSlots []int32
	if withSlots {
		outSlots = make([]int32, 0, cap(out))
	}
	from := 0
	for _, i := range pos {
		out = append(out, list[from:i]...)
		if withSlots {
			outSlots = append(outSlots, slots[from:i]...)
		}
		from = i + 1
	}
	out = append(out, list[from:]...)
	if withSlots {
		outSlots = append(outSlots, slots[from:]...)
	}
	if len(add) == 0 {
		return out, outSlots
	}
	merged := make([]*entry, 0, len(out)+len(add))
	var mergedSlots []int32
	if withSlots {
		mergedSlots = make([]int32, 0, cap(merged))
	}
	from = 0
	for _, e := range add {
		i, _ := slices.BinarySearchFunc(out[from:], e, cmp)
		merged = append(merged, out[from:from+i]...)
		merged = append(merged, e)
		if withSlots {
			mergedSlots = append(mergedSlots, outSlots[from:from+i]...)
			mergedSlots = append(mergedSlots, e.slot)
		}
		from += i
	}
	merged = append(merged, out[from:]...)
	if withSlots {
		mergedSlots = append(mergedSlots, outSlots[from:]...)
	}
	return merged, mergedSlots
}

// exact returns the tool the exact-name form finds for q, a trimmed query:
// the tool whose lowercased name is q lowercased, a deferred one first, then
// any, in pool order; nil if none in. A short ASCII query is lowercased in a
// stack buffer, so that a query that names no tool costs no allocation.
func (s *snapshot) exact(q string, in func(*entry) bool) *entry {
	var buf [maxNameLength]byte
	if len(q) > len(buf) {
		return pickExact(s.lowered(words.Lower(q)), in)
	}
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c >= 0x80 {
			return pickExact(s.lowered(words.Lower(q)), in)
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	b := buf[:len(q)]
	if sh := s.names.shards[maphash.Bytes(hashSeed, b)&(nameShards-1)]; sh != nil {
		return pickExact(sh.byLower[string(b)], in)
	}
	return nil
}

// pickExact picks the exact-name match among l, the tools of one lowercased
// name in pool order: a deferred one first, then any.
func pickExact(l []*entry, in func(*entry) bool) *entry {
	var pick *entry
	for _, e := range l {
		if !in(e) {
			continue
		}
		if e.deferred {
			return e
		}
		if pick == nil {
			pick = e
		}
	}
	return pick
}

// oldIndex returns s's keyword index, or nil for no snapshot.
func oldIndex(s *snapshot) *index {
	if s == nil {
		return nil
	}
	return s.ix
}
