#!/usr/bin/env bash
# Patching the site search's index after one page's text changed (SearchIndex.patched), against making it again:
# a generated site of 12,000 documents (a Zipf-like vocabulary of 20,000 words, text fields of about 200 terms).
# Target: the whole patch (reading the files, finding the page's old postings, writing the changed files) well under
# 20 ms. Each edit's patch is first checked against the index made of the changed documents, byte for byte.
#
# Usage: bench/search-patch-bench.sh [WORKDIR]      (default /dev/shm/glossary-search-patch-bench: the index's files)
# Env: RUNS=21 DOCUMENTS=12000 TERMS=20000 LENGTH=200 SCRATCH=.build (swift build --scratch-path)
# Prints, per edit, the files changed and the median over RUNS of the patch with the files in memory and read from
# WORKDIR, and the time making the index again took (once, on one thread). On a machine shared with other builds the
# times include waiting for a core, so the load average is printed too.
set -euo pipefail
trap 'echo "search-patch-bench.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
repo=$(cd "$(dirname "$0")/.." && pwd)
W=${1:-/dev/shm/glossary-search-patch-bench}
SCRATCH=${SCRATCH:-$repo/.build}
mkdir -p "$W"

(cd "$repo" && swift build -c release --product search-patch-bench --scratch-path "$SCRATCH" >/dev/null)
"$SCRATCH/release/search-patch-bench" --runs "${RUNS:-21}" --documents "${DOCUMENTS:-12000}" --terms "${TERMS:-20000}" --length "${LENGTH:-200}" --folder "$W"
