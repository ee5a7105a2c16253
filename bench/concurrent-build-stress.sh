#!/usr/bin/env bash
# Two `glossary build` runs at once on one small site whose output folder holds a `.git` folder, TRIALS times:
# counts the trials that lost `site/.git` (or anything in it) and the builds that failed (issue 14: the dotfile
# carry-over once lost `.git` in 6 of 300 trials). Not part of `make test`: it takes minutes.
# Usage: bench/concurrent-build-stress.sh [WORKDIR]     (default /dev/shm/glossary-stress)
# Env: TRIALS=300  GLOSSARY=path/to/glossary (else a release build)  EDIT=1 (change a page before each trial, so
# the first build really renders and swaps instead of replaying the last build)  ARGS="--clean" (more arguments
# for both builds: --clean makes the second render and swap too)
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
W=${1:-/dev/shm/glossary-stress}
TRIALS=${TRIALS:-300}
EDIT=${EDIT:-1}
read -r -a ARGS <<<"${ARGS:-}"
if [ -z "${GLOSSARY:-}" ]; then
  (cd "$repo" && swift build -c release --product glossary >/dev/null) || exit 1
  GLOSSARY="$repo/.build/release/glossary"
fi
rm -rf "$W" && mkdir -p "$W/site/content/glossary" "$W/logs"
cd "$W/site"
printf 'title: Stress\n' > glossary.yml
printf '# Home\n\nSee [[kerning]].\n' > content/index.md
for i in $(seq 20); do printf '# Page %d\n\nSee [[kerning]] and [[leading]].\n' "$i" > "content/page-$i.md"; done
printf -- '---\nterm: Kerning\n---\nSpace between letters.\n' > content/glossary/kerning.md
printf -- '---\nterm: Leading\n---\nSpace between lines.\n' > content/glossary/leading.md
"$GLOSSARY" build --offline --quiet || { echo "the first build failed" >&2; exit 1; }

make_git() {
  mkdir -p site/.git/objects/ab site/.git/refs/heads
  printf 'ref: refs/heads/main\n' > site/.git/HEAD
  printf 'x\n' > site/.git/objects/ab/cdef
  printf '0123456789abcdef\n' > site/.git/refs/heads/main
}
git_intact() {
  [ "$(cat site/.git/HEAD 2>/dev/null)" = "ref: refs/heads/main" ] && [ -f site/.git/objects/ab/cdef ] &&
    [ -f site/.git/refs/heads/main ]
}
make_git

lost=0 failed=0 builds=0 leftovers=0
for trial in $(seq "$TRIALS"); do
  [ "$EDIT" = 1 ] && printf '# Page 1\n\nTrial %d: [[kerning]].\n' "$trial" > content/page-1.md
  "$GLOSSARY" build --offline --quiet "${ARGS[@]}" >"$W/logs/a.out" 2>"$W/logs/a.err" & a=$!
  "$GLOSSARY" build --offline --quiet "${ARGS[@]}" >"$W/logs/b.out" 2>"$W/logs/b.err" & b=$!
  for pid in $a $b; do
    builds=$((builds + 1))
    if ! wait "$pid"; then
      failed=$((failed + 1))
      echo "trial $trial: a build failed:" >&2
      cat "$W/logs/a.err" "$W/logs/b.err" >&2
    fi
  done
  if ! git_intact; then
    lost=$((lost + 1))
    echo "trial $trial: site/.git lost or damaged" >&2
    make_git
  fi
  [ -f site/index.html ] || echo "trial $trial: site/index.html missing" >&2
  # Leftovers of a build that finished are a bug too (.site.building-PID, .site.old-PID; .site.previous is kept
  # on purpose: the next build starts from it).
  if compgen -G ".site.building-*" >/dev/null || compgen -G ".site.old-*" >/dev/null; then
    leftovers=$((leftovers + 1))
    echo "trial $trial: left over: $(echo .site.building-* .site.old-*)" >&2
  fi
done
echo "trials: $TRIALS, builds: $builds, failed builds: $failed, trials losing site/.git: $lost, trials leaving .site.* behind: $leftovers"
[ "$failed" -eq 0 ] && [ "$lost" -eq 0 ] && [ "$leftovers" -eq 0 ]
