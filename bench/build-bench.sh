#!/usr/bin/env bash
# Build speed against the anchors, on the same generated corpus: `glossary build` vs `hugo` vs the `cmark` CLI.
# Usage: bench/build-bench.sh [WORKDIR]      (needs hugo and cmark: apt-get install -y hugo cmark; and python3)
# Env: SIZES="1000 10000"  RUNS=5  SEED=1  SHARED=../shared (the folder with bench/gen-corpus)
# Prints a table of medians and the ratios glossary/hugo and glossary/cmark; saves every run's time as JSON in WORKDIR
# (alt-*.json). The commands alternate, run by run (bench/alternate.py), after one warm-up round.
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
. "$repo/bench/corpus.sh"

# The binary `make install` installs: release, with the Swift runtime and Foundation linked in (it also starts in half
# the time of the plain release build, whose dozen shared Swift libraries are bound at every start).
(cd "$repo" && make -s static >/dev/null)
glossary=${GLOSSARY:-$repo/.build/static/release/glossary}

for n in $SIZES; do
  corpus "$W" "$n"
  find "$W/plain-$n/content" -name '*.md' -not -path '*/glossary/*' | LC_ALL=C sort > "$W/files-$n.txt"
done

# Each command's runs alternate with the others' (bench/alternate.py): cmark, glossary and hugo, then cmark again…, so
# the machine's drift during a run (this is a shared virtual machine) reaches all three alike.
alt() { local json=$1 runs=$2; shift 2; python3 "$repo/bench/alternate.py" --runs "$runs" --warmup 1 --json "$json" "$@"; }
value() { awk -v name="$1" '$1 == name { print $2 }'; }
ratio() { python3 -c "print('%.2f' % ($1/$2))"; }

printf '%-14s %12s %12s %12s %14s %14s\n' case glossary_s hugo_s cmark_s glossary/hugo glossary/cmark
for n in $SIZES; do
  runs=$RUNS; [ "$n" -le 1000 ] && runs=$((RUNS * 2))
  # Each run starts with no dirty pages left by the one before: the disk runs write hundreds of megabytes (and every
  # glossary build 20 MB of state beside its sources), and the kernel writing them back would otherwise take CPU
  # from whatever runs next. The tmpfs runs come first for the same reason.
  c=
  for target in tmpfs disk; do
    if [ $target = disk ]; then out=$W/out; else [ -n "$TMPFS" ] && [ -w "$TMPFS" ] || continue; out=$TMPFS/glossary-bench; fi
    mkdir -p "$out"
    # The previous folder beside the output goes too: a clean build from nothing. cmark alternates with the tmpfs runs.
    cmark_run=("cmark=sync::cmark \$(cat $W/files-$n.txt) > /dev/null")
    [ $target = tmpfs ] || cmark_run=()
    medians=$(alt "$W/alt-$target-$n.json" "$runs" "${cmark_run[@]}" \
      "glossary=rm -rf $out/glossary-$n $out/.glossary-$n.previous; sync::$glossary build --offline --quiet --clean --source $W/plain-$n --output $out/glossary-$n" \
      "hugo=rm -rf $out/hugo-$n; sync::hugo --source $W/hugo-$n --destination $out/hugo-$n --quiet")
    g=$(echo "$medians" | value glossary); h=$(echo "$medians" | value hugo)
    [ $target = tmpfs ] && c=$(echo "$medians" | value cmark)
    [ -n "$c" ] || c=$(alt "$W/alt-cmark-$n.json" "$runs" "cmark=sync::cmark \$(cat $W/files-$n.txt) > /dev/null" | value cmark)
    printf '%-14s %12s %12s %12s %14s %14s\n' "$n-$target" "$g" "$h" "$c" "$(ratio "$g" "$h")" "$(ratio "$g" "$c")"
  done
  [ -n "$TMPFS" ] && rm -rf "$TMPFS/glossary-bench"
done
