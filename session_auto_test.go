package toolsearch

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToolSearchModeText(t *testing.T) {
	cases := []struct {
		in      string
		want    ToolSearchMode
		wantErr string
	}{
		{in: "true", want: ModeAlways},
		{in: " TRUE ", want: ModeAlways},
		{in: "", want: ModeAlways},
		{in: "false", want: ModeNever},
		{in: "auto", want: ModeAuto},
		{in: "auto:25", want: 25},
		{in: "Auto:1", want: 1},
		{in: "auto:0", want: ModeAlways},
		{in: "auto:100", want: ModeNever},
		{in: "auto:101", wantErr: `"auto:101": the percentage must be an integer from 0 to 100`},
		{in: "auto:-1", wantErr: "from 0 to 100"},
		{in: "auto:+5", wantErr: "from 0 to 100"},
		{in: "auto:", wantErr: "from 0 to 100"},
		{in: "auto:1.5", wantErr: "from 0 to 100"},
		{in: "yes", wantErr: `unknown tool search mode "yes" (want true, false, auto or auto:N)`},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			var got ToolSearchMode
			err := got.UnmarshalText([]byte(tc.in))
			if tc.wantErr != "" {
				require.ErrorIs(t, err, ErrInvalidOption, "UnmarshalText(%q)", tc.in)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err, "UnmarshalText(%q)", tc.in)
			assert.Equal(t, tc.want, got)
			text, err := got.MarshalText()
			require.NoError(t, err)
			var back ToolSearchMode
			require.NoError(t, back.UnmarshalText(text))
			assert.Equal(t, got, back, "text round trip of %q", text)
		})
	}
	assert.Equal(t, "auto:25", ToolSearchMode(25).String())
	assert.Equal(t, "true auto false", fmt.Sprint(ModeAlways, ModeAuto, ModeNever), "%v prints the text form")
}

// autoRegistry holds one loaded tool and one deferred tool whose
// definition is exactly chars characters long (UTF-16 units), padded with
// pad (1 or 2 units).
func autoRegistry(t *testing.T, chars int, pad string) *Registry {
	t.Helper()
	const schema = `{"type":"object"}`
	name := "Deferred"
	n := chars - len(name) - len(schema)
	unit := utf16Len(pad)
	desc := strings.Repeat(pad, n/unit) + strings.Repeat("x", n%unit)
	reg, err := NewRegistry(nil,
		Tool{Name: "Read", Description: "Read a file."},
		Tool{Name: name, Description: desc, InputSchema: []byte(schema), ShouldDefer: true},
	)
	require.NoError(t, err)
	d := definition(reg.load().named(name), false)
	require.Equal(t, chars, definitionChars(&d), "the deferred definition's length")
	return reg
}

// Point 7: auto mode flips exactly at the threshold, with a token counter
// (tokens − 500 ≥ floor(window × N / 100)) and without one (characters ≥
// floor(2.5 × threshold)).
func TestAutoModeThreshold(t *testing.T) {
	const window, percent = 1000, 10 // threshold 100 tokens, 250 characters
	cases := []struct {
		name   string
		tokens int // returned by the counter; 0 = no counter
		chars  int
		pad    string
		window int
		want   bool
	}{
		{name: "tokens threshold-1", tokens: 500 + 100 - 1, chars: 10_000, want: false},
		{name: "tokens threshold", tokens: 500 + 100, chars: 30, want: true},
		{name: "tokens threshold+1", tokens: 500 + 100 + 1, chars: 30, want: true},
		{name: "chars threshold-1", chars: 249, pad: "x", want: false},
		{name: "chars threshold", chars: 250, pad: "x", want: true},
		{name: "chars threshold+1", chars: 251, pad: "x", want: true},
		{name: "chars count UTF-16 units, below", chars: 249, pad: "😀", want: false},
		{name: "chars count UTF-16 units, at", chars: 250, pad: "😀", want: true},
		// window 1010 → threshold 101 → floor(252.5) = 252 characters
		{name: "odd threshold rounds down, below", chars: 251, pad: "é", window: 1010, want: false},
		{name: "odd threshold rounds down, at", chars: 252, pad: "é", window: 1010, want: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg := autoRegistry(t, tc.chars, cmp.Or(tc.pad, "x"))
			opts := &SessionOptions{
				Mode:          percent,
				ContextWindow: max(tc.window, window),
			}
			if tc.tokens > 0 {
				opts.CountTokens = func(defs []ToolDefinition) (int, error) {
					assert.Equal(t, []string{"Deferred"}, toolNames(defs), "the counter sees the deferred tools")
					return tc.tokens, nil
				}
			}
			s := NewSession(reg, opts)
			assert.Equal(t, tc.want, s.ToolSearchOffered(), "ToolSearchOffered")
			if tc.want {
				assert.Equal(t, []string{"Read", "ToolSearch"}, toolNames(mustTools(t, s)))
			} else {
				assert.Equal(t, []string{"Deferred", "Read"}, toolNames(mustTools(t, s)), "below the threshold every tool is sent")
				assert.Equal(t, Announcement{}, s.Announce())
			}
		})
	}
}

