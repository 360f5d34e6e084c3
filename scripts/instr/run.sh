#!/usr/bin/env bash
# Instructions per query and per posting of the floor and of each strategy's
# ranked form on 1- and 3-keyword queries (BenchmarkPostings), counted by
# callgrind, which does not depend on the machine's load.
# Usage: scripts/instr/run.sh [SIZE] [REPS] [--check]
#   SIZE  catalog size in tools (default 10000)
#   REPS  times each case ranks its 200 queries while counted (default 2)
#   INSTR_STRATEGIES  a regexp of the cases to count (default floor|default|bm25|hybrid)
#   INSTR_BRANCHES=1  also simulate branch prediction (--branch-sim=yes)
#         and print the conditional branches mispredicted per query (a
#         simple predictor's, not the CPU's: compare versions, not machines)
#   --check  also count hybrid keywords-3 as two whole runs of the test
#         binary (REPS+1 and 1 times the queries) and print their difference
#         per posting: it matches the toggled count when that is right.
# Collection is on only inside rankQueries (--toggle-collect), and each call
# is dumped on its own (--dump-after): one count per case and repetition.
# The scratch is grown before rankQueries is called, and GOGC=off keeps the
# collector out of the count. Postings: the sum over a query's terms of the
# tools the hybrid index finds for the term, the same for every strategy.
# Needs valgrind; GODEBUG=asyncpreemptoff=1 keeps Go's preemption signals
# away from it. A 10k run takes a few minutes of CPU.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
size=${1:-10000}
reps=${2:-2}
check=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "${INSTR_KEEP:-}" ] && trap - EXIT && echo "kept $tmp" >&2
(cd "$root" && CGO_ENABLED=0 go test -c -o "$tmp/t.test" .)
export GODEBUG=asyncpreemptoff=1 GOGC=off TOOLSEARCH_BENCH_SIZES=$size
n="n=$((size / 1000))k"
fn=github.com/toolsearch/toolsearch.rankQueries

# run OUT BENCH BENCHTIME [callgrind options]: runs the benchmarks under
# callgrind, their output in $tmp/OUT.log.
run() {
	local out=$1 bench=$2 times=$3
	shift 3
	(cd "$root" && valgrind --tool=callgrind "$@" --callgrind-out-file="$tmp/$out" \
		"$tmp/t.test" -test.run '^$' -test.bench "$bench" -test.benchtime "$times" -test.cpu 1 >"$tmp/$out.log" 2>&1) ||
		{ cat "$tmp/$out.log" >&2; exit 1; }
}
ir() { awk '/^(summary|totals):/ {print $2; exit}' "$1"; }
bcm() { awk '/^(summary|totals):/ {print $4; exit}' "$1"; }
sim=()
[ -n "${INSTR_BRANCHES:-}" ] && sim=(--branch-sim=yes)

run cg "^BenchmarkPostings\$/^(${INSTR_STRATEGIES:-floor|default|bm25|hybrid})\$/^keywords-[13]\$/^$n\$" "${reps}x" \
	--collect-atstart=no --toggle-collect="$fn" --dump-after="$fn" "${sim[@]}"
mapfile -t cases < <(awk '/^BenchmarkPostings\// {split($1, a, "/"); print a[2] " " a[3]}' "$tmp/cg.log")
mapfile -t posts < <(awk '/^BenchmarkPostings\/hybrid\// {split($1, a, "/"); for (i = 1; i < NF; i++) if ($(i+1) == "postings/query") print a[3] " " $i}' "$tmp/cg.log")
want=$((${#cases[@]} * reps))
dumps=$(ls "$tmp"/cg.[0-9]* | wc -l)
if [ "$dumps" -lt "$want" ] || { [ "$dumps" -gt "$want" ] && [ "$(ir "$tmp/cg.$dumps")" -ne 0 ]; }; then
	echo "expected $want dumps (${#cases[@]} cases × $reps), got $dumps" >&2
	exit 1
fi
printf '%-8s %-10s %6s %14s %10s %14s%s\n' strategy form size instr/query postings instr/posting "${sim:+ mispredicted/query}"
k=1
for c in "${cases[@]}"; do
	read -r st form <<<"$c"
	total=0 miss=0
	for _ in $(seq "$reps"); do
		total=$((total + $(ir "$tmp/cg.$k")))
		[ -n "${sim[*]}" ] && miss=$((miss + $(bcm "$tmp/cg.$k")))
		k=$((k + 1))
	done
	p=$(printf '%s\n' "${posts[@]}" | awk -v f="$form" '$1 == f {print $2}')
	awk -v st="$st" -v f="$form" -v n="$n" -v ir="$total" -v p="$p" -v r="$reps" -v m="$miss" -v sim="${sim[*]}" \
		'BEGIN {q = ir / (r * 200); printf "%-8s %-10s %6s %14.0f %10.1f %14.1f", st, f, n, q, p, q / p
		if (sim != "") printf " %18.0f", m / (r * 200); printf "\n"}'
done
if [ "$check" = --check ]; then
	pat="^BenchmarkPostings\$/^hybrid\$/^keywords-3\$/^$n\$"
	run one "$pat" 1x
	run more "$pat" "$((reps + 1))x"
	p=$(printf '%s\n' "${posts[@]}" | awk '$1 == "keywords-3" {print $2}')
	awk -v a="$(ir "$tmp/one")" -v b="$(ir "$tmp/more")" -v p="$p" -v r="$reps" \
		'BEGIN {printf "check: hybrid keywords-3, two whole runs differ by %.1f instructions per posting\n", (b - a) / (r * 200 * p)}'
fi
