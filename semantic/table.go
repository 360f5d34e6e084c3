package semantic

import (
	"fmt"
	"slices"
	"sync"
)

// table holds the vectors of one registry's tools, shared by the
// successive indexes of the registry (each index hands it to the next in
// Update). Rows are only appended, so that a search of an older index is
// never disturbed: a tool that changed or left keeps its row, unused by
// the newer indexes, until there are more unused rows than used ones and
// the next index copies the used ones into a new Vectors. Unused rows are
// the memory of tools that come back (a server that reconnects).
type table struct {
	mu    sync.Mutex
	vecs  *Vectors
	keys  []Key         // row → key
	rowOf map[Key]int32 // key → row
	cur   *index        // the newest index: it gets the rows of new vectors
}

// compactSlack is the number of unused rows a table keeps beyond as many
// as it uses.
const compactSlack = 1024

func newTable(dims int) *table {
	v, _ := NewVectors(dims) // dims is checked by New
	return &table{vecs: v, rowOf: map[Key]int32{}}
}

// attach makes x the table's newest index: it maps the table's rows to
// x's tools, adds the vectors store holds for x's other tools, and
// returns the positions of the tools still without a vector. store is
// read without the table's lock held.
func (t *table) attach(x *index, store Store, report func(error)) (missing []int32) {
	var found map[Key][]float32
	if store != nil {
		t.mu.Lock()
		var look []Key
		for _, k := range x.keys {
			if _, ok := t.rowOf[k]; !ok {
				look = append(look, k)
			}
		}
		t.mu.Unlock()
		for _, k := range look {
			if v, ok := store.Get(k); ok {
				if found == nil {
					found = map[Key][]float32{}
				}
				found[k] = v
			}
		}
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	used := 0
	for _, k := range x.keys {
		if _, ok := t.rowOf[k]; ok {
			used++
		}
	}
	if len(t.keys)-used > used+compactSlack {
		t.compact(x.keys)
	}
	x.vecs = t.vecs
	rows := make([]int32, len(t.keys), len(t.keys)+len(x.keys)-used)
	for i := range rows {
		rows[i] = -1
	}
	x.want = map[Key]int32{}
	ready := 0
	// Tools of one key: the first holds the row (or waits for it), x.same
	// lists the others under it.
	same := func(first int32, i int) {
		if x.same == nil {
			x.same = map[int32][]int32{}
		}
		x.same[first] = append(x.same[first], int32(i))
	}
	for i, k := range x.keys {
		if r, ok := t.rowOf[k]; ok {
			if f := rows[r]; f >= 0 {
				same(f, i)
			} else {
				rows[r] = int32(i)
			}
			ready++
		} else if f, dup := x.want[k]; dup {
			same(f, i)
		} else {
			x.want[k] = int32(i)
		}
	}
	x.rows.Store(&rows)
	x.ready.Store(int32(ready))
	t.cur = x
	if len(found) > 0 {
		var ks []Key
		var vs [][]float32
		for _, k := range x.keys { // in tool order, for a deterministic table
			if v, ok := found[k]; ok {
				if _, wanted := x.want[k]; wanted {
					ks, vs = append(ks, k), append(vs, v)
				}
			}
		}
		if err := t.add(ks, vs); err != nil {
			report(fmt.Errorf("semantic: a vector of the Store: %w", err))
		}
	}
	for _, i := range x.want {
		missing = append(missing, i)
	}
	slices.Sort(missing)
	return missing
}

// add appends the vectors of keys that have no row yet, and gives their
// rows to the newest index. An invalid vector is left out, and the error
// says which. t.mu must be held.
func (t *table) add(keys []Key, vecs [][]float32) error {
	var bad error
	var ok [][]float32
	x := t.cur
	rows := *x.rows.Load()
	for i, k := range keys {
		if _, has := t.rowOf[k]; has {
			continue
		}
		if _, err := check(vecs[i], t.vecs.dims); err != nil {
			bad = err
			continue
		}
		r := int32(len(t.keys))
		t.keys = append(t.keys, k)
		t.rowOf[k] = r
		pos, wanted := x.want[k]
		if wanted {
			delete(x.want, k)
			x.ready.Add(1 + int32(len(x.same[pos])))
		} else {
			pos = -1
		}
		rows = append(rows, pos)
		ok = append(ok, vecs[i])
	}
	if len(ok) == 0 {
		return bad
	}
	x.rows.Store(&rows) // before the vectors: a search maps every row it finds
	if _, err := t.vecs.Append(ok...); err != nil {
		panic("semantic: vectors checked above were refused: " + err.Error())
	}
	return bad
}

// compact replaces the table's vectors with those of keep that it has.
// t.mu must be held.
func (t *table) compact(keep []Key) {
	v, _ := NewVectors(t.vecs.dims)
	var from []int32
	keys := make([]Key, 0, len(keep))
	rowOf := make(map[Key]int32, len(keep))
	for _, k := range keep {
		if r, ok := t.rowOf[k]; ok {
			if _, dup := rowOf[k]; !dup {
				rowOf[k] = int32(len(keys))
				keys = append(keys, k)
				from = append(from, r)
			}
		}
	}
	v.appendRows(t.vecs, from)
	t.vecs, t.keys, t.rowOf = v, keys, rowOf
}
