package gateway

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch"
)

// Pinning against tool poisoning and rug pulls: the first time the gateway
// sees a tool it records a hash of the tool's raw name, description and
// input schema in the state file. A tool whose hash later differs (its
// server changed what the model reads or what the tool accepts), and, with
// Options.HoldNewServers, every tool of a server that has no pins yet, is
// held: left out of the registry the sessions search, so it is not listed,
// not found and not callable, until approved (the approve command, or a
// server with "trust": "auto", whose changes are pinned again at once).

// PinState is the state file's content.
type PinState struct {
	// Pinned maps server → raw tool name → hash of the approved
	// definition.
	Pinned map[string]map[string]string `json:"pinned"`
	// Held maps server → raw tool name → the definition waiting for
	// approval.
	Held map[string]map[string]HeldTool `json:"held,omitempty"`
}

// HeldTool is a tool held back until approved.
type HeldTool struct {
	// Name is the tool's name as the model would see it.
	Name string `json:"name"`
	// Hash is the held definition's hash; approving pins it.
	Hash string `json:"hash"`
	// Reason says why it is held, in words.
	Reason string `json:"reason"`
}

// The reasons a tool is held.
const (
	reasonChanged   = "its description or input schema changed since it was approved"
	reasonNewServer = "its server is new and new servers are held until approved (holdNewServers)"
)

// toolHash is the hash of what the model reads of t and what t accepts:
// the raw name, the description and the input schema, compacted.
func toolHash(t toolsearch.Tool) string {
	h := sha256.New()
	h.Write([]byte(t.MCPName))
	h.Write([]byte{0})
	h.Write([]byte(t.Description))
	h.Write([]byte{0})
	var b bytes.Buffer
	if err := json.Compact(&b, t.InputSchema); err != nil { // registered schemas are valid JSON
		b.Reset()
		b.Write(t.InputSchema)
	}
	h.Write(b.Bytes())
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// review applies the pins of server to its listed tools: it returns the
// approved ones, and updates st (new pins, the held set of server) in
// place, reporting whether st changed. auto accepts changes; holdNew holds
// the tools of a server without pins.
func (st *PinState) review(server string, listed []toolsearch.Tool, auto, holdNew bool) (approved []toolsearch.Tool, changed bool) {
	if st.Pinned == nil {
		st.Pinned = map[string]map[string]string{}
	}
	pins := st.Pinned[server]
	newServer := pins == nil
	if pins == nil {
		pins = map[string]string{}
	}
	held := map[string]HeldTool{}
	for _, t := range listed {
		h := toolHash(t)
		old, known := pins[t.MCPName]
		switch {
		case known && old == h:
			approved = append(approved, t)
		case known && !auto:
			held[t.MCPName] = HeldTool{Name: t.Name, Hash: h, Reason: reasonChanged}
		case newServer && holdNew && !auto:
			held[t.MCPName] = HeldTool{Name: t.Name, Hash: h, Reason: reasonNewServer}
		default: // a new tool, or an accepted change
			pins[t.MCPName] = h
			changed = true
			approved = append(approved, t)
		}
	}
	if len(pins) > 0 {
		st.Pinned[server] = pins
	}
	if !maps.Equal(held, st.Held[server]) {
		changed = true
		if st.Held == nil {
			st.Held = map[string]map[string]HeldTool{}
		}
		if len(held) == 0 {
			delete(st.Held, server)
		} else {
			st.Held[server] = held
		}
	}
	return approved, changed
}

// Approve pins the held tools that names select: a server name selects all
// its held tools, a tool name (mcp__server__tool) one. It returns the names
// of the tools approved, sorted, and an error naming the names that select
// nothing.
func (st *PinState) Approve(names ...string) (approved []string, err error) {
	var unknown []string
	for _, n := range names {
		found := false
		for server, tools := range st.Held {
			for raw, h := range tools {
				if n != server && n != h.Name {
					continue
				}
				found = true
				if st.Pinned == nil {
					st.Pinned = map[string]map[string]string{}
				}
				if st.Pinned[server] == nil {
					st.Pinned[server] = map[string]string{}
				}
				st.Pinned[server][raw] = h.Hash
				delete(tools, raw)
				approved = append(approved, h.Name)
			}
			if len(tools) == 0 {
				delete(st.Held, server)
			}
		}
		if !found {
			unknown = append(unknown, n)
		}
	}
	slices.Sort(approved)
	if len(unknown) > 0 {
		err = fmt.Errorf("nothing held under %s (see approve --list)", strings.Join(unknown, ", "))
	}
	return approved, err
}

// HeldNames returns every held tool's name, sorted.
func (st *PinState) HeldNames() []string {
	var names []string
	for _, tools := range st.Held {
		for _, h := range tools {
			names = append(names, h.Name)
		}
	}
	slices.Sort(names)
	return names
}

// StateFile is the pin state on disk. Every change is a locked
// read-modify-write (the gateway and the approve command may write at the
// same time) that replaces the file atomically.
type StateFile struct {
	Path string
}

// Load reads the state; a missing file is an empty state.
func (f StateFile) Load() (*PinState, error) {
	st := &PinState{}
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the pin state: %w", err)
	}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("pin state %s is not valid: %w", f.Path, err)
	}
	return st, nil
}

// Update applies change to the state on disk, under the file's lock, and
// writes the state back when change reports a change. It returns the state
// as it is after the update.
func (f StateFile) Update(change func(*PinState) bool) (*PinState, error) {
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return nil, fmt.Errorf("pin state: %w", err)
	}
	unlock, err := lockFile(f.Path + ".lock")
	if err != nil {
		return nil, fmt.Errorf("pin state: locking: %w", err)
	}
	defer unlock()
	st, err := f.Load()
	if err != nil {
		return nil, err
	}
	if !change(st) {
		return st, nil
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("pin state: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), ".pins-*")
	if err != nil {
		return nil, fmt.Errorf("pin state: %w", err)
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("pin state: writing: %w", err)
	}
	if err := os.Rename(tmp.Name(), f.Path); err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("pin state: %w", err)
	}
	return st, nil
}
