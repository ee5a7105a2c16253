#!/usr/bin/env bash
# A clean build against MkDocs Material with mkdocs-ezglossary, on the same 1,000 pages and terms: the corpus of
# build-bench.sh, turned into ezglossary's syntax (`<term:word>`, definitions in docs/glossary.md) by
# bench/ezglossary-corpus.py. MkDocs, Material and ezglossary are pinned in Tests/browser/requirements.txt
# (`make .venv/.requirements` installs them).
# Usage: bench/mkdocs-bench.sh [WORKDIR]      Env: PAGES=1000  RUNS=3  SEED=1  SHARED=../shared  TMPFS=/dev/shm
# Prints the medians and the ratio glossary/mkdocs; the runs alternate (bench/alternate.py) after one warm-up round.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$repo/../shared}
W=${1:-$repo/bench/work}
PAGES=${PAGES:-1000}
RUNS=${RUNS:-3}
SEED=${SEED:-1}
TMPFS=${TMPFS:-/dev/shm}
mkdir -p "$W"
W=$(cd "$W" && pwd)
. "$repo/bench/corpus.sh"

(cd "$repo" && make -s static .venv/.requirements >/dev/null)
glossary=${GLOSSARY:-$repo/.build/static/release/glossary}
mkdocs=$repo/.venv/bin/mkdocs

corpus "$W" "$PAGES"
ez=$W/ezglossary-$PAGES
[ -f "$ez/mkdocs.yml" ] || python3 "$repo/bench/ezglossary-corpus.py" "$W/plain-$PAGES" "$ez"
out=$TMPFS/mkdocs-bench
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

medians=$(python3 "$repo/bench/alternate.py" --runs "$RUNS" --warmup 1 --json "$W/alt-mkdocs-$PAGES.json" \
  "glossary=rm -rf $out/glossary $out/.glossary.previous; sync::$glossary build --offline --quiet --clean --source $W/plain-$PAGES --output $out/glossary" \
  "mkdocs=rm -rf $out/mkdocs; sync::$mkdocs build --quiet --config-file $ez/mkdocs.yml --site-dir $out/mkdocs")
g=$(echo "$medians" | awk '$1 == "glossary" { print $2 }')
m=$(echo "$medians" | awk '$1 == "mkdocs" { print $2 }')
printf '%-10s %12s %12s %16s\n' pages glossary_s mkdocs_s glossary/mkdocs
printf '%-10s %12s %12s %16s\n' "$PAGES" "$g" "$m" "$(python3 -c "print('%.4f' % ($g/$m))")"
