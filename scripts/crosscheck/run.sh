#!/usr/bin/env bash
# Development cross-check (not run in CI): compares `toolsearch batch` with an
# independent Python implementation of the search rules (spec_search.py, kept
# outside this repository) on generated catalogs and queries.
# Usage: scripts/crosscheck/run.sh [SEEDS]
# The reference is $SPEC_SEARCH if set, else the first
# shared/reference/spec_search.py found in a directory above the checkout (so
# a git worktree nested deeper finds it too).
#
# Where the library documents a difference from the reference, the comparison
# follows the documentation, from what batch reports in "notes":
#   - a query over the term budget (32 terms) is answered with its most
#     informative terms: a repeated term counts once and the note names the
#     terms left out. The reference is asked the query of the kept terms, and
#     the answers must be equal (which terms are kept is not checked here:
#     TestFitTerms checks the rule);
#   - a select: name that matches one tool with '_', '-' and '.' taken as one
#     character loads it, with a note naming both: the reference is asked with
#     the tool's own name;
#   - a query naming tools (a name-shaped token that names one, or every
#     token naming one) whose ranking leaves a named tool out lists the named
#     tools first, with a note: the reference's matches are compared with
#     the named tools (found here from the catalog) put first.
# The notes quote what the model wrote as JSON strings, which the comparison
# decodes.
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
bad=0 total=0 adapted=0
for s in $(seq 1 "$n"); do
  python3 "$here/gen.py" "$s"
  ./ts batch --catalog "cat$s.json" --queries "q$s.json" > "go$s.json"
  python3 - "$s" <<'PY'
import json, re, sys
s = sys.argv[1]
qs = json.load(open(f"q{s}.json")); go = json.load(open(f"go{s}.json"))
WS = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
def kept(query, left):
    reps, at = [], {}
    for tok in [t for t in WS.split(query) if t]:
        req = len(tok) > 1 and tok[0] == "+"
        key = (tok[1:] if req else tok).lower()
        if key in at:
            if req and not reps[at[key]].startswith("+"):
                reps[at[key]] = tok
            continue
        at[key] = len(reps); reps.append(tok)
    return " ".join(t for t in reps if t not in left)
out = []
for q, g in zip(qs, go):
    text = q if isinstance(q, str) else q["query"]
    for note in g.get("notes") or []:
        if "this search reads at most" in note:
            left = set(json.loads('"' + x + '"') for x in re.findall(r'"((?:[^"\\]|\\.)*)"', note.split("left out", 1)[1])) if "left out" in note else set()
            text = kept(text, left)
        m = re.match(r'select: no tool is named ("(?:[^"\\]|\\.)*"); (\S+) was loaded', note)
        if m:
            arg, asked = text[len("select:"):], json.loads(m.group(1))
            text = "select:" + ",".join(m.group(2) if p.strip() == asked else p for p in arg.split(","))
    out.append(text if isinstance(q, str) else dict(q, query=text))
json.dump(out, open(f"qref{s}.json", "w"))
PY
  python3 "$ref" --catalog "cat$s.json" --queries "qref$s.json" > "ref$s.json"
  read -r b t a < <(python3 - "$s" <<'PY'
import json, re, sys
s = sys.argv[1]
a = json.load(open(f"ref{s}.json")); b = json.load(open(f"go{s}.json"))
tools = json.load(open(f"cat{s}.json"))["tools"]
WS = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
def deferred(t):
    if t.get("always_load"): return False
    if t.get("server") or t["name"].startswith("mcp__"): return True
    return t.get("should_defer", True)
fold = lambda n: re.sub(r"[_.-]", "", n.lower())
def part(n):
    m = re.match(r"mcp__.*?__(.+)", n)
    return m.group(1) if m else ""
def shaped(tok):
    return bool(re.search(r"[_.-]", tok.strip("_.-"))) or bool(re.search(r"[a-z][A-Z]", tok))
def names_first(query, k, ranked):
    # The names form (README, differences): the deferred tools named by the
    # name-shaped tokens, or by every token when each of 2 or more names a
    # tool, come first when the ranking leaves one of them out.
    toks = [t for t in WS.split(query) if t]
    every, all_, by_shaped = True, [], []
    for tok in toks:
        f = fold(tok)
        hit = [t for t in tools if fold(t["name"]) == f or part(t["name"]) and fold(part(t["name"])) == f]
        named = [t["name"] for t in hit if deferred(t)]
        # as the ranking orders them, then in pool order (the catalog's)
        named.sort(key=lambda n: ranked.index(n) if n in ranked else len(ranked) + [t["name"] for t in tools].index(n))
        if not hit:  # a loaded tool is named too
            every = False
        all_ += [n for n in named if n not in all_]
        if shaped(tok):
            by_shaped += [n for n in named if n not in by_shaped]
    want = (all_ if every and len(toks) >= 2 else by_shaped)[:k]
    return want + [m for m in ranked if m not in want][:k - len(want)]
bad = adapted = 0
for x, y in zip(a, b):
    adapted += bool(y.get("notes"))
    if any(n.startswith("The query names tools") for n in y.get("notes") or []):
        x = dict(x, matches=names_first(x["query"], x["max_results"], x["matches"]))
    if x["matches"] != y.get("matches", []) or x.get("not_found") != y.get("not_found") \
            or x["total_deferred_tools"] != y.get("total_deferred_tools"):
        bad += 1
        print(s, json.dumps(x)[:300], "\n  go:", json.dumps(y)[:300], file=sys.stderr)
print(bad, len(a), adapted)
PY
)
  bad=$((bad + b)) total=$((total + t)) adapted=$((adapted + a))
done
echo "$total queries on $n catalogs ($adapted compared as documented: term budget, select: separators, tool names), $bad differ from the reference"
[ "$bad" -eq 0 ]
