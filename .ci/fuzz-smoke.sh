#!/usr/bin/env bash
# Fuzz smoke run: fuzzes each fuzz target of the core module briefly.
# Called by .ci/run. FUZZTIME (default 5s) sets the time per target; see
# SECURITY.md for a longer local run. A failing input is written to
# <package>/testdata/fuzz/<Target>/ and the script fails.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-5s}"
# package:target
targets=(.:FuzzParseQuery .:FuzzParseCatalog .:FuzzSearch .:FuzzCall .:FuzzRegistryOps .:FuzzSchema .:FuzzStrategies .:FuzzFitTerms
	./internal/schema:FuzzQuickSchema ./internal/schema:FuzzSchemaDoc ./internal/schema:FuzzDecodeWork ./internal/termsafe:FuzzWriter)
# Every fuzz target of the packages must be listed above.
found=$(for p in . ./internal/schema ./internal/termsafe; do go test -list '^Fuzz' "$p" | grep '^Fuzz' | sed "s|^|$p:|"; done | sort)
listed=$(printf '%s\n' "${targets[@]}" | sort)
if [ "$found" != "$listed" ]; then
	echo "fuzz-smoke: the fuzz targets are:"; echo "$found"; echo "but the script lists:"; echo "$listed"
	exit 1
fi
# Go 1.26's fuzzing coordinator can report "context deadline exceeded" at
# the end of -fuzztime without any failing input (go.dev/issue/75804, fixed
# in Go 1.27). A run that fails that way and writes no new input to
# testdata/fuzz/<target>/ is that race, reported and not counted; any other
# failure fails the script.
for pt in "${targets[@]}"; do
	pkg=${pt%%:*} t=${pt#*:}
	echo "fuzz-smoke: $t ($pkg) for $fuzztime"
	before=$(ls "$pkg/testdata/fuzz/$t" 2>/dev/null | sort || true)
	log=$(mktemp)
	if go test -run '^$' -fuzz "^${t}\$" -fuzztime "$fuzztime" "$pkg" 2>&1 | tee "$log"; [ "${PIPESTATUS[0]}" -eq 0 ]; then
		rm -f "$log"; continue
	fi
	after=$(ls "$pkg/testdata/fuzz/$t" 2>/dev/null | sort || true)
	if [ "$before" = "$after" ] && grep -q '^    context deadline exceeded$' "$log"; then
		echo "fuzz-smoke: $t: the fuzzing coordinator's deadline race (go.dev/issue/75804), no failing input written: not counted"
		rm -f "$log"; continue
	fi
	rm -f "$log"
	echo "fuzz-smoke: $t failed"
	exit 1
done
