package toolsearch

import (
	"cmp"
	"errors"
	"fmt"
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
