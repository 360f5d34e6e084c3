package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch"
)

// ServerConfig is one entry of a Claude/Cursor-style mcpServers object: a
// stdio server (Command, Args, Env, Cwd) or a remote one (URL, Type,
// Headers).
type ServerConfig struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`

	// URL is a remote server's endpoint. Type "sse" connects with the
	// legacy HTTP+SSE transport; "http", "streamable-http" or no type
	// tries Streamable HTTP first and falls back to SSE.
	URL     string            `json:"url,omitempty"`
	Type    string            `json:"type,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`

	// Disabled servers are not started.
	Disabled bool `json:"disabled,omitempty"`
	// Trust is "pin" (the default: a tool whose description or schema
	// changes is held until approved) or "auto" (changes are accepted and
	// pinned again, with a warning in the log).
	Trust string `json:"trust,omitempty"`
}

// Remote reports whether the server is reached over HTTP.
func (sc ServerConfig) Remote() bool { return sc.URL != "" }

// equal reports whether two entries start the same server the same way.
func (sc ServerConfig) equal(o ServerConfig) bool {
	return sc.Command == o.Command && slices.Equal(sc.Args, o.Args) && maps.Equal(sc.Env, o.Env) &&
		sc.Cwd == o.Cwd && sc.URL == o.URL && sc.Type == o.Type && maps.Equal(sc.Headers, o.Headers) &&
		sc.Disabled == o.Disabled
}

// Mode is how downstream sessions see the tools: "dynamic" or "bridge".
type Mode int

const (
	// ModeDynamic lists the always-loaded tools and ToolSearch; the tools
	// ToolSearch finds join the session's tools/list, announced with
	// notifications/tools/list_changed.
	ModeDynamic Mode = iota
	// ModeBridge lists a fixed set: ToolSearch and CallTool {name,
	// arguments}, through which the found tools are called.
	ModeBridge
)

// String returns "dynamic" or "bridge".
func (m Mode) String() string {
	if m == ModeBridge {
		return "bridge"
	}
	return "dynamic"
}

// MarshalText returns String.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads "dynamic" or "bridge".
func (m *Mode) UnmarshalText(b []byte) error {
	switch string(b) {
	case "dynamic", "":
		*m = ModeDynamic
	case "bridge":
		*m = ModeBridge
	default:
		return fmt.Errorf(`mode %q: want "dynamic" or "bridge"`, b)
	}
	return nil
}

// Options are the gateway's settings from the config file's "toolsearch"
// object; flags override them.
type Options struct {
	Mode Mode `json:"mode"`
	// Strategy ranks keyword queries: "default", "bm25", "hybrid" or
	// "regex".
	Strategy string `json:"strategy,omitempty"`
	// StateFile keeps the tool pins; "" means no pinning.
	StateFile string `json:"stateFile,omitempty"`
	// HoldNewServers holds every tool of a server seen for the first
	// time until approved.
	HoldNewServers bool `json:"holdNewServers,omitempty"`
	// CallTimeout bounds each forwarded call; default 60s.
	CallTimeout Duration `json:"callTimeout,omitempty"`
	// ConnectTimeout bounds starting a server and listing its tools;
	// default 30s.
	ConnectTimeout Duration `json:"connectTimeout,omitempty"`
}

// Duration is a time.Duration written as a Go duration string ("30s").
type Duration time.Duration

// UnmarshalText reads a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("duration %q: %w", b, err)
	}
	if v <= 0 {
		return fmt.Errorf("duration %q: must be positive", b)
	}
	*d = Duration(v)
	return nil
}

// MarshalText writes the duration as a Go duration string.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// Config is a parsed configuration file.
type Config struct {
	// Servers by name; Names in sorted order.
	Servers map[string]ServerConfig
	Names   []string
	// Bad holds, per server name, why its entry cannot be used; such a
	// server is reported but never started.
	Bad     map[string]string
	Options Options
}

// errConfig marks a configuration that cannot be used at all.
var errConfig = errors.New("bad config")

// ParseConfig reads {"mcpServers": {NAME: entry}} (VS Code's "servers"
// key is read too) and an optional "toolsearch" object of Options. A server
// entry that cannot be used is kept in Bad, with its problem, so that it is
// reported rather than silently dropped; a file that is not such an object
// is an error.
func ParseConfig(data []byte) (*Config, error) {
	var raw struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Servers    map[string]json.RawMessage `json:"servers"`
		Toolsearch json.RawMessage            `json:"toolsearch"`
	}
	d := json.NewDecoder(bytes.NewReader(data))
	if err := d.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%w: config is not valid JSON: %v", errConfig, err)
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: config is not valid JSON: text after the top-level object", errConfig)
	}
	entries := raw.MCPServers
	if entries == nil {
		entries = raw.Servers
	} else if raw.Servers != nil {
		return nil, fmt.Errorf(`%w: config has both "mcpServers" and "servers": keep one`, errConfig)
	}
	if entries == nil {
		return nil, fmt.Errorf(`%w: config has no "mcpServers" object`, errConfig)
	}
	cfg := &Config{Servers: map[string]ServerConfig{}, Bad: map[string]string{}}
	if len(raw.Toolsearch) > 0 {
		od := json.NewDecoder(bytes.NewReader(raw.Toolsearch))
		od.DisallowUnknownFields()
		if err := od.Decode(&cfg.Options); err != nil {
			return nil, fmt.Errorf(`%w: "toolsearch" options: %v`, errConfig, err)
		}
		if _, err := toolsearch.ParseStrategy(cfg.Options.Strategy); err != nil {
			return nil, fmt.Errorf(`%w: "toolsearch" options: unknown strategy %q: want default, bm25, hybrid or regex`, errConfig, cfg.Options.Strategy)
		}
	}
	for name, r := range entries {
		var sc ServerConfig
		if err := json.Unmarshal(r, &sc); err != nil {
			cfg.Bad[name] = fmt.Sprintf("bad entry: %v", err)
		} else if why := sc.problem(name); why != "" {
			cfg.Bad[name] = why
		}
		cfg.Servers[name] = sc
		cfg.Names = append(cfg.Names, name)
	}
	slices.Sort(cfg.Names)
	return cfg, nil
}

// problem says why an entry cannot be used, or "".
func (sc ServerConfig) problem(name string) string {
	if strings.TrimSpace(name) == "" {
		return "empty server name"
	}
	switch {
	case sc.URL != "" && sc.Command != "":
		return `both "command" and "url" given: a server is one or the other`
	case sc.URL != "":
		u, err := url.Parse(sc.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Sprintf("url %q is not an http(s) URL", sc.URL)
		}
		switch sc.Type {
		case "", "http", "streamable-http", "streamableHttp", "sse":
		default:
			return fmt.Sprintf(`type %q of a remote server: want "http" (Streamable HTTP, falling back to SSE) or "sse"`, sc.Type)
		}
	case strings.TrimSpace(sc.Command) == "":
		return `no "command" (or "url") given`
	}
	switch sc.Trust {
	case "", "pin", "auto":
	default:
		return fmt.Sprintf(`trust %q: want "pin" or "auto"`, sc.Trust)
	}
	return ""
}
