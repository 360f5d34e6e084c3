package toolsearch

import "slices"

// Sorted lists patched, not rebuilt: a snapshot's pool, deferred tools and
// their keyword-index slots follow a change by merging.

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
