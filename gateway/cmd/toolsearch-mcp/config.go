package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// serverConfig is one entry of a Claude/Cursor-style mcpServers object.
type serverConfig struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	// Type and URL belong to remote (HTTP/SSE) servers, which this command
	// does not start; they are read so that such servers are reported
	// rather than rejected.
	Type string `json:"type"`
	URL  string `json:"url"`
}

// config is a parsed configuration file: servers by name, and the names in
// sorted order.
type config struct {
	servers map[string]serverConfig
	names   []string
}

// parseConfig reads {"mcpServers": {name: {command, args, env}}}. A server
// entry that cannot be used (no command, a remote URL) is kept, with its
// problem returned in bad, so that it is reported in the table.
func parseConfig(data []byte) (cfg config, bad map[string]string, err error) {
	var raw struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	d := json.NewDecoder(bytes.NewReader(data))
	if err := d.Decode(&raw); err != nil {
		return config{}, nil, fmt.Errorf("config is not valid JSON: %w", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return config{}, nil, fmt.Errorf("config is not valid JSON: text after the top-level object")
	}
	if raw.MCPServers == nil {
		return config{}, nil, fmt.Errorf(`config has no "mcpServers" object`)
	}
	cfg.servers = map[string]serverConfig{}
	bad = map[string]string{}
	for name, r := range raw.MCPServers {
		var sc serverConfig
		if err := json.Unmarshal(r, &sc); err != nil {
			bad[name] = fmt.Sprintf("bad entry: %v", err)
		} else if sc.Command == "" && (sc.URL != "" || sc.Type != "") {
			bad[name] = fmt.Sprintf("remote server (type %q, url %q) is not supported: only stdio servers are started", sc.Type, sc.URL)
		} else if strings.TrimSpace(sc.Command) == "" {
			bad[name] = `no "command" given`
		}
		cfg.servers[name] = sc
		cfg.names = append(cfg.names, name)
	}
	slices.Sort(cfg.names)
	return cfg, bad, nil
}
