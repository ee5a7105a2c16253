#!/usr/bin/env bash
# Preview server figures, on the generated corpus:
#  1. edit-to-reload latency: time from writing a page to the `build` event on /_glossary/events (what
#     reloads the browser), median of $EDITS edits, at each size in $SIZES;
#  2. requests per second on a small page with wrk: `glossary serve` (from memory) against nginx serving
#     the same site built by `glossary build`, in the same run, alternating, $WRK_RUNS times each.
# Usage: bench/serve-bench.sh [WORKDIR]     (needs wrk and nginx: apt-get install -y wrk nginx-light)
# Env: SIZES="1000 10000"  EDITS=20  SEED=1  SHARED=../shared  GLOSSARY=path/to/glossary (default: a release build)
#      WRK_SECONDS=10  WRK_THREADS=2  WRK_CONNECTIONS=50  WRK_RUNS=3
# The corpus's vocabulary is cached beforehand (bench/make-cache.py over the fake API), so builds run
# --offline with every term defined, as a site with a committed cache does.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$repo/../shared}
W=${1:-$repo/bench/work}
SIZES=${SIZES:-"1000 10000"}
EDITS=${EDITS:-20}
SEED=${SEED:-1}
WRK_SECONDS=${WRK_SECONDS:-10}
WRK_THREADS=${WRK_THREADS:-2}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-50}
WRK_RUNS=${WRK_RUNS:-3}
mkdir -p "$W"
W=$(cd "$W" && pwd)

if [ -z "${GLOSSARY:-}" ]; then
  (cd "$repo" && swift build -c release --product glossary >/dev/null)
  GLOSSARY="$repo/.build/release/glossary"
fi
export GLOSSARY_THEMES=${GLOSSARY_THEMES:-$repo/themes}

pids=()
cleanup() { for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

# Starts `glossary serve` on a free port for site $1 (log named by $2); sets $serve_pid and $serve_port.
start_serve() {
  local log="$W/$2.log"
  "$GLOSSARY" serve --offline --port 0 --source "$1" > "$log.out" 2> "$log" &
  serve_pid=$!
  pids+=("$serve_pid")
  for _ in $(seq 1200); do
    serve_port=$(grep -o 'http://127.0.0.1:[0-9]*' "$log.out" 2>/dev/null | head -1 | cut -d: -f3 || true)
    [ -n "$serve_port" ] && return 0
    kill -0 "$serve_pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
  done
  echo "serve did not start" >&2; exit 1
}

stop_serve() { kill -TERM "$serve_pid"; wait "$serve_pid" || true; }

site() {  # the corpus of $1 pages, with its cache and a tiny page for wrk
  local dir="$W/serve-$1"
  if [ ! -d "$dir/content" ]; then
    "$SHARED/bench/gen-corpus" --pages "$1" --seed "$SEED" --out "$dir" --vocab "$dir/vocab.txt"
  fi
  printf 'title: Benchmark\nbase_url: /\ndictionary:\n  cache: .glossary/cache\n  max_age_days: 36500\n' > "$dir/glossary.yml"
  [ -d "$dir/.glossary/cache/en" ] || python3 "$repo/bench/make-cache.py" "$dir" "$dir/vocab.txt" --shared "$SHARED"
  printf -- '---\ntitle: Small\n---\nA small page.\n' > "$dir/content/small.md"
  echo "$dir"
}

median() { python3 -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

echo "== edit-to-reload latency (write → SSE build event), $EDITS edits each"
printf '%-8s %10s %10s %10s %10s %10s\n' pages first_s min_ms median_ms p90_ms max_ms
for n in $SIZES; do
  dir=$(site "$n")
  page=$(find "$dir/content/guides" -name '*.md' | LC_ALL=C sort | sed -n 1p)
  start=$(date +%s.%N)
  start_serve "$dir" "latency-$n"
  first=$(python3 -c "print('%.1f' % ($(date +%s.%N) - $start))")
  result=$(python3 "$repo/bench/serve-latency.py" --port "$serve_port" --file "$page" --edits "$EDITS")
  echo "$result" > "$W/latency-$n.json"
  stop_serve
  python3 - "$n" "$first" "$result" <<'PY'
import json, sys
r = json.loads(sys.argv[3])
print('%-8s %10s %10.1f %10.1f %10.1f %10.1f' % (sys.argv[1], sys.argv[2], r['min'], r['median'], r['p90'], r['max']))
PY
done

echo
echo "== requests/second on /small/ (wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d${WRK_SECONDS}s), same run"
n=$(echo "$SIZES" | awk '{print $1}')
dir=$(site "$n")
"$GLOSSARY" build --offline --quiet --source "$dir" --output "$W/out-$n"
nginx_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$W/nginx/logs"
cat > "$W/nginx/nginx.conf" <<CONF
worker_processes 2;
pid $W/nginx/nginx.pid;
error_log $W/nginx/logs/error.log;
daemon off;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 1000000;
  types { text/html html; text/css css; application/javascript js; application/json json; }
  default_type application/octet-stream;
  client_body_temp_path $W/nginx/body;
  proxy_temp_path $W/nginx/proxy;
  server { listen 127.0.0.1:$nginx_port; root $W/out-$n; index index.html; }
}
CONF
nginx -e "$W/nginx/logs/error.log" -p "$W/nginx" -c "$W/nginx/nginx.conf" &
nginx_pid=$!
pids+=("$nginx_pid")
start_serve "$dir" "wrk-$n"
sleep 1
bytes_nginx=$(curl -s "http://127.0.0.1:$nginx_port/small/" | wc -c)
bytes_serve=$(curl -s "http://127.0.0.1:$serve_port/small/" | wc -c)
rps() { wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d"${WRK_SECONDS}s" --latency "$1" | tee -a "$W/wrk.log" | awk '/Requests\/sec/ {print $2}'; }
: > "$W/wrk.log"
glossary_runs=(); nginx_runs=()
for run in $(seq "$WRK_RUNS"); do
  glossary_runs+=("$(rps "http://127.0.0.1:$serve_port/small/")")
  nginx_runs+=("$(rps "http://127.0.0.1:$nginx_port/small/")")
done
stop_serve
kill -TERM "$nginx_pid"; wait "$nginx_pid" 2>/dev/null || true
printf '%-16s %8s %14s %s\n' server bytes median_req_s runs
printf '%-16s %8s %14.0f %s\n' "glossary serve" "$bytes_serve" "$(median "${glossary_runs[@]}")" "${glossary_runs[*]}"
printf '%-16s %8s %14.0f %s\n' "nginx" "$bytes_nginx" "$(median "${nginx_runs[@]}")" "${nginx_runs[*]}"
