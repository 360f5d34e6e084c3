#!/usr/bin/env bash
# Measures `toolsearch batch` per query as whole processes, on a mixed
# catalog (scripts/clibench/gen: real MCP and dataset tools with kebab-case,
# snake_case and camelCase names and descriptions in several scripts, on
# synthetic servers; keyword queries of 1 to 3 terms, one in four with a
# required "+term"): the time of a process answering QUERIES queries minus
# that of one answering the first alone, divided by QUERIES-1. Startup,
# reading the catalog and registering it cancel out.
#
# Then the same with Claude Code's own search code, when node and npm are
# there: `npm pack @anthropic-ai/claude-code@VERSION` (or the cli.js named
# by $CLAUDE_CODE_CLI), run by scripts/clibench/claude_code.mjs on the same
# catalog, 1 query against CC_QUERIES (fewer: each costs tens of ms), and
# the rankings of those queries compared with batch's.
#
# Usage (from anywhere): scripts/clibench/run.sh [TOOLS] [QUERIES] [CC_QUERIES]
# Defaults: 10000 tools, 20000 queries, 200 Claude Code queries. Each
# process is run RUNS times (default 5; 3 for Claude Code's), alternating,
# and the median is taken. Wall time and CPU time (user+sys) are both shown.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tools=${1:-10000}
queries=${2:-20000}
ccq=${3:-200}
runs=${RUNS:-5}
version=${CLAUDE_CODE_VERSION:-2.1.89}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
go build -o "$work/toolsearch" ./cmd/toolsearch
go run ./scripts/clibench/gen -n "$tools" -queries "$queries" -out "$work"

# timed CMD...: runs CMD, prints "wall_ns cpu_ns"
timed() {
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f "%U %S" -o "$work/cpu" "$@" >/dev/null
  t1=$(date +%s%N)
  read -r u s <"$work/cpu"
  echo "$((t1 - t0)) $(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.0f", (u+s)*1e9}')"
}
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
# per LABEL N FILE1 FILEN OUT: prints the median per-query wall and CPU time
# from the two files of "wall cpu" lines, and writes "wall_us cpu_us" to OUT
per() {
  local label=$1 n=$2 w1 wn c1 cn
  w1=$(cut -d' ' -f1 "$3" | median); wn=$(cut -d' ' -f1 "$4" | median)
  c1=$(cut -d' ' -f2 "$3" | median); cn=$(cut -d' ' -f2 "$4" | median)
  awk -v l="$label" -v n="$n" -v w1="$w1" -v wn="$wn" -v c1="$c1" -v cn="$cn" 'BEGIN{
    printf "%s: 1 query %.1f ms, %d queries %.1f ms wall (%.1f / %.1f ms CPU): %.2f us per query wall, %.2f us CPU\n",
      l, w1/1e6, n, wn/1e6, c1/1e6, cn/1e6, (wn-w1)/(n-1)/1e3, (cn-c1)/(n-1)/1e3 }'
  awk -v n="$n" -v w1="$w1" -v wn="$wn" -v c1="$c1" -v cn="$cn" 'BEGIN{print (wn-w1)/(n-1)/1e3, (cn-c1)/(n-1)/1e3}' >"$5"
}

echo "# $(date -u) $(uptime)"
echo "# catalog: $tools tools; $(go version)"
ts=("$work/toolsearch" batch --catalog "$work/catalog.json")
"${ts[@]}" --queries "$work/queries.json" >/dev/null # warm the page cache
: >"$work/go1"; : >"$work/goN"
for _ in $(seq "$runs"); do
  timed "${ts[@]}" --queries "$work/queries-1.json" >>"$work/go1"
  timed "${ts[@]}" --queries "$work/queries.json" >>"$work/goN"
done
per "toolsearch batch" "$queries" "$work/go1" "$work/goN" "$work/go.num"

cli=${CLAUDE_CODE_CLI:-}
if [ -z "$cli" ] && command -v npm >/dev/null && command -v node >/dev/null; then
  if (cd "$work" && npm pack --silent "@anthropic-ai/claude-code@$version" >/dev/null 2>&1 && tar xzf anthropic-ai-claude-code-*.tgz); then
    cli=$work/package/cli.js
  fi
fi
if [ -z "$cli" ] || ! command -v node >/dev/null; then
  echo "Claude Code: not measured (no node, or @anthropic-ai/claude-code@$version could not be fetched; set CLAUDE_CODE_CLI to its cli.js)"
  exit 0
fi
node -e 'const fs=require("fs");const q=JSON.parse(fs.readFileSync(process.argv[1]));fs.writeFileSync(process.argv[2],JSON.stringify(q.slice(0,+process.argv[3])))' \
  "$work/queries.json" "$work/queries-cc.json" "$ccq"
cc=(node "$root/scripts/clibench/claude_code.mjs" --cli "$cli" --catalog "$work/catalog.json")
: >"$work/cc1"; : >"$work/ccN"
for _ in $(seq "${CC_RUNS:-3}"); do
  timed "${cc[@]}" --queries "$work/queries-1.json" >>"$work/cc1"
  timed "${cc[@]}" --queries "$work/queries-cc.json" >>"$work/ccN"
done
per "Claude Code $version search code (its cli.js, run by node $(node --version))" "$ccq" "$work/cc1" "$work/ccN" "$work/cc.num"

# Same rankings? batch leaves out an empty match list.
"${cc[@]}" --queries "$work/queries-cc.json" --out "$work/cc.json"
"${ts[@]}" --queries "$work/queries-cc.json" >"$work/ts.json"
node -e 'const fs=require("fs");const a=JSON.parse(fs.readFileSync(process.argv[1])),b=JSON.parse(fs.readFileSync(process.argv[2]));
let d=0;a.forEach((x,i)=>{if(JSON.stringify(x.matches??[])!==JSON.stringify(b[i].matches))d++});
console.log(`rankings: ${a.length} queries, ${d} differ`)' "$work/ts.json" "$work/cc.json"
read -r gw gc <"$work/go.num"
read -r cw cc_ <"$work/cc.num"
awk -v gw="$gw" -v gc="$gc" -v cw="$cw" -v cc="$cc_" 'BEGIN{printf "ratio (Claude Code / toolsearch, per query): %.0fx wall, %.0fx CPU\n", cw/gw, cc/gc}'
