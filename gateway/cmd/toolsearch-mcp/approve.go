package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/toolsearch/toolsearch/gateway/internal/gateway"
)

// approve pins tools that pinning holds back, in the state file a running
// gateway watches.
func approve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("toolsearch-mcp approve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "the gateway's config `file` (to find its pin state)")
	state := fs.String("state", "", "pin state `file` (default: the config's stateFile, else CONFIG.pins.json)")
	list := fs.Bool("list", false, "list the held tools and why they are held")
	all := fs.Bool("all", false, "approve every held tool")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: toolsearch-mcp approve --config FILE [--state FILE] (--list | --all | NAME...)\n"+
			"NAME is a tool (mcp__server__tool) or a server (all its held tools).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return helpCode(err)
	}
	names := fs.Args()
	if (*cfgPath == "" && *state == "") || (*list == (*all || len(names) > 0)) || (*all && len(names) > 0) {
		fs.Usage()
		return 2
	}
	var cfg *gateway.Config
	if *cfgPath != "" && *state == "" {
		data, err := readConfig(*cfgPath)
		if err != nil {
			fmt.Fprintf(stderr, "toolsearch-mcp approve: %s\n", printable(err.Error()))
			return 2
		}
		if cfg, err = gateway.ParseConfig(data); err != nil {
			fmt.Fprintf(stderr, "toolsearch-mcp approve: %s: %s\n", printable(*cfgPath), printable(err.Error()))
			return 2
		}
	}
	sf := gateway.StateFile{Path: statePath(*cfgPath, *state, cfg)}
	if *list {
		st, err := sf.Load()
		if err != nil {
			fmt.Fprintf(stderr, "toolsearch-mcp approve: %v\n", err)
			return 1
		}
		for _, server := range sortedKeys(st.Held) {
			for _, raw := range sortedKeys(st.Held[server]) {
				h := st.Held[server][raw]
				fmt.Fprintf(stdout, "%s\t%s\n", h.Name, h.Reason)
			}
		}
		return 0
	}
	var approved []string
	var aerr error
	_, err := sf.Update(func(st *gateway.PinState) bool {
		if *all {
			names = st.HeldNames()
		}
		approved, aerr = st.Approve(names...)
		return len(approved) > 0
	})
	if err != nil {
		fmt.Fprintf(stderr, "toolsearch-mcp approve: %v\n", err)
		return 1
	}
	for _, n := range approved {
		fmt.Fprintf(stdout, "approved %s\n", n)
	}
	if len(approved) > 0 {
		fmt.Fprintln(stdout, "A running gateway serves them once it sees the state file change (--watch), or on SIGHUP.")
	}
	if aerr != nil {
		fmt.Fprintf(stderr, "toolsearch-mcp approve: %v\n", aerr)
		return 1
	}
	return 0
}
