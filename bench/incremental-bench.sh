#!/usr/bin/env bash
# The incremental engine's figures (issue 11) on the shared corpus with its vocabulary cached, output on tmpfs:
# a clean full build, a build with nothing changed, a build after editing one page, the peak memory of a
# clean build, the resolve stage (loading the cache entries) from --timings, and a build with nothing changed right
# after a build that followed a write at once (the written page is racy: its signature can't be trusted, so it is
# read again and compared by its bytes). One run of each case, alternating, RUNS times; medians printed with the
# ratios to the full build.
# Usage: bench/incremental-bench.sh [WORKDIR]     (needs hyperfine and /usr/bin/time)
# Env: SIZES="1000 10000"  RUNS=5  SEED=1  SHARED=../shared  TMPFS=/dev/shm
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$repo/../shared}
W=${1:-$repo/bench/work}
SIZES=${SIZES:-"1000 10000"}
RUNS=${RUNS:-5}
SEED=${SEED:-1}
TMPFS=${TMPFS:-/dev/shm}
mkdir -p "$W"
W=$(cd "$W" && pwd)

# The binary `make install` installs: release, with the Swift runtime and Foundation linked in (it also starts in half
# the time of the plain release build, whose dozen shared Swift libraries are bound at every start).
(cd "$repo" && make -s static >/dev/null)
glossary=${GLOSSARY:-$repo/.build/static/release/glossary}

median() { python3 -c "import statistics,sys; print('%.3f' % statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }
# Bash's own clock: starting a Python to read one added its start-up (~30 ms here) to every no-change and one-edit time.
seconds() { echo "$EPOCHREALTIME"; }

printf '%-8s %10s %10s %8s %10s %8s %10s %10s %10s %8s %8s\n' pages full_s nochange_s ratio oneedit_s ratio peak_MB resolve_s racy_s ratio terms
for n in $SIZES; do
  site=$W/cached-$n
  if [ ! -d "$site/content" ]; then
    "$SHARED/bench/gen-corpus" --pages "$n" --seed "$SEED" --out "$site" --vocab "$site/vocab.txt" >/dev/null
    printf 'title: Benchmark\nbase_url: /\n' > "$site/glossary.yml"
    python3 "$repo/bench/make-cache.py" "$site" "$site/vocab.txt" --shared "$SHARED" >/dev/null
  fi
  out=$TMPFS/glossary-incremental-$n
  page=$(find "$site/content" -name '*.md' | LC_ALL=C sort | sed -n 1p)
  cp "$page" "$W/page-$n.orig"
  full=(); nochange=(); oneedit=(); peak=(); resolve=(); racy=()
  previous=$(dirname "$out")/.$(basename "$out").previous
  for run in $(seq "$RUNS"); do
    # A clean build from nothing: the output and the previous folder beside it removed.
    rm -rf "$out" "$previous"
    # A clean build: its time, peak memory and resolve stage.
    /usr/bin/time -f '%e %M' -o "$W/time.txt" "$glossary" build --offline --clean --timings --source "$site" --output "$out" 2>"$W/timings.txt" >/dev/null
    read -r elapsed kilobytes < "$W/time.txt"
    full+=("$elapsed"); peak+=("$((kilobytes / 1024))")
    resolve+=("$(awk '$1 == "resolve" { print $2 }' "$W/timings.txt" | head -1)")
    # The term pages it made beside the content pages ("Built 1000 pages, 1345 terms …").
    terms=$(grep -o '[0-9]* terms' "$W/timings.txt" | head -1 | cut -d' ' -f1 || true)
    # Nothing changed.
    start=$(seconds); "$glossary" build --offline --quiet --source "$site" --output "$out"; end=$(seconds)
    nochange+=("$(python3 -c "print($end - $start)")")
    # One page edited (a line appended), then built at once.
    printf '\nAn edit, run %s.\n' "$run" >> "$page"
    start=$(seconds); "$glossary" build --offline --quiet --source "$site" --output "$out"; end=$(seconds)
    oneedit+=("$(python3 -c "print($end - $start)")")
    # The same again with nothing changed: the page was written just before the last build looked at it.
    start=$(seconds); "$glossary" build --offline --quiet --source "$site" --output "$out"; end=$(seconds)
    racy+=("$(python3 -c "print($end - $start)")")
    cp "$W/page-$n.orig" "$page"
  done
  "$glossary" build --offline --quiet --source "$site" --output "$out"
  rm -rf "$out" "$previous"
  f=$(median "${full[@]}"); c=$(median "${nochange[@]}"); e=$(median "${oneedit[@]}"); r=$(median "${racy[@]}")
  printf '%-8s %10s %10s %8s %10s %8s %10s %10s %10s %8s %8s\n' "$n" "$f" "$c" "$(python3 -c "print('%.3f' % ($c / $f))")" \
    "$e" "$(python3 -c "print('%.3f' % ($e / $f))")" "$(median "${peak[@]}")" "$(median "${resolve[@]}")" \
    "$r" "$(python3 -c "print('%.3f' % ($r / $f))")" "$terms"
done
