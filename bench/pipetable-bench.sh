#!/usr/bin/env bash
# Pipe-table detection speed: paragraphs per second that PipeTable turns down (every paragraph of a 10,000-page
# gen-corpus site, as written and with prose wrapped at 80 columns) and table paragraphs per second it splits and
# renders. Prints the median over RUNS of each timing.
#
# Usage: bench/pipetable-bench.sh [WORKDIR]      (default /dev/shm/glossary-pipetable-bench)
# Env: RUNS=7 PAGES=10000 TABLES=2000 SHARED=../shared SCRATCH=.build (swift build --scratch-path)
set -euo pipefail
trap 'echo "pipetable-bench.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
repo=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$repo/../shared}
W=${1:-/dev/shm/glossary-pipetable-bench}
RUNS=${RUNS:-7}
PAGES=${PAGES:-10000}
TABLES=${TABLES:-2000}
SCRATCH=${SCRATCH:-$repo/.build}
mkdir -p "$W"

(cd "$repo" && swift build -c release --product pipetable-bench --scratch-path "$SCRATCH" >/dev/null)
[ -d "$W/c$PAGES/content" ] || "$SHARED/bench/gen-corpus" --pages "$PAGES" --seed 1 --out "$W/c$PAGES" --vocab "$W/c$PAGES/vocab.txt" >/dev/null
"$SCRATCH/release/pipetable-bench" --runs "$RUNS" --tables "$TABLES" "$W/c$PAGES/content"
