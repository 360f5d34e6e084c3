package toolsearch

import (
	"hash/maphash"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/cow"
	"github.com/toolsearch/toolsearch/internal/text"
	"github.com/toolsearch/toolsearch/internal/words"
)

// Name lookups. The exact-name path and select: look tools up by name,
// alias and lowercased name; the names form (search_names.go) by folded
// name and folded MCP name (foldKeys). These maps are split into shards by a hash of
// the lowercased key, so that a change copies one small shard, not a map of
// every tool: the shard count grows with the tools (about 32 a shard), and
// the shards are held in pages, so that a change copies the pages of the
// shards it writes, not a table of every shard. A tool's name, its
// lowercased name and (hashed the same way) its aliases decide its shards.

// nameShardCount returns the number of name shards for n tools: a power
// of two from 64 to 32,768.
func nameShardCount(n int) int {
	c := 64
	for c < n/32 && c < 1<<15 {
		c <<= 1
	}
	return c
}

type nameShard struct {
	byName  map[string]*entry
	byLower map[string][]*entry // pool order
	alias   map[string]*entry
	byFold  map[string][]*entry // folded name or MCP name (foldKeys) → tools, pool order
}

type nameIndex struct {
	shards  cow.Paged[*nameShard] // a nil shard holds nothing
	mask    uint64                // the shard count less one
	aliases int                   // aliases in the shards
}

// slot returns the shard of a key of one of the name maps: byName is
// placed by the name, byLower by the lowercased name, alias by the alias.
func (ni *nameIndex) slot(key string) int32 { return int32(maphash.String(hashSeed, key) & ni.mask) }

// shard returns the shard of key.
func (ni *nameIndex) shard(key string) *nameShard { return ni.shards.At(ni.slot(key)) }

// named returns the available tool called name.
func (s *snapshot) named(name string) *entry {
	if sh := s.names.shard(name); sh != nil {
		return sh.byName[name]
	}
	return nil
}

// aliased returns the available tool that has alias a.
func (s *snapshot) aliased(a string) *entry {
	if s.names.aliases == 0 {
		return nil
	}
	if sh := s.names.shard(a); sh != nil {
		return sh.alias[a]
	}
	return nil
}

// lowered returns the available tools whose lowercased name is q, in pool
// order. The slice is shared: do not change it.
func (s *snapshot) lowered(q string) []*entry {
	if sh := s.names.shard(q); sh != nil {
		return sh.byLower[q]
	}
	return nil
}

// buildNames indexes tools, given in pool order.
func buildNames(tools []*entry) *nameIndex {
	count := nameShardCount(len(tools))
	ni := &nameIndex{mask: uint64(count - 1)}
	per := len(tools)/count + len(tools)/(8*count)
	shards := make([]*nameShard, count)
	for i := range shards {
		shards[i] = &nameShard{byName: make(map[string]*entry, per), byLower: make(map[string][]*entry, per),
			byFold: make(map[string][]*entry, per)}
	}
	// A key's first tool is put in a list of one cut from a chunk of
	// lists (a second tool reallocates it): one allocation for most lists
	// of a chunk, and none of them copied when a chunk fills.
	var chunk []*entry
	put := func(m map[string][]*entry, k string, e *entry) {
		if l, ok := m[k]; ok {
			m[k] = append(l, e) // in pool order: each list is built by appending
			return
		}
		if len(chunk) == cap(chunk) {
			chunk = make([]*entry, 0, min(2*len(tools), 4096))
		}
		chunk = append(chunk, e)
		m[k] = chunk[len(chunk)-1 : len(chunk) : len(chunk)]
	}
	for _, e := range tools {
		slot := ni.slot(e.tool.Name)
		shards[slot].byName[e.tool.Name] = e
		if e.lowerName != e.tool.Name {
			slot = ni.slot(e.lowerName)
		}
		put(shards[slot].byLower, e.lowerName, e)
		n, f := foldKeyPair(e)
		put(shards[ni.slot(n)].byFold, n, e)
		if f != "" {
			put(shards[ni.slot(f)].byFold, f, e)
		}
		for _, a := range e.tool.Aliases {
			sh := shards[ni.slot(a)]
			if sh.alias == nil {
				sh.alias = map[string]*entry{}
			}
			sh.alias[a] = e
			ni.aliases++
		}
	}
	ed := ni.shards.Edit()
	for i, sh := range shards {
		ed.Set(int32(i), sh)
	}
	ni.shards = ed.Done()
	return ni
}

func (ni *nameIndex) add(e *entry, own func(int32, shardMap) *nameShard) {
	sh := own(ni.slot(e.tool.Name), mapByName)
	if sh.byName == nil {
		sh.byName = map[string]*entry{}
	}
	sh.byName[e.tool.Name] = e
	sh = own(ni.slot(e.lowerName), mapByLower)
	if sh.byLower == nil {
		sh.byLower = map[string][]*entry{}
	}
	l := sh.byLower[e.lowerName]
	i, _ := slices.BinarySearchFunc(l, e, poolCompare)
	sh.byLower[e.lowerName] = slices.Insert(slices.Clip(l), i, e)
	for _, k := range foldKeys(e) {
		sh := own(ni.slot(k), mapByFold)
		if sh.byFold == nil {
			sh.byFold = map[string][]*entry{}
		}
		l := sh.byFold[k]
		i, _ := slices.BinarySearchFunc(l, e, poolCompare)
		sh.byFold[k] = slices.Insert(slices.Clip(l), i, e)
	}
	for _, a := range e.tool.Aliases {
		sh := own(ni.slot(a), mapAlias)
		if sh.alias == nil {
			sh.alias = map[string]*entry{}
		}
		sh.alias[a] = e
		ni.aliases++
	}
}

