package toolsearch

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKeywordChangeSharesPages: in a registry whose tools all have the
// word "common" in their description and as a name part, removing a tool
// from the middle, adding one, or replacing one with another description,
// leaves the version before unchanged and gives a next version whose
// long lists share all their pages with the version before but the one
// or two the change wrote.
func TestKeywordChangeSharesPages(t *testing.T) {
	const n = 40 * 1024
	var r Registry
	var tools []Tool
	for i := range n {
		tools = append(tools, Tool{Name: "common_tool_" + strconv.Itoa(i), Description: "a common tool number " + strconv.Itoa(i), ShouldDefer: true})
	}
	require.NoError(t, r.Register(tools...))
	mid := tools[n/2]
	changed := mid
	changed.Description = "another text"
	for _, c := range []struct {
		name   string
		change func()
	}{
		{"removed", func() { require.Equal(t, 1, r.Remove(mid.Name)) }},
		{"added back", func() { require.NoError(t, r.Register(mid)) }},
		{"replaced", func() { require.NoError(t, r.Replace(changed)) }},
	} {
		before := r.load().ix
		lists := map[field][]int32{}
		for _, f := range []field{fieldPart, fieldDesc} {
			lists[f] = before.lookup("common").list(f).Slice()
		}
		c.change()
		after := r.load().ix
		require.NotSame(t, before, after, c.name)
		for _, f := range []field{fieldPart, fieldDesc} {
			old, nl := before.lookup("common").list(f), after.lookup("common").list(f)
			require.Equal(t, lists[f], old.Slice(), "%s, field %d: the version before is unchanged", c.name, f)
			require.Greater(t, len(old.Pages()), 30, "%s: a long list", c.name)
			pages := map[*int32]bool{}
			for _, pg := range old.Pages() {
				pages[&pg[0]] = true
			}
			shared := 0
			for _, pg := range nl.Pages() {
				if pages[&pg[0]] {
					shared++
				}
			}
			want := len(old.Pages()) - 2
			if c.name == "replaced" && f == fieldPart {
				want = len(old.Pages()) // the name did not change
			}
			require.GreaterOrEqual(t, shared, want, "%s, field %d: pages shared", c.name, f)
		}
	}
}

// TestHasSlot: hasSlot finds every slot of a list of many pages, and no
// other, before, between and after them.
func TestHasSlot(t *testing.T) {
	var slots []int32
	for s := int32(3); s < 20000; s += 3 {
		slots = append(slots, s)
	}
	for _, l := range []slotList{{}, slotList{}.PatchPages(nil, slots[:1], slotOf, 128), slotList{}.PatchPages(nil, slots, slotOf, 128)} {
		in := map[int32]bool{}
		for s := range l.All() {
			in[s] = true
		}
		for s := int32(-1); s < 20010; s++ {
			if hasSlot(l, s) != in[s] {
				t.Fatalf("hasSlot(%d) in a list of %d: %v", s, l.Len(), !in[s])
			}
		}
	}
}
