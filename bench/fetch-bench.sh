#!/usr/bin/env bash
# Dictionary fetch speed: a site referencing WORDS uncached words, built against `fake-dictionary-api
# --latency-ms LATENCY` at dictionary.concurrency CONCURRENCY with the rate limit set out of the way.
# The ideal is WORDS × LATENCY / CONCURRENCY; the fetch must take at most 1.3× that, and the server's
# max_in_flight must equal CONCURRENCY.
#
# Usage: bench/fetch-bench.sh [WORKDIR]
# Env: WORDS=2000 CONCURRENCY=16 LATENCY=50 RUNS=3 SHARED=../shared SCRATCH=.build (swift build --scratch-path)
set -euo pipefail
trap 'echo "fetch-bench.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
repo=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$repo/../shared}
W=${1:-$repo/bench/work/fetch}
WORDS=${WORDS:-2000}
CONCURRENCY=${CONCURRENCY:-16}
LATENCY=${LATENCY:-50}
RUNS=${RUNS:-3}
SCRATCH=${SCRATCH:-$repo/.build}
mkdir -p "$W"
W=$(cd "$W" && pwd)

export GLOSSARY_THEMES=${GLOSSARY_THEMES:-$repo/themes}
(cd "$repo" && swift build -c release --product glossary --scratch-path "$SCRATCH" >/dev/null)
glossary="$SCRATCH/release/glossary"

# The site: WORDS distinct words from gen-corpus's vocabulary, 50 references a page.
"$SHARED/bench/gen-corpus" --pages 1 --terms "$WORDS" --seed 1 --out "$W/corpus" --vocab "$W/vocab.txt" --force 2>"$W/gen-corpus.log"
rm -rf "$W/site"
mkdir -p "$W/site/content"
cat > "$W/site/glossary.yml" <<EOF
title: Fetch benchmark
dictionary:
  cache: .glossary/cache
  concurrency: $CONCURRENCY
  rate_limit: 1000000/1s
  timeout_seconds: 10
EOF
awk -v dir="$W/site/content" '{ page = int((NR - 1) / 50); printf "[[%s]] ", $0 > (dir "/page-" page ".md") }' "$W/vocab.txt"

"$SHARED/bench/fake-dictionary-api" --vocab "$W/vocab.txt" --latency-ms "$LATENCY" --port 0 --max-seconds 900 > "$W/port.txt" 2>"$W/api.log" &
api=$!
trap 'kill $api 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$W/port.txt" ] && break; sleep 0.05; done
port=$(head -1 "$W/port.txt")
url="http://127.0.0.1:$port/api/v2/entries/{lang}/{word}"

ideal=$(python3 -c "print($WORDS * $LATENCY / 1000 / $CONCURRENCY)")
printf 'words=%s concurrency=%s latency=%sms ideal=%.2fs limit(1.3x)=%.2fs\n' "$WORDS" "$CONCURRENCY" "$LATENCY" "$ideal" "$(python3 -c "print($ideal * 1.3)")"
printf '%-4s %10s %10s %8s %9s %14s %9s\n' run build_s fetch_s ratio requests max_in_flight verdict
status=0
for run in $(seq "$RUNS"); do
  rm -rf "$W/site/.glossary" "$W/site/site"
  curl -s "http://127.0.0.1:$port/__reset" >/dev/null
  start=$(date +%s.%N)
  "$glossary" build --quiet --timings --source "$W/site" --api-url "$url" 2> "$W/build-$run.log" || { cat "$W/build-$run.log"; exit 1; }
  end=$(date +%s.%N)
  fetch=$(awk '$1 == "resolve" { print $2 }' "$W/build-$run.log")
  stats=$(curl -s "http://127.0.0.1:$port/__stats")
  read -r requests distinct maxin < <(python3 -c "import json,sys; s=json.loads(sys.argv[1]); print(s['requests'], s['distinct_words'], s['max_in_flight'])" "$stats")
  ratio=$(python3 -c "print('%.2f' % ($fetch / $ideal))")
  verdict=ok
  if python3 -c "import sys; sys.exit(0 if $fetch <= $ideal * 1.3 else 1)" && [ "$maxin" = "$CONCURRENCY" ] && [ "$requests" = "$WORDS" ] && [ "$distinct" = "$WORDS" ]; then :; else verdict=FAIL; status=1; fi
  printf '%-4s %10.2f %10.2f %8s %9s %14s %9s\n' "$run" "$(python3 -c "print($end - $start)")" "$fetch" "$ratio" "$requests" "$maxin" "$verdict"
done
exit $status
