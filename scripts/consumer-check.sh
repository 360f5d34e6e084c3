#!/usr/bin/env bash
# Consumer check: modules outside the repository import the root package
# and every adapter, as a user's module would, and build, run and vendor
# with go.work out of the picture (GOWORK=off). No go.mod of the repository
# has a replace directive: the adapters require the root (and, for the eino
# and genkit adapters' MCP tests, the mcpsdk adapter) at the version they
# will be tagged with, and the consumer's own go.mod replaces each module
# with this checkout, as someone who vendors or tests unreleased code does.
#
# Two consumers: one with the root and every adapter but genkit, and one
# with the root and genkit. Genkit v1.4.0 cannot share a build list with the
# anthropic adapter (anthropic-sdk-go v2 needs invopop/jsonschema v0.14.0,
# Genkit is written against v0.13.0), so a module cannot import both.
# Called by .ci/run; needs the module proxy (or a warm module cache).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
version=v0.1.0
all=(anthropic eino genkit mcpgo mcpsdk openai)

if grep -n '^[[:space:]]*replace\b' "$repo/go.mod" "$repo"/*/go.mod; then
  echo "consumer-check: the go.mod files above have a replace directive" >&2
  exit 1
fi

# consumer NAME ADAPTER...: builds, runs and vendors the module whose
# main.go is on stdin, requiring the root and the adapters named.
consumer() {
  local name=$1; shift
  local dir
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' RETURN
  cat > "$dir/main.go"
  {
    echo "module example.com/$name"
    echo
    echo "go 1.26"
    echo
    echo "require github.com/toolsearch/toolsearch $version"
    for a in "$@"; do echo "require github.com/toolsearch/toolsearch/$a $version"; done
    echo
    # Every module of the checkout: an adapter may require another one.
    echo "replace github.com/toolsearch/toolsearch => $repo"
    for a in "${all[@]}"; do echo "replace github.com/toolsearch/toolsearch/$a => $repo/$a"; done
  } > "$dir/go.mod"
  (
    cd "$dir"
    export GOWORK=off
    go mod tidy
    go build ./...
    go run .
    go mod vendor
    go build -mod=vendor ./...
  )
  echo "consumer-check: $name ok"
}

consumer consumer anthropic eino mcpgo mcpsdk openai <<'EOF'
// Command consumer uses the root package and every adapter but genkit.
package main

import (
	"fmt"

	"github.com/toolsearch/toolsearch"
	tsanthropic "github.com/toolsearch/toolsearch/anthropic"
	tseino "github.com/toolsearch/toolsearch/eino"
	tsmcpgo "github.com/toolsearch/toolsearch/mcpgo"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
	tsopenai "github.com/toolsearch/toolsearch/openai"
)

var entryPoints = []any{tsanthropic.Tools, tsanthropic.NewToolResults, tsopenai.ChatTools,
	tsopenai.HandleToolSearchCall, tsmcpsdk.New, tsmcpsdk.ErrorResult, tsmcpgo.New, tsmcpgo.ErrorResult,
	tseino.New, tseino.Tool, tseino.ToolInfo}

func main() {
	reg := &toolsearch.Registry{}
	_ = tsmcpsdk.New(reg, nil)
	_ = tsmcpgo.New(reg, nil)
	fmt.Println("consumer: root and", len(entryPoints), "adapter entry points linked")
}
EOF

consumer genkitconsumer genkit <<'EOF'
// Command genkitconsumer uses the root package and the genkit adapter.
package main

import (
	"fmt"

	"github.com/toolsearch/toolsearch"
	tsgenkit "github.com/toolsearch/toolsearch/genkit"
)

var entryPoints = []any{tsgenkit.New, tsgenkit.Tool, tsgenkit.ToolDefinition}

func main() {
	deferred, err := tsgenkit.New(&tsgenkit.Config{Registry: &toolsearch.Registry{}})
	if err != nil {
		panic(err)
	}
	_ = deferred.Conversation(toolsearch.NewSession(deferred.Registry(), nil))
	fmt.Println("genkitconsumer: root and", len(entryPoints), "genkit adapter entry points linked")
}
EOF
echo "consumer-check: ok (GOWORK=off, replace lines in the consumers' go.mod only, vendored builds too)"
