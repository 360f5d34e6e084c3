#!/usr/bin/env bash
# Consumer check: a module outside the repository imports the root package
# and every adapter, as a user's module would, and builds, runs and vendors
# with go.work out of the picture (GOWORK=off). No go.mod of the repository
# has a replace directive: the adapters require the root at the version they
# will be tagged with, and the consumer's own go.mod replaces each module
# with this checkout, as someone who vendors or tests unreleased code does.
# Called by .ci/run; needs the module proxy (or a warm module cache).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
version=v0.1.0
adapters=(anthropic mcpgo mcpsdk openai)

if grep -n '^[[:space:]]*replace\b' "$repo/go.mod" "$repo"/*/go.mod; then
  echo "consumer-check: the go.mod files above have a replace directive" >&2
  exit 1
fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
{
  echo "module example.com/consumer"
  echo
  echo "go 1.26"
  echo
  echo "require github.com/toolsearch/toolsearch $version"
  for a in "${adapters[@]}"; do echo "require github.com/toolsearch/toolsearch/$a $version"; done
  echo
  echo "replace github.com/toolsearch/toolsearch => $repo"
  for a in "${adapters[@]}"; do echo "replace github.com/toolsearch/toolsearch/$a => $repo/$a"; done
} > go.mod
cat > main.go <<'EOF'
// Command consumer uses the root package and every adapter.
package main

import (
	"fmt"

	"github.com/toolsearch/toolsearch"
	tsanthropic "github.com/toolsearch/toolsearch/anthropic"
	tsmcpgo "github.com/toolsearch/toolsearch/mcpgo"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
	tsopenai "github.com/toolsearch/toolsearch/openai"
)

var entryPoints = []any{tsanthropic.Tools, tsanthropic.NewToolResults, tsopenai.ChatTools,
	tsopenai.HandleToolSearchCall, tsmcpsdk.New, tsmcpsdk.ErrorResult, tsmcpgo.New, tsmcpgo.ErrorResult}

func main() {
	reg := &toolsearch.Registry{}
	_ = tsmcpsdk.New(reg, nil)
	_ = tsmcpgo.New(reg, nil)
	fmt.Println("consumer: root and", len(entryPoints), "adapter entry points linked")
}
EOF
export GOWORK=off
go mod tidy
go build ./...
go run .
go mod vendor
go build -mod=vendor ./...
echo "consumer-check: ok (GOWORK=off, replace lines in the consumer's go.mod only, vendored build too)"
