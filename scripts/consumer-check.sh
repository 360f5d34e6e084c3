#!/usr/bin/env bash
# Consumer check: modules outside the repository use the root package and
# the adapters as a user's module would, following the README's "Versions
# and tags" recipe: go.work out of the picture (GOWORK=off), the version
# the adapters ask for required, and one replace line per module taken from
# this checkout, in the consumer's own go.mod. No go.mod of the repository
# has a replace directive.
#
#   1. each adapter alone: a module using one adapter, with replace lines
#      for the root and that adapter only, tidies, builds, runs and vendors;
#   2. every example program of the repository, copied into a fresh module
#      of its own (replace lines for the root and its adapter only), builds
#      and runs;
#   3. one module with the root and every adapter but genkit (Genkit v1.4.0
#      cannot share a build list with the anthropic adapter: anthropic-sdk-go
#      v2 needs invopop/jsonschema v0.14.0, Genkit is written against
#      v0.13.0), which attaches servers of both MCP adapters to one hub;
#   4. the gateway command's module copied out, tidy, building.
#
# Called by .ci/run; needs the module proxy (or a warm module cache).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
version=v0.1.0

if grep -n '^[[:space:]]*replace\b' "$repo/go.mod" "$repo"/*/go.mod; then
  echo "consumer-check: the go.mod files above have a replace directive" >&2
  exit 1
fi

# gomod NAME ADAPTER...: the go.mod of a consumer module requiring the root
# and the adapters named, each replaced with the checkout.
gomod() {
  local name=$1; shift
  echo "module example.com/$name"
  echo
  echo "go 1.26"
  echo
  echo "require github.com/toolsearch/toolsearch $version"
  for a in "$@"; do echo "require github.com/toolsearch/toolsearch/$a $version"; done
  echo
  echo "replace github.com/toolsearch/toolsearch => $repo"
  for a in "$@"; do echo "replace github.com/toolsearch/toolsearch/$a => $repo/$a"; done
}

# consumer NAME ADAPTER...: tidies, builds, runs and vendors the module
# whose main.go is on stdin.
consumer() {
  local name=$1; shift
  local dir
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' RETURN
  cat > "$dir/main.go"
  gomod "$name" "$@" > "$dir/go.mod"
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

# example DIR [ADAPTER]: copies the example program in DIR (its Go files
# and testdata) into a fresh module, which must tidy, build, run and pass
# its tests.
example() {
  local src=$repo/$1 adapter=${2:-}
  local dir
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' RETURN
  cp "$src"/*.go "$dir"/
  if [ -d "$src/testdata" ]; then cp -r "$src/testdata" "$dir"/; fi
  gomod "$(basename "$src")" $adapter > "$dir/go.mod"
  (
    cd "$dir"
    export GOWORK=off
    go mod tidy
    go build ./...
    go run . > /dev/null
    go test ./...
  )
  echo "consumer-check: example $1 ok"
}

# 1. Each adapter alone.
consumer anthropiconly anthropic <<'EOF2'
package main

import (
	"fmt"

	"github.com/toolsearch/toolsearch"
	tsanthropic "github.com/toolsearch/toolsearch/anthropic"
)

func main() {
	s, err := tsanthropic.NewSession(&toolsearch.Registry{}, nil)
	if err != nil {
		panic(err)
	}
	tools, _ := s.Tools()
	fmt.Println("anthropiconly:", len(tools), "tools")
}
EOF2

consumer openaionly openai <<'EOF2'
package main

import (
	"fmt"

	"github.com/toolsearch/toolsearch"
	tsopenai "github.com/toolsearch/toolsearch/openai"
)

func main() {
	s, err := tsopenai.NewResponsesSession(&toolsearch.Registry{}, nil)
	if err != nil {
		panic(err)
	}
	tools, _ := s.Tools()
	fmt.Println("openaionly:", len(tools), "tools")
}
EOF2

consumer einoonly eino <<'EOF2'
package main

import (
	"context"
	"fmt"

	tseino "github.com/toolsearch/toolsearch/eino"
)

func main() {
	if _, err := tseino.New(context.Background(), nil); err != nil {
		panic(err)
	}
	fmt.Println("einoonly: middleware made")
}
EOF2

consumer genkitonly genkit <<'EOF2'
package main

import (
	"fmt"

	"github.com/toolsearch/toolsearch"
	tsgenkit "github.com/toolsearch/toolsearch/genkit"
)

func main() {
	deferred, err := tsgenkit.New(nil)
	if err != nil {
		panic(err)
	}
	if _, err := deferred.Conversation(toolsearch.NewSession(deferred.Registry(), nil)); err != nil {
		panic(err)
	}
	fmt.Println("genkitonly: conversation made")
}
EOF2

consumer mcpsdkonly mcpsdk <<'EOF2'
package main

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/mcphub"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

func main() {
	if mcphub.New(nil, nil).Registry() == nil {
		panic("no registry")
	}
	var sessions tsmcpsdk.Sessions
	_ = mcp.NewClient(&mcp.Implementation{Name: "consumer", Version: "0"}, sessions.ClientOptions(nil))
	fmt.Println("mcpsdkonly: client made")
}
EOF2

consumer mcpgoonly mcpgo <<'EOF2'
package main

import (
	"fmt"

	tsmcpgo "github.com/toolsearch/toolsearch/mcpgo"
)

func main() {
	s := tsmcpgo.Client("memory", nil, nil)
	fmt.Println("mcpgoonly: server", s.Name)
}
EOF2

# 2. Every example program, copied out: the root's (examples/*) with the
# root only, and each adapter's (ADAPTER/examples/*) with that adapter.
# The directories are listed, not named here, so that a new example is
# checked too.
for d in "$repo"/examples/*/ "$repo"/*/examples/*/; do
  rel=${d#"$repo"/}
  rel=${rel%/}
  case $rel in
    examples/*) example "$rel" ;;
    *) example "$rel" "${rel%%/*}" ;;
  esac
done

# 3. The root and every adapter but genkit in one module; servers of both
# MCP adapters in one hub, whose CallTool routes to either.
consumer consumer anthropic eino mcpgo mcpsdk openai <<'EOF2'
// Command consumer uses the root package and every adapter but genkit.
package main

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/client"
	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch"
	tsanthropic "github.com/toolsearch/toolsearch/anthropic"
	tseino "github.com/toolsearch/toolsearch/eino"
	"github.com/toolsearch/toolsearch/mcphub"
	tsmcpgo "github.com/toolsearch/toolsearch/mcpgo"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
	tsopenai "github.com/toolsearch/toolsearch/openai"
)

var entryPoints = []any{tsanthropic.NewSession, tsanthropic.ToolParam, tsopenai.NewChatSession, tsopenai.NewResponsesSession,
	tsmcpsdk.Tool, tsmcpsdk.ErrorResult, tsmcpgo.Tool, tsmcpgo.ErrorResult, tseino.New, tseino.Tool, tseino.ToolInfo}

func main() {
	ctx := context.Background()
	hub := mcphub.New(nil, nil)
	sdkServer := mcp.NewServer(&mcp.Implementation{Name: "sdk", Version: "1"}, nil)
	sdkServer.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "from the go-sdk server"}}}, nil
		})
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := sdkServer.Connect(ctx, serverSide, nil); err != nil {
		panic(err)
	}
	var sessions tsmcpsdk.Sessions
	sdkClient := mcp.NewClient(&mcp.Implementation{Name: "consumer", Version: "0"}, sessions.ClientOptions(nil))
	goServer := server.NewMCPServer("mcpgo", "1", server.WithToolCapabilities(true))
	goServer.AddTool(gomcp.NewTool("echo"), func(context.Context, gomcp.CallToolRequest) (*gomcp.CallToolResult, error) {
		return gomcp.NewToolResultText("from the mcp-go server"), nil
	})
	goClient, err := client.NewInProcessClient(goServer)
	if err != nil {
		panic(err)
	}
	if err := hub.Attach(ctx, sessions.Dial("sdk", sdkClient, clientSide, nil), tsmcpgo.Client("mcpgo", goClient, nil)); err != nil {
		panic(err)
	}
	for _, name := range []string{"mcp__sdk__echo", "mcp__mcpgo__echo"} {
		res, err := hub.CallTool(ctx, name, nil)
		if err != nil {
			panic(err)
		}
		fmt.Println(name, "→", res.Text())
	}
	_ = toolsearch.NewSession(hub.Registry(), nil)
	fmt.Println("consumer: root and", len(entryPoints), "adapter entry points linked")
}
EOF2
# 4. The gateway command as `go install` builds it: its module copied out
# (without node_modules) with replace lines for the root and mcpsdk only;
# its go.mod and go.sum must be tidy already, and it must build and vet.
(
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  tar -C "$repo/gateway" --exclude=node_modules -cf - . | tar -C "$dir" -xf -
  cd "$dir"
  export GOWORK=off
  go mod edit -replace "github.com/toolsearch/toolsearch=$repo" -replace "github.com/toolsearch/toolsearch/mcpsdk=$repo/mcpsdk"
  go mod tidy -diff
  go build ./...
  go vet ./...
)
echo "consumer-check: gateway ok"

echo "consumer-check: ok (GOWORK=off, replace lines in the consumers' go.mod only, each adapter alone, every example copied out, vendored builds too)"
