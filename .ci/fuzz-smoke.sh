#!/usr/bin/env bash
# Fuzz smoke run: fuzzes each fuzz target of the core module briefly.
# Called by .ci/run. FUZZTIME (default 5s) sets the time per target; see
# SECURITY.md for a longer local run. A failing input is written to
# testdata/fuzz/<Target>/ and the script fails.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-5s}"
targets=(FuzzParseQuery FuzzSearch FuzzCall FuzzRegistryOps FuzzSchema FuzzQuickSchema FuzzSchemaDoc FuzzStrategies FuzzFitTerms)
# Every fuzz target of the package must be listed above.
found=$(go test -list '^Fuzz' . | grep '^Fuzz' | sort)
listed=$(printf '%s\n' "${targets[@]}" | sort)
if [ "$found" != "$listed" ]; then
	echo "fuzz-smoke: the fuzz targets are:"; echo "$found"; echo "but the script lists:"; echo "$listed"
	exit 1
fi
for t in "${targets[@]}"; do
	echo "fuzz-smoke: $t for $fuzztime"
	go test -run '^$' -fuzz "^${t}\$" -fuzztime "$fuzztime" .
done