func (ni *nameIndex) remove(e *entry, own func(int32, shardMap) *nameShard) {
	sh := own(ni.slot(e.tool.Name), mapByName)
	if sh.byName[e.tool.Name] == e {
		delete(sh.byName, e.tool.Name)
	}
	sh = own(ni.slot(e.lowerName), mapByLower)
	l := slices.DeleteFunc(slices.Clone(sh.byLower[e.lowerName]), func(x *entry) bool { return x == e })
	if len(l) == 0 {
		delete(sh.byLower, e.lowerName)
	} else {
		sh.byLower[e.lowerName] = l
	}
	for _, k := range foldKeys(e) {
		sh := own(ni.slot(k), mapByFold)
		if l := slices.DeleteFunc(slices.Clone(sh.byFold[k]), func(x *entry) bool { return x == e }); len(l) == 0 {
			delete(sh.byFold, k)
		} else {
			sh.byFold[k] = l
		}
	}
	for _, a := range e.tool.Aliases {
		if sh := own(ni.slot(a), mapAlias); sh.alias[a] == e {
			delete(sh.alias, a)
			ni.aliases--
		}
	}
}

// shardMap names one of the maps of a nameShard.
type shardMap uint8

const (
	mapByName shardMap = 1 << iota
	mapByLower
	mapByFold
	mapAlias
)

// update returns a copy of ni without remove and with add; ni is not
// changed. It copies only the maps it writes, each once: a one-tool
// change copies a few maps of a few shards.
func (ni *nameIndex) update(remove, add []*entry) *nameIndex {
	nn := &nameIndex{mask: ni.mask, aliases: ni.aliases}
	ed := ni.shards.Edit()
	copied := map[int32]shardMap{} // the maps of each shard that are nn's own, once the shard is
	own := func(i int32, m shardMap) *nameShard {
		c, fresh := copied[i]
		if !fresh {
			sh := &nameShard{}
			if old := ed.At(i); old != nil {
				*sh = *old // the maps are shared until written
			}
			ed.Set(i, sh)
		}
		sh := ed.At(i)
		if c&m == 0 {
			copied[i] = c | m
			switch m {
			case mapByName:
				sh.byName = cow.CloneMap(sh.byName)
			case mapByLower:
				sh.byLower = cow.CloneMap(sh.byLower)
			case mapByFold:
				sh.byFold = cow.CloneMap(sh.byFold)
			case mapAlias:
				sh.alias = cow.CloneMap(sh.alias)
			}
		}
		return sh
	}
	for _, e := range remove {
		nn.remove(e, own)
	}
	for _, e := range add {
		nn.add(e, own)
	}
	nn.shards = ed.Done()
	return nn
}

// exact returns the tool the exact-name form finds for q, a trimmed query:
// the tool named q, case included, if it is in; else the tool whose
// lowercased name is q lowercased, a deferred one first, then any, in pool
// order; nil if none in. A short ASCII query is lowercased in a stack
// buffer, so that a query that names no tool costs no allocation.
func (s *snapshot) exact(q string, in func(*entry) bool) *entry {
	if e := s.named(q); e != nil && in(e) {
		return e // the very name wins over a name that differs in case
	}
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
	if sh := s.names.shards.At(int32(maphash.Bytes(hashSeed, b) & s.names.mask)); sh != nil {
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

// foldKeys returns the keys under which byFold holds e, for the names form
// (search_names.go): its name folded (lowercased, without '_', '-' and
// '.'), and its name on its MCP server folded when that differs.
func foldKeys(e *entry) []string {
	n, f := foldKeyPair(e)
	if f != "" {
		return []string{n, f}
	}
	return []string{n}
}

// foldKeyPair returns the keys of foldKeys: the folded name, and the
// folded MCP name or "".
func foldKeyPair(e *entry) (n, f string) {
	n = text.Unseparated(e.lowerName) // the name folded (text.FoldName)
	if part := serverName(&e.tool); part != "" {
		if f := text.FoldName(part); f != "" && f != n {
			return n, f
		}
	}
	return n, ""
}

// serverName returns the name a tool has on its MCP server: its MCPName,
// else the part of an mcp__server__tool name after the server, else "".
func serverName(t *Tool) string {
	if t.MCPName != "" {
		return t.MCPName
	}
	rest, ok := strings.CutPrefix(t.Name, "mcp__")
	if !ok {
		return ""
	}
	_, part, _ := strings.Cut(rest, "__")
	return part
}

// folded returns the available tools a query token names: those whose
// name or MCP name, folded, is the token folded; in pool order. The slice
// is shared: do not change it.
func (s *snapshot) folded(token string) []*entry {
	k := text.FoldName(token)
	if sh := s.names.shard(k); sh != nil {
		return sh.byFold[k]
	}
	return nil
}
