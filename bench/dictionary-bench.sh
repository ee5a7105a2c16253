#!/usr/bin/env bash
# A dictionary-sized site: WordNet's ~147,000 lemmas as team entries (bench/wordnet-corpus.py) on tmpfs, against Hugo
# building the same entries as content pages (the corpus's Hugo twin), then one entry edited.
#
# Prints, per line: the stage timings and resources of one clean build (`--timings`, /usr/bin/time), the biggest files,
# then a table for make bench:
#   case glossary_s hugo_s glossary/hugo glossary_peak_MB hugo_peak_MB edit_s edit/clean
# (the clean builds alternate with Hugo's, medians of RUNS; the edit appends a sentence to one entry and builds again).
#
# Usage: bench/dictionary-bench.sh [WORKDIR]      (default /dev/shm/glossary-dictionary-bench; needs wordnet-base, hugo)
# Env: GLOSSARY=.build/release/glossary (built with `swift build -c release` unless given)  RUNS=2
set -euo pipefail
trap 'echo "dictionary-bench.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
repo=$(cd "$(dirname "$0")/.." && pwd)
W=${1:-/dev/shm/glossary-dictionary-bench}
RUNS=${RUNS:-2}
mkdir -p "$W"
W=$(cd "$W" && pwd)
if [ -z "${GLOSSARY:-}" ]; then
  (cd "$repo" && swift build -c release --product glossary >/dev/null)
  GLOSSARY=$repo/.build/release/glossary
fi

if [ ! -f "$W/wordnet/glossary.yml" ] || [ ! -f "$W/hugo/config.toml" ]; then
  rm -rf "$W/wordnet" "$W/hugo"
  mkdir -p "$W/hugo"
  "$repo/bench/wordnet-corpus.py" "$W/wordnet" --hugo "$W/hugo" >&2
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# One clean build with its stages and resources.
rm -rf "$W/site" "$W/.site.previous" "$W/wordnet/.glossary/build"
/usr/bin/time -v "$GLOSSARY" build --source "$W/wordnet" --output "$W/site" --offline --clean --quiet --timings 2> "$W/time.txt"
grep -E '^ +[a-z]+ +[0-9.]+ s$' "$W/time.txt" | tr -s ' ' | paste -sd' ' | sed 's/^/stages:/'
grep -E 'Elapsed|User time|System time|Maximum resident' "$W/time.txt" | sed 's/^\t//'
echo "files: $(find "$W/site" -type f | wc -l), $(du -sh "$W/site" | cut -f1)"
echo "biggest:"
(cd "$W/site" && find . -type f -printf '%s %P\n' | sort -rn | awk 'NR <= 8' | awk '{ printf "  %8.1f MB  %s\n", $1 / 1e6, $2 }')

# Clean builds against Hugo's, alternating; each from nothing (no state, no previous output).
medians=$(python3 "$repo/bench/alternate.py" --runs "$RUNS" --warmup 0 --json "$W/alt.json" \
  "glossary=rm -rf $W/site $W/.site.previous $W/wordnet/.glossary/build; sync::$GLOSSARY build --offline --quiet --clean --source $W/wordnet --output $W/site" \
  "hugo=rm -rf $W/hugo-out; sync::hugo --source $W/hugo --destination $W/hugo-out --quiet")
g=$(echo "$medians" | awk '$1 == "glossary" { print $2 }')
h=$(echo "$medians" | awk '$1 == "hugo" { print $2 }')
peak() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }
rm -rf "$W/hugo-out"
hugo_kb=$(peak hugo --source "$W/hugo" --destination "$W/hugo-out" --quiet)
rm -rf "$W/site" "$W/.site.previous" "$W/wordnet/.glossary/build"
glossary_kb=$(peak "$GLOSSARY" build --offline --quiet --clean --source "$W/wordnet" --output "$W/site")

# One entry edited, then built (what `glossary build` does after a save).
entry=$W/wordnet/content/glossary/073000.md
cp "$entry" "$W/entry.md.orig"
echo "Edited for the benchmark." >> "$entry"
start=$(date +%s.%N)
"$GLOSSARY" build --offline --quiet --source "$W/wordnet" --output "$W/site"
edit=$(python3 -c "import time; print('%.3f' % (time.time() - $start))")
cp "$W/entry.md.orig" "$entry"

printf '%-10s %10s %10s %14s %17s %13s %8s %10s\n' case glossary_s hugo_s glossary/hugo glossary_peak_MB hugo_peak_MB edit_s edit/clean
python3 -c "print('%-10s %10s %10s %14.2f %17.0f %13.0f %8s %10.3f' % ('dictionary', '$g', '$h', $g / $h, $glossary_kb / 1024, $hugo_kb / 1024, '$edit', $edit / $g))"
