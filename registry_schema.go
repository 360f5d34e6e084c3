package toolsearch

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/toolsearch/toolsearch/internal/schema"
)

// The registry's side of schema checking: the schemas known to be valid,
// and the parallel pass that checks a batch of new ones.

// schemaCache remembers the input schemas that passed checkSchema, byte for
// byte, so that a schema seen before (one shape shared by many tools, a
// server listing its tools again, a Replace) is not checked again, and the
// tools that have it share one copy. Only valid schemas are kept: an invalid
// one is checked every time, so its error is always complete. Validity is a
// function of the bytes and the registry's limits alone, which never
// change, so a hit is as good as a check.
type schemaCache struct {
	mu    sync.Mutex // held briefly, never while compiling
	seed  maphash.Seed
	valid map[uint64][]json.RawMessage
	n     int
}

// forgetIfStale empties the cache when it holds far more schemas than the
// registry's tools (of which there are tools) may have.
func (c *schemaCache) forgetIfStale(tools int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n > 4*tools+4096 {
		c.seed, c.valid, c.n = maphash.Seed{}, nil, 0
	}
}

func (c *schemaCache) find(raw json.RawMessage) (json.RawMessage, uint64) {
	if c.valid == nil {
		c.seed = maphash.MakeSeed()
		c.valid = map[uint64][]json.RawMessage{}
	}
	h := maphash.Bytes(c.seed, raw)
	for _, v := range c.valid[h] {
		if bytes.Equal(v, raw) {
			return v, h
		}
	}
	return nil, h
}

func (c *schemaCache) add(h uint64, raw json.RawMessage) json.RawMessage {
	v := slices.Clone(raw)
	c.valid[h] = append(c.valid[h], v)
	c.n++
	return v
}

// parallelSchemas is the number of schemas to compile from which checkSchemas
// spreads the work over GOMAXPROCS goroutines.
const parallelSchemas = 32

// checkSchemas checks the schemas of tools. For each tool it returns the
// schema bytes to keep (shared with other tools that have the same schema)
// and the error for an invalid schema. Schemas not seen before are compiled,
// on several goroutines when there are many, with no lock held.
func (r *Registry) checkSchemas(tools []Tool, lim *schema.Limits) ([]json.RawMessage, []error) {
	keep := make([]json.RawMessage, len(tools))
	errs := make([]error, len(tools))
	r.schemas.mu.Lock()
	var todo []int              // tools whose schema is compiled: the first of each new schema
	same := map[int]int{}       // tool → the tool in todo with the same new schema
	first := map[uint64][]int{} // hash → tools in todo
	for i := range tools {
		raw := tools[i].InputSchema
		if len(raw) == 0 {
			continue
		}
		var h uint64
		if keep[i], h = r.schemas.find(raw); keep[i] != nil {
			continue
		}
		j := slices.IndexFunc(first[h], func(j int) bool { return bytes.Equal(tools[j].InputSchema, raw) })
		if j >= 0 {
			same[i] = first[h][j]
			continue
		}
		first[h] = append(first[h], i)
		todo = append(todo, i)
	}
	r.schemas.mu.Unlock()
	if len(todo) >= parallelSchemas && runtime.GOMAXPROCS(0) > 1 {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				for j := next.Add(1) - 1; j < int64(len(todo)); j = next.Add(1) - 1 {
					i := todo[j]
					errs[i] = checkSchema(tools[i].InputSchema, lim)
				}
			})
		}
		wg.Wait()
	} else {
		for _, i := range todo {
			errs[i] = checkSchema(tools[i].InputSchema, lim)
		}
	}
	r.schemas.mu.Lock()
	for _, i := range todo {
		if errs[i] == nil { // another batch may have added it meanwhile
			v, h := r.schemas.find(tools[i].InputSchema)
			if v == nil {
				v = r.schemas.add(h, tools[i].InputSchema)
			}
			keep[i] = v
		}
	}
	r.schemas.mu.Unlock()
	for i, j := range same {
		keep[i], errs[i] = keep[j], errs[j]
	}
	return keep, errs
}
