#!/usr/bin/env bash
# `glossary annotate` at 10,000 pages (issue 33: at most 2× the time `glossary build` takes for as many pages). The
# shared corpus (its vocabulary cached) is built twice: by `glossary build` (the glossary, with site: set, whose term
# API annotate reads) and by MkDocs (the docs site another tool made; a one-page nav, so each page holds its own text
# rather than a 10,000-entry menu). Then, alternating RUNS times, output on tmpfs: a clean `glossary build` of the
# corpus, and `glossary annotate` of a fresh copy of the MkDocs output (the copy made before the clock starts).
# Medians and the ratios are printed, of wall times and of CPU times (user + system, from /usr/bin/time).
# Usage: bench/annotate-bench.sh [WORKDIR]     Env: PAGES=10000  RUNS=5  SEED=1  SHARED=../shared  TMPFS=/dev/shm
#   GLOSSARY=binary (default: the `make install` build, .build/static/release/glossary)  MKDOCS=mkdocs (default: .venv's)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$repo/../shared}
W=${1:-$repo/bench/work}
PAGES=${PAGES:-10000}
RUNS=${RUNS:-5}
SEED=${SEED:-1}
TMPFS=${TMPFS:-/dev/shm}
mkdir -p "$W"
W=$(cd "$W" && pwd)
if [ -z "${GLOSSARY:-}" ]; then
  (cd "$repo" && make -s static >/dev/null)
  GLOSSARY=$repo/.build/static/release/glossary
fi
glossary=$GLOSSARY
if [ -z "${MKDOCS:-}" ]; then
  (cd "$repo" && make -s .venv/.requirements >/dev/null)
  MKDOCS=$repo/.venv/bin/mkdocs
fi

median() { python3 -c "import statistics,sys; print('%.3f' % statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }
seconds() { echo "$EPOCHREALTIME"; }

site=$W/annotate-$PAGES
if [ ! -d "$site/content" ]; then
  rm -rf "$site"
  "$SHARED/bench/gen-corpus" --pages "$PAGES" --seed "$SEED" --out "$site" --vocab "$site/vocab.txt" >/dev/null
  printf 'title: Benchmark\nbase_url: /\nsite: https://glossary.example.org\n' > "$site/glossary.yml"
  python3 "$repo/bench/make-cache.py" "$site" "$site/vocab.txt" --shared "$SHARED" >/dev/null
fi
# The glossary annotate reads (kept outside the timed folders).
"$glossary" build --offline --quiet --source "$site" --output "$W/annotate-glossary-$PAGES" 2>/dev/null || true
docs=$W/annotate-mkdocs-$PAGES
if [ ! -d "$docs" ]; then
  first=$(cd "$site/content" && find . -name '*.md' | LC_ALL=C sort | sed -n '1s|^\./||p')
  printf 'site_name: Benchmark\ndocs_dir: content\nsite_dir: %s\nnav:\n  - %s\n' "$docs" "$first" > "$site/mkdocs.yml"
  (cd "$site" && "$MKDOCS" build -q 2>/dev/null)
fi
html=$(find "$docs" -name '*.html' | wc -l)

out=$TMPFS/glossary-annotate-bench-build
copy=$TMPFS/glossary-annotate-bench-docs
builds=()
annotates=()
build_cpu=()
annotate_cpu=()
cpu() { awk '{ print $1 + $2 }' "$W/annotate-time.txt"; }
for _ in $(seq "$RUNS"); do
  rm -rf "$out" "$copy" "$site/.glossary/build"
  cp -r "$docs" "$copy"
  sync
  start=$(seconds)
  /usr/bin/time -f '%U %S' -o "$W/annotate-time.txt" "$glossary" build --offline --quiet --clean --source "$site" --output "$out" 2>/dev/null || true
  end=$(seconds)
  builds+=("$(python3 -c "print($end - $start)")")
  build_cpu+=("$(cpu)")
  start=$(seconds)
  /usr/bin/time -f '%U %S' -o "$W/annotate-time.txt" "$glossary" annotate "$copy" --glossary "$W/annotate-glossary-$PAGES" >/dev/null 2>&1 || true
  end=$(seconds)
  annotates+=("$(python3 -c "print($end - $start)")")
  annotate_cpu+=("$(cpu)")
done
changed=$("$glossary" annotate "$copy" --glossary "$W/annotate-glossary-$PAGES" --check 2>&1 >/dev/null | tail -1)
rm -rf "$out" "$copy"
b=$(median "${builds[@]}")
a=$(median "${annotates[@]}")
bc=$(median "${build_cpu[@]}")
ac=$(median "${annotate_cpu[@]}")
# Wall times, then CPU times (user + system): on a shared machine the CPU times say more.
printf '%-8s %10s %12s %12s %8s %12s %12s %8s\n' pages html_files build_s annotate_s ratio build_cpu_s annotate_cpu_s ratio
printf '%-8s %10s %12s %12s %8s %12s %12s %8s\n' "$PAGES" "$html" "$b" "$a" "$(python3 -c "print('%.2f' % ($a / $b))")" \
  "$bc" "$ac" "$(python3 -c "print('%.2f' % ($ac / $bc))")"
echo "second run of annotate on the result: $changed"
