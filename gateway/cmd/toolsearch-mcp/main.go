// Command toolsearch-mcp puts deferred tool loading in front of the MCP
// servers of a Claude/Cursor-style configuration file.
//
// Usage:
//
//	toolsearch-mcp --config FILE [--query Q] [--max-results N] [--timeout D] [--json]
//	toolsearch-mcp serve --config FILE [--listen ADDR] [--mode dynamic|bridge] [--tokens FILE] ...
//	toolsearch-mcp approve --config FILE [--state FILE] (--list | --all | NAME...)
//
// The first form is the report: it starts every server, counts what their
// tool definitions cost in tokens loaded and deferred, and prints a table
// (or, with --json, a report that is also a catalog file for `toolsearch
// search --catalog`).
//
// serve is the gateway: an MCP server (over stdio, or Streamable HTTP with
// --listen) that offers its clients ToolSearch and the tools it finds, and
// forwards their calls to the servers of the config file. approve approves
// tools that pinning holds back. `toolsearch-mcp serve --help` lists every
// option; the README has configurations for Claude Desktop, Cursor, VS Code
// and Claude Code.
//
// Exit status of the report: 0 when every server reported, 1 when some
// failed, 2 on bad usage or an unreadable config. serve exits 0 when
// stopped by a signal (or when its stdio client went away), 1 on failure,
// 2 on bad usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usage is the command's help.
const usage = `usage:
  toolsearch-mcp --config FILE [--query Q] [--max-results N] [--timeout D] [--json]
      report what deferring the servers' tools saves (--json: also a catalog)
  toolsearch-mcp serve --config FILE [--listen ADDR] [--mode dynamic|bridge] ...
      run the gateway (stdio by default); serve --help lists the options
  toolsearch-mcp approve --config FILE [--state FILE] (--list | --all | NAME...)
      approve tools held back by pinning
`

func run(ctx context.Context, args []string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "serve":
			return serve(ctx, args[1:], stdin, stdout, stderr)
		case "approve":
			return approve(args[1:], stdout, stderr)
		case "help", "-h", "-help", "--help":
			fmt.Fprint(stdout, usage)
			return 0
		}
	}
	return inspect(ctx, args, stdout, stderr)
}

// helpCode is the exit status after a flag parse error: 0 for -h/--help.
func helpCode(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

// sortedKeys returns m's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
