#!/usr/bin/env bash
# `glossary lsp` latencies on the shared corpus with its vocabulary cached (10,000 pages, about 2,000 terms, as in
# incremental-bench.sh): keystroke → diagnostics and completion after `[[`, medians (bench/lsp-latency.py).
# Usage: bench/lsp-bench.sh [WORKDIR]   Env: GLOSSARY= (default: the release build)  PAGES=10000  EDITS=40
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$repo/../shared}
W=${1:-$repo/bench/work}
PAGES=${PAGES:-10000}
EDITS=${EDITS:-40}
SEED=${SEED:-1}
GLOSSARY=${GLOSSARY:-$repo/.build/release/glossary}
mkdir -p "$W"
site=$W/cached-$PAGES
if [ ! -d "$site/content" ]; then
  "$SHARED/bench/gen-corpus" --pages "$PAGES" --seed "$SEED" --out "$site" --vocab "$site/vocab.txt" >/dev/null
  printf 'title: Benchmark\nbase_url: /\n' > "$site/glossary.yml"
  python3 "$repo/bench/make-cache.py" "$site" "$site/vocab.txt" --shared "$SHARED" >/dev/null
fi
python3 "$repo/bench/lsp-latency.py" --glossary "$GLOSSARY" --site "$site" --edits "$EDITS" --completions "$EDITS"
