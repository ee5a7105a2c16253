#!/usr/bin/env bash
# Auto-linking speed: TermMatcher built from the corpus vocabulary (each term and its plural), run over the text
# of every page of the shared 10,000-page corpus (about 29 MB of markdown). Target: matching well under 0.25 s of
# CPU, a small part of a build.
#
# Usage: bench/autolink-bench.sh [WORKDIR]      (default /dev/shm/glossary-autolink-bench); BUILD=1 adds whole builds
#        (see the end), BUILD=only runs only those
# Env: RUNS=7 PAGES=10000 TERMS=2000 (vocabulary size: 5000 gives 10,000 forms, a dictionary's worth)
#      SHARED=../shared SCRATCH=.build (swift build --scratch-path)
# Prints the median over RUNS of the wall and CPU time (user + system) of: building the matcher, a loop that only
# counts word starts (the floor), matching every occurrence, the first of each term per page, and every occurrence
# in the same lines made non-ASCII. On a machine shared with other builds the wall time includes waiting for a
# core; the CPU time is what matching costs, so the load average is printed too.
set -euo pipefail
trap 'echo "autolink-bench.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
repo=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$repo/../shared}
W=${1:-/dev/shm/glossary-autolink-bench}
RUNS=${RUNS:-7}
PAGES=${PAGES:-10000}
TERMS=${TERMS:-2000}
SCRATCH=${SCRATCH:-$repo/.build}
mkdir -p "$W"

(cd "$repo" && swift build -c release --product autolink-bench --scratch-path "$SCRATCH" >/dev/null)
corpus="$W/c$PAGES"
[ -s "$corpus/vocab.txt" ] || "$SHARED/bench/gen-corpus" --pages "$PAGES" --seed 1 --out "$corpus" --vocab "$corpus/vocab.txt" >/dev/null 2>&1
vocabulary="$corpus/vocab.txt"
if [ "$TERMS" != 2000 ]; then
  # gen-corpus's vocabulary for another size: the words only (one page, thrown away).
  vocabulary="$W/vocab-$TERMS.txt"
  [ -s "$vocabulary" ] || "$SHARED/bench/gen-corpus" --pages 1 --terms "$TERMS" --seed 1 --out "$W/vocab-$TERMS" --vocab "$vocabulary" --force >/dev/null 2>&1
fi

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)  runs=$RUNS pages=$PAGES terms=$TERMS"
if [ "${BUILD:-0}" != only ]; then
  "$SCRATCH/release/autolink-bench" --runs "$RUNS" --vocab "$vocabulary" "$corpus/content" | { read -r info; echo "$info"; column -t; }
fi

# Whole builds (BUILD=1, or BUILD=only to skip the matcher figures above): the corpus with a team entry for each
# of the TERMS vocabulary words, built clean on tmpfs with `autolink: off` and `autolink: all` (hyperfine medians of
# BUILD_RUNS). The issue's bound: auto-linking at most 10% slower.
if [ "${BUILD:-0}" != 0 ]; then
  BUILD_RUNS=${BUILD_RUNS:-5}
  (cd "$repo" && swift build -c release --product glossary --scratch-path "$SCRATCH" >/dev/null)
  site="$W/site-$PAGES-$TERMS"
  if [ ! -d "$site/content/glossary" ]; then
    rm -rf "$site"
    cp -r "$corpus" "$site"
    rm -f "$site/vocab.txt"
    mkdir -p "$site/content/glossary"
    while read -r word; do
      [ -n "$word" ] || continue
      printf -- '---\nterm: %s\n---\nA synthetic definition of %s, written for the benchmark.\n' "$word" "$word" > "$site/content/glossary/$word.md"
    done < "$vocabulary"
  fi
  hf() { hyperfine --style basic --warmup 1 --runs "$BUILD_RUNS" --export-json "$W/hf-$1.json" --prepare "rm -rf $W/out-$1 $W/.out-$1.previous" "$2" >/dev/null; }
  median() { python3 -c "import json,statistics,sys; print('%.3f' % statistics.median(json.load(open(sys.argv[1]))['results'][0]['times']))" "$1"; }
  for mode in off all; do
    printf 'title: Benchmark\nbase_url: /\nautolink: %s\ndictionary:\n  cache: .glossary/cache\n' "$mode" > "$site/glossary.yml"
    hf "build-$mode" "$SCRATCH/release/glossary build --offline --quiet --clean --source $site --output $W/out-build-$mode"
  done
  off=$(median "$W/hf-build-off.json"); all=$(median "$W/hf-build-all.json")
  links=$(grep -o 'data-autolink' -r "$W/out-build-all" --include=index.html | wc -l)
  echo "build (median of $BUILD_RUNS, clean, tmpfs): autolink off ${off}s, all ${all}s, ratio $(python3 -c "print('%.3f' % ($all/$off))"); $links automatic links"
fi
