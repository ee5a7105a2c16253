#!/usr/bin/env bash
# A dictionary-sized site: one clean build of WordNet's ~147,000 lemmas as team entries (bench/wordnet-corpus.py) on
# tmpfs, with its wall time, CPU time, peak memory and biggest output files.
#
# Usage: bench/dictionary-bench.sh [WORKDIR]      (default /dev/shm/glossary-dictionary-bench; needs wordnet-base)
# Env: GLOSSARY=.build/release/glossary (built with `swift build -c release` unless given)
set -euo pipefail
trap 'echo "dictionary-bench.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
repo=$(cd "$(dirname "$0")/.." && pwd)
W=${1:-/dev/shm/glossary-dictionary-bench}
mkdir -p "$W"
if [ -z "${GLOSSARY:-}" ]; then
  (cd "$repo" && swift build -c release --product glossary >/dev/null)
  GLOSSARY=$repo/.build/release/glossary
fi

[ -f "$W/wordnet/glossary.yml" ] || "$repo/bench/wordnet-corpus.py" "$W/wordnet"
rm -rf "$W/site" "$W/wordnet/.glossary/build"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -v "$GLOSSARY" build --source "$W/wordnet" --output "$W/site" --offline --clean --quiet --timings 2> "$W/time.txt"
grep -E '^ +[a-z]+ +[0-9.]+ s$' "$W/time.txt" | tr -s ' ' | paste -sd' ' | sed 's/^/stages:/'
grep -E 'Elapsed|User time|System time|Maximum resident' "$W/time.txt" | sed 's/^\t//'
echo "files: $(find "$W/site" -type f | wc -l), $(du -sh "$W/site" | cut -f1)"
echo "biggest:"
(cd "$W/site" && find . -type f -printf '%s %P\n' | sort -rn | awk 'NR <= 8' | awk '{ printf "  %8.1f MB  %s\n", $1 / 1e6, $2 }')