func TestAutoModeCounter(t *testing.T) {
	reg := autoRegistry(t, 300, "x") // above 250 characters
	var calls atomic.Int32
	s := NewSession(reg, &SessionOptions{
		Mode:          ModeAuto,
		ContextWindow: 1000,
		CountTokens: func([]ToolDefinition) (int, error) {
			calls.Add(1)
			return 0, errors.New("counting service down")
		},
	})
	assert.True(t, s.ToolSearchOffered(), "a failing counter falls back to characters")
	mustTools(t, s)
	s.Announce()
	assert.Equal(t, int32(1), calls.Load(), "the counter is called once per registry state")
	require.NoError(t, reg.Register(Tool{Name: "Other", ShouldDefer: true}))
	s.ToolSearchOffered()
	assert.Equal(t, int32(2), calls.Load(), "and again after a change")
}

func TestModesAlwaysNever(t *testing.T) {
	cases := []struct {
		name string
		mode ToolSearchMode
		want []string
	}{
		{"always", ModeAlways, []string{"Read", "ToolSearch"}},
		{"never", ModeNever, []string{"Deferred", "Read"}},
		{"auto at 100% or more is never", 150, []string{"Deferred", "Read"}},
		{"auto at the default 10%", ModeAuto, []string{"Deferred", "Read"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSession(autoRegistry(t, 40, "x"), &SessionOptions{Mode: tc.mode})
			assert.Equal(t, tc.want, toolNames(mustTools(t, s)))
		})
	}
}

// TestAutoModeCountsChanges: without a token counter, the characters auto
// mode counts are patched with each change (tools registered, replaced,
// removed, their servers disconnected and back, some outside the scope);
// after every change they equal a count of every deferred tool in scope,
// and the decision is the one that count gives, both sides of the
// threshold.
func TestAutoModeCountsChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var reg Registry
	scope := &Scope{} // the tools of even number
	for i := 0; i < 30; i += 2 {
		n := "t" + strconv.Itoa(i)
		scope.Allow = append(scope.Allow, n, "mcp__a__"+n, "mcp__b__"+n, "mcp__c__"+n)
	}
	s := NewSession(&reg, &SessionOptions{Mode: ModeAuto, ContextWindow: 400, Search: SearchOptions{Scope: scope}})
	tool := func() Tool {
		srv := []string{"", "a", "b", "c"}[rng.IntN(4)]
		name := "t" + strconv.Itoa(rng.IntN(30))
		if srv != "" {
			name = "mcp__" + srv + "__" + name
		}
		return Tool{Name: name, Server: srv, Description: strings.Repeat("é", rng.IntN(60)), ShouldDefer: rng.IntN(4) > 0}
	}
	flips := map[bool]int{}
	for step := range sweepSize(300, 3000) {
		switch rng.IntN(5) {
		case 0, 1:
			require.NoError(t, reg.Replace(tool()))
		case 2:
			reg.Remove(tool().Name)
		case 3:
			reg.SetServerStatus([]string{"a", "b", "c"}[rng.IntN(3)], ServerStatus(rng.IntN(3)))
		default:
			t := tool()
			_, _ = reg.SetServerTools(cmp.Or(t.Server, "b"), []Tool{t})
		}
		if rng.IntN(3) == 0 {
			continue // some changes are not looked at: the next count spans several
		}
		snap := reg.load()
		on := s.autoOn(snap)
		want := 0
		for e := range snap.deferredTools() {
			want += s.autoChars(e)
		}
		st := s.auto.cur.Load()
		require.NotNil(t, st, "step %d", step)
		require.Equal(t, want, st.val.chars, "step %d: the characters counted", step)
		require.Equal(t, autoDefersChars(want, autoThreshold(400, int(ModeAuto))), on, "step %d: the decision", step)
		flips[on]++
	}
	assert.Positive(t, flips[true], "some states defer")
	assert.Positive(t, flips[false], "some states do not")
}
