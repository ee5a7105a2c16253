#!/usr/bin/env bash
# Build speed against the anchors, on the same generated corpus: `glossary build` vs `hugo` vs the `cmark` CLI.
# Usage: bench/build-bench.sh [WORKDIR]      (needs hugo, cmark, hyperfine: apt-get install -y hugo cmark hyperfine)
# Env: SIZES="1000 10000"  RUNS=5  SEED=1  SHARED=../shared (the folder with bench/gen-corpus)
# Prints a table of medians and the ratios glossary/hugo and glossary/cmark; saves hyperfine JSON in WORKDIR.
# Output goes to disk and, as in ../shared/bench/anchors.sh, to tmpfs (TMPFS=/dev/shm; "" skips): this
# machine's virtual disk makes disk rows swing by 2x from run to run, so compare the tmpfs rows.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$repo/../shared}
W=${1:-$repo/bench/work}
SIZES=${SIZES:-"1000 10000"}
RUNS=${RUNS:-5}
TMPFS=${TMPFS-/dev/shm}
SEED=${SEED:-1}
mkdir -p "$W"
W=$(cd "$W" && pwd)

# The binary `make install` installs: release, with the Swift runtime and Foundation linked in (it also starts in half
# the time of the plain release build, whose dozen shared Swift libraries are bound at every start).
(cd "$repo" && make -s static >/dev/null)
glossary=${GLOSSARY:-$repo/.build/static/release/glossary}

for n in $SIZES; do
  [ -d "$W/plain-$n/content" ] || "$SHARED/bench/gen-corpus" --pages "$n" --seed "$SEED" --out "$W/plain-$n" --vocab "$W/vocab-$n.txt"
  [ -d "$W/hugo-$n/content" ] || "$SHARED/bench/gen-corpus" --pages "$n" --seed "$SEED" --out "$W/hugo-$n" --hugo
  # The Hugo corpus defines each referenced word in content/terms/; give glossary the same words as team
  # entries, so both generators render the same pages, term pages and index.
  if [ ! -f "$W/plain-$n/glossary.yml" ]; then
    printf 'title: Benchmark\nbase_url: /\ndictionary:\n  cache: .glossary/cache\n' > "$W/plain-$n/glossary.yml"
    mkdir -p "$W/plain-$n/content/glossary"
    for f in "$W/hugo-$n/content/terms/"*.md; do
      word=$(basename "$f" .md); [ "$word" = _index ] && continue; [ "$word" = index-term ] && word=index
      printf -- '---\nterm: %s\n---\nA synthetic definition of %s, written for the benchmark.\n' "$word" "$word" > "$W/plain-$n/content/glossary/$word.md"
    done
  fi
  find "$W/plain-$n/content" -name '*.md' -not -path '*/glossary/*' | LC_ALL=C sort > "$W/files-$n.txt"
done

hf() { local name=$1 runs=$2; shift 2; hyperfine --style basic --warmup 1 --runs "$runs" --export-json "$W/hf-$name.json" "$@" >/dev/null; }
median() { python3 -c "import json,statistics,sys; print('%.3f' % statistics.median(json.load(open(sys.argv[1]))['results'][0]['times']))" "$1"; }

printf '%-14s %12s %12s %12s %14s %14s\n' case glossary_s hugo_s cmark_s glossary/hugo glossary/cmark
for n in $SIZES; do
  runs=$RUNS; [ "$n" -le 1000 ] && runs=$((RUNS * 2))
  # Each run starts with no dirty pages left by the one before: the disk runs write hundreds of megabytes (and every
  # glossary build 20 MB of state beside its sources), and the kernel writing them back would otherwise take CPU
  # from whatever runs next. The tmpfs runs come first for the same reason. (Tried at 03:52 on 2026-12-04: the ratios
  # moved no more than the machine's own noise does; kept because it is the fairer order.)
  hf cmark-$n "$runs" --prepare sync "cmark \$(cat $W/files-$n.txt) > /dev/null"
  c=$(median "$W/hf-cmark-$n.json")
  for target in tmpfs disk; do
    if [ $target = disk ]; then out=$W/out; else [ -n "$TMPFS" ] && [ -w "$TMPFS" ] || continue; out=$TMPFS/glossary-bench; fi
    # The previous folder beside the output goes too: a clean build from nothing.
    hf glossary-$target-$n "$runs" --prepare "rm -rf $out/glossary-$n $out/.glossary-$n.previous; sync" \
      "$glossary build --offline --quiet --clean --source $W/plain-$n --output $out/glossary-$n"
    hf hugo-$target-$n "$runs" --prepare "rm -rf $out/hugo-$n; sync" "hugo --source $W/hugo-$n --destination $out/hugo-$n --quiet"
    g=$(median "$W/hf-glossary-$target-$n.json"); h=$(median "$W/hf-hugo-$target-$n.json")
    printf '%-14s %12s %12s %12s %14s %14s\n' "$n-$target" "$g" "$h" "$c" "$(python3 -c "print('%.2f' % ($g/$h))")" "$(python3 -c "print('%.2f' % ($g/$c))")"
  done
  [ -n "$TMPFS" ] && rm -rf "$TMPFS/glossary-bench"
done
