#!/usr/bin/env bash
# WordNet lookup speed: full entries and base-form lookups for 2,000 words, which must each take at most 0.5 s.
# Two word lists: the first 2,000 words of gen-corpus's vocabulary (mostly synthetic words WordNet lacks, so
# mostly misses and Morphy's rules failing) and the first 2,000 letters-only lemmas of WordNet's index.noun (all hits).
#
# Usage: bench/wordnet-bench.sh [WORKDIR]      (default /dev/shm/glossary-wordnet-bench; needs wordnet-base)
# Env: RUNS=7 COUNT=2000 LIMIT=0.5 SHARED=../shared SCRATCH=.build (swift build --scratch-path)
# Prints, per list, the median over RUNS of the wall time and of the CPU time (user + system) for: entries (one
# `entries(for:)` per word), forms (`forms(of:)`: own entry and base forms), resolve (the entry, else the base
# forms' entries). On a machine shared with other builds the wall time includes waiting for a core; the CPU time
# is what the lookups cost, so both are checked against LIMIT and the load average is printed.
set -euo pipefail
trap 'echo "wordnet-bench.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
repo=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$repo/../shared}
W=${1:-/dev/shm/glossary-wordnet-bench}
RUNS=${RUNS:-7}
COUNT=${COUNT:-2000}
LIMIT=${LIMIT:-0.5}
SCRATCH=${SCRATCH:-$repo/.build}
mkdir -p "$W"

(cd "$repo" && swift build -c release --product wordnet-bench --scratch-path "$SCRATCH" >/dev/null)
bench="$SCRATCH/release/wordnet-bench"

[ -s "$W/c1k/vocab.txt" ] || "$SHARED/bench/gen-corpus" --pages 1000 --terms "$COUNT" --seed 1 --out "$W/c1k" --vocab "$W/c1k/vocab.txt" >/dev/null 2>&1
head -n "$COUNT" "$W/c1k/vocab.txt" > "$W/synthetic-vocabulary.txt"
awk -v n="$COUNT" '$1 ~ /^[a-z]+$/ && !/^ / { print $1; if (++count == n) exit }' "${WNSEARCHDIR:-/usr/share/wordnet}/index.noun" > "$W/wordnet-nouns.txt"

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)  runs=$RUNS words=$COUNT limit=${LIMIT}s"
"$bench" --runs "$RUNS" --count "$COUNT" "$W/synthetic-vocabulary.txt" "$W/wordnet-nouns.txt" | tee "$W/result.txt" | column -t
status=0
while read -r file words found ew ec fw fc rw rc; do
  [ "$file" = file ] && continue
  for check in "entries wall $ew" "entries cpu $ec" "forms wall $fw" "forms cpu $fc"; do
    set -- $check
    if python3 -c "import sys; sys.exit(0 if $3 <= $LIMIT else 1)"; then :; else echo "over ${LIMIT}s: $file $1 ($2) $3 s"; status=1; fi
  done
done < "$W/result.txt"
[ $status = 0 ] && echo "verdict: ok (every figure at most ${LIMIT}s)"
exit $status
