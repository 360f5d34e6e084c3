#!/usr/bin/env bash
# Development cross-check (not run in CI): compares `toolsearch batch` with an
# independent Python implementation of the search rules (spec_search.py, kept
# outside this repository) on generated catalogs and queries.
# Usage: scripts/crosscheck/run.sh [SEEDS]
# The reference is $SPEC_SEARCH if set, else the first
# shared/reference/spec_search.py found in a directory above the checkout (so
# a git worktree nested deeper finds it too).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ref=${SPEC_SEARCH:-}
if [ -z "$ref" ]; then
  dir=$(dirname "$root")
  while :; do
    if [ -f "$dir/shared/reference/spec_search.py" ]; then
      ref=$dir/shared/reference/spec_search.py
      break
    fi
    [ "$dir" = / ] && break
    dir=$(dirname "$dir")
  done
fi
if [ -z "$ref" ] || [ ! -f "$ref" ]; then
  echo "crosscheck: no reference found: set SPEC_SEARCH to spec_search.py, or put shared/reference/spec_search.py in a directory above $root" >&2
  exit 2
fi
n=${1:-300}
work=$(mktemp -d)
go build -o "$work/ts" "$root/cmd/toolsearch"
cd "$work"
bad=0 total=0
for s in $(seq 1 "$n"); do
  python3 "$here/gen.py" "$s"
  python3 "$ref" --catalog "cat$s.json" --queries "q$s.json" > "ref$s.json"
  ./ts batch --catalog "cat$s.json" --queries "q$s.json" > "go$s.json"
  read -r b t < <(python3 - "$s" <<'PY'
import json, sys
s = sys.argv[1]
a = json.load(open(f"ref{s}.json")); b = json.load(open(f"go{s}.json"))
bad = 0
for x, y in zip(a, b):
    if x["matches"] != y.get("matches", []) or x.get("not_found") != y.get("not_found") \
            or x["total_deferred_tools"] != y.get("total_deferred_tools"):
        bad += 1
        print(s, json.dumps(x)[:300], "\n  go:", json.dumps(y)[:300], file=sys.stderr)
print(bad, len(a))
PY
)
  bad=$((bad + b)) total=$((total + t))
done
echo "$total queries on $n catalogs, $bad differ from the reference"
[ "$bad" -eq 0 ]
