#!/usr/bin/env bash
# `make bench`: issue 11's figures in one run, written to bench/RESULTS.md (commands, date, machine, medians,
# ratios), followed by bench/NOTES.md (the other benchmarks' last figures, kept by hand).
#  1. full build against Hugo and the cmark CLI on the same 10,000-page corpus (bench/build-bench.sh), tmpfs and disk;
#  2. clean, no-change and one-edit builds, peak memory and the resolve stage at 1,000, 10,000 and 50,000 pages
#     (bench/incremental-bench.sh: the clean builds' times are the linearity points);
#  3. `glossary serve` at 10,000 pages: edit-to-reload latency (bench/serve-latency.py) and resident memory;
#  4. `glossary lsp` at 10,000 pages and about 2,000 terms: keystroke → diagnostics and completion (bench/lsp-latency.py).
#  5. `glossary annotate` of MkDocs' build of the 10,000-page corpus against `glossary build` of it (bench/annotate-bench.sh).
#  6. a clean build of 1,000 pages against MkDocs Material with mkdocs-ezglossary on the same pages (bench/mkdocs-bench.sh).
#  7. a dictionary: WordNet's ~147,000 lemmas as entries, against Hugo building them as pages, and one entry edited
#     (bench/dictionary-bench.sh, on tmpfs).
# Usage: bench/run-all.sh [WORKDIR]   Env: RUNS=3  BUILD_RUNS=5  EDITS=20  SIZES="1000 10000 50000 150000"  SHARED=../shared  TMPFS=/dev/shm
# (BUILD_RUNS: the alternating rounds of the full builds against Hugo and cmark; RUNS: everything else.)
# Run it on a quiet machine: every figure is a wall time, and other processes take cores away.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
export SHARED=${SHARED:-$repo/../shared}
W=${1:-$repo/bench/work}
RUNS=${RUNS:-3}
BUILD_RUNS=${BUILD_RUNS:-5}
EDITS=${EDITS:-20}
SIZES=${SIZES:-"1000 10000 50000 150000"}
export TMPFS=${TMPFS:-/dev/shm}
mkdir -p "$W"
W=$(cd "$W" && pwd)
log=$W/run-all.log
: > "$log"

# The installed binary (`make static`, as in build-bench.sh and incremental-bench.sh).
(cd "$repo" && make -s static >/dev/null)
export GLOSSARY=$repo/.build/static/release/glossary
glossary=$GLOSSARY
started=$(date -u '+%Y-%m-%d %H:%M UTC')

echo "1/7 full builds against Hugo and cmark (10,000 pages)" >&2
SIZES=10000 RUNS=$BUILD_RUNS "$repo/bench/build-bench.sh" "$W/build" | tee -a "$log" > "$W/build.txt"
echo "2/7 incremental builds and memory ($SIZES pages)" >&2
SIZES=$SIZES RUNS=$RUNS "$repo/bench/incremental-bench.sh" "$W/incremental" | tee -a "$log" > "$W/incremental.txt"

echo "3/7 glossary serve (10,000 pages)" >&2
site=$W/incremental/cached-10000
serve_log=$W/serve.log
"$glossary" serve --offline --port 0 --source "$site" > "$serve_log.out" 2> "$serve_log" &
serve_pid=$!
trap 'kill -TERM $serve_pid 2>/dev/null || true' EXIT
port=
for _ in $(seq 1200); do
  port=$(grep -o 'http://127.0.0.1:[0-9]*' "$serve_log.out" 2>/dev/null | head -1 | cut -d: -f3 || true)
  [ -n "$port" ] && break
  kill -0 "$serve_pid" 2>/dev/null || { cat "$serve_log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "serve did not start" >&2; exit 1; }
page=$(find "$site/content" -name '*.md' | LC_ALL=C sort | sed -n 2p)
python3 "$repo/bench/serve-latency.py" --port "$port" --file "$page" --edits "$EDITS" > "$W/serve-latency.json"
# Edits that add words and take them out, in turn, on five pages (the search index gains and loses postings; a cut
# llms-full.txt has pages shrinking in it).
pages=()
while read -r p; do pages+=(--file "$p"); done < <(find "$site/content" -name '*.md' | LC_ALL=C sort | sed -n 2,6p)
python3 "$repo/bench/serve-latency.py" --port "$port" "${pages[@]}" --alternate --edits "$EDITS" > "$W/serve-alternate.json"
awk '/^VmRSS|^VmHWM/ { print $1, $2 }' "/proc/$serve_pid/status" > "$W/serve-memory.txt"
kill -TERM "$serve_pid"; wait "$serve_pid" 2>/dev/null || true
trap - EXIT
cat "$W/serve-latency.json" "$W/serve-alternate.json" "$W/serve-memory.txt" >> "$log"

echo "4/7 glossary lsp (10,000 pages)" >&2
python3 "$repo/bench/lsp-latency.py" --glossary "$glossary" --site "$site" --edits "$((EDITS * 2))" --completions "$((EDITS * 2))" > "$W/lsp-latency.json"
cat "$W/lsp-latency.json" >> "$log"
echo "5/7 glossary annotate against glossary build (10,000 pages, MkDocs output)" >&2
RUNS=$RUNS "$repo/bench/annotate-bench.sh" "$W/annotate" | tee -a "$log" > "$W/annotate.txt"
echo "6/7 1,000 pages against MkDocs Material with mkdocs-ezglossary" >&2
RUNS=$RUNS "$repo/bench/mkdocs-bench.sh" "$W/build" | tee -a "$log" > "$W/mkdocs.txt"
echo "7/7 a dictionary: WordNet's lemmas as 147,000 entries, against Hugo" >&2
RUNS=$((RUNS > 2 ? 2 : RUNS)) "$repo/bench/dictionary-bench.sh" "$TMPFS/glossary-dictionary-bench" | tee -a "$log" > "$W/dictionary.txt"

python3 - "$W" "$repo/bench/RESULTS.md" "$repo/bench/NOTES.md" "$started" "$RUNS" "$EDITS" "$BUILD_RUNS" <<'PY'
import json, os, platform, subprocess, sys
W, out, notes, started, runs, edits, build_runs = sys.argv[1:8]

def table(path):
    lines = [l.split() for l in open(path) if l.strip()]
    return {row[0]: row for row in lines[1:]}

build = table(os.path.join(W, "build.txt"))
incremental = table(os.path.join(W, "incremental.txt"))
latency = json.load(open(os.path.join(W, "serve-latency.json")))
alternate = json.load(open(os.path.join(W, "serve-alternate.json")))
memory = dict(l.split() for l in open(os.path.join(W, "serve-memory.txt")))
lsp = json.load(open(os.path.join(W, "lsp-latency.json")))
serve_rss = int(memory["VmRSS:"]) / 1024
serve_peak = int(memory["VmHWM:"]) / 1024
tmpfs, disk = build["10000-tmpfs"], build["10000-disk"]
ten = incremental["10000"]
annotate = table(os.path.join(W, "annotate.txt"))["10000"]
mkdocs = table(os.path.join(W, "mkdocs.txt"))["1000"]
dictionary = [l.split() for l in open(os.path.join(W, "dictionary.txt")) if l.startswith("dictionary ")][0]
per_thousand = {int(n): float(row[1]) / int(n) * 1000 for n, row in incremental.items()}
middle = sorted(per_thousand.values())[len(per_thousand) // 2]
spread = max(abs(v / middle - 1) for v in per_thousand.values())

def mark(ok): return "" if ok is None else "✓" if ok else "✗"
def cpu():
    try:
        return subprocess.run(["lscpu"], capture_output=True, text=True).stdout.split("Model name:")[1].splitlines()[0].strip()
    except Exception:
        return platform.processor() or "unknown"

rows = [
    ("full build vs Hugo on its twin site (tmpfs)", f"{float(tmpfs[4]):.2f}× ({tmpfs[1]} s vs {tmpfs[2]} s)", "≤ 0.2×", float(tmpfs[4]) <= 0.2),
    ("full build vs the `cmark` CLI over the same markdown (tmpfs)", f"{float(tmpfs[5]):.2f}× (cmark {tmpfs[3]} s)", "≤ 1.5×", float(tmpfs[5]) <= 1.5),
    ("`glossary build` with nothing changed", f"{float(ten[3]):.1%} of a full build ({ten[2]} s)", "≤ 5%", float(ten[3]) <= 0.05),
    ("`glossary build` after editing one page", f"{float(ten[5]):.1%} of a full build ({ten[4]} s)", "≤ 5%", float(ten[5]) <= 0.05),
    ("`glossary build` with nothing changed, right after a build that followed a write", f"{float(ten[9]):.1%} of a full build ({ten[8]} s)", "≤ 5%", float(ten[9]) <= 0.05),
    ("peak memory of a build", f"{float(ten[6]):.0f} MB", "≤ 150 MB", float(ten[6]) <= 150),
    ("`serve`: file write → live-reload event, one-page edit", f"median {latency['median']:.0f} ms, p90 {latency['p90']:.0f} ms", "median ≤ 50 ms, p90 ≤ 80 ms", latency["median"] <= 50 and latency["p90"] <= 80),
    ("`serve`: the same, five pages gaining a sentence and losing it in turn (no target of its own)", f"median {alternate['median']:.0f} ms, p90 {alternate['p90']:.0f} ms", "–", None),
    ("`serve` resident memory (after the edits; peak)", f"{serve_rss:.0f} MB; peak {serve_peak:.0f} MB", "≤ 300 MB", serve_peak <= 300),
    ("loading 2,000 cache entries (`resolve` stage)", f"{ten[7]} s", "≤ 0.15 s", float(ten[7]) <= 0.15),
    ("`lsp`: keystroke → the page's new diagnostics", f"median {lsp['keystroke_median_ms']:.1f} ms, p90 {lsp['keystroke_p90_ms']:.1f} ms", "median ≤ 100 ms", lsp["keystroke_median_ms"] <= 100),
    (f"`lsp`: completion after `[[` ({lsp['completion_items']:,} items)", f"median {lsp['completion_median_ms']:.1f} ms, p90 {lsp['completion_p90_ms']:.1f} ms", "≤ 20 ms", lsp["completion_median_ms"] <= 20),
    ("`glossary annotate` of MkDocs' build of the corpus, against `glossary build` of it", f"{float(annotate[4]):.2f}× ({annotate[3]} s vs {annotate[2]} s, {annotate[1]} HTML files)", "≤ 2×", float(annotate[4]) <= 2),
    ("1,000 pages against MkDocs Material with mkdocs-ezglossary (same pages and terms)", f"{float(mkdocs[3]):.3f}× ({mkdocs[1]} s vs {mkdocs[2]} s)", "≤ 0.01×", float(mkdocs[3]) <= 0.01),
    ("time per 1,000 pages, " + " to ".join(f"{n:,}" for n in (min(per_thousand), max(per_thousand))) + " pages (linearity)", f"within ±{spread:.0%} of the median ({middle:.3f} s)", "±25%", spread <= 0.25),
    ("147,306 WordNet entries: clean build", f"{dictionary[1]} s", "≤ 30 s", float(dictionary[1]) <= 30),
    ("147,306 WordNet entries: against Hugo building them as content pages", f"{float(dictionary[3]):.2f}× (Hugo {dictionary[2]} s, {float(dictionary[5]):,.0f} MB)", "≤ 0.25×", float(dictionary[3]) <= 0.25),
    ("147,306 WordNet entries: peak memory", f"{float(dictionary[4]):,.0f} MB", "≤ 1 GB", float(dictionary[4]) <= 1024),
    ("147,306 WordNet entries: one entry edited", f"{float(dictionary[7]):.1%} of a clean build ({dictionary[6]} s)", "≤ 5%", float(dictionary[7]) <= 0.05),
]
with open(out, "w") as f:
    f.write("# Benchmark results\n\n")
    f.write(f"Written by `make bench` (bench/run-all.sh), {started}. Machine: {os.cpu_count()} cores ({cpu()}), "
            f"{platform.system()} {platform.release()}; the installed binary (`make static`: release, Swift runtime linked in); timing outputs on tmpfs unless marked disk. "
            f"Medians of {runs} runs ({edits} edits for serve); the full builds against Hugo and cmark: medians of {build_runs} rounds, each "
            f"command's runs alternating with the others'.\n\n")
    f.write("## The figures (10,000 pages of the shared corpus and 1,996 cached terms unless a row says otherwise; issue 11's targets, tightened by issue 37's)\n\n")
    f.write("| figure | result | target | |\n|---|---|---|---|\n")
    for name, result, target, ok in rows:
        f.write(f"| {name} | {result} | {target} | {mark(ok)} |\n")
    f.write(f"\nOn disk: glossary {disk[1]} s, Hugo {disk[2]} s ({float(disk[4]):.2f}×).\n\n")
    f.write("## Size: time and peak memory of a clean build (linearity)\n\n")
    f.write("The corpus's vocabulary grows more slowly than its pages, so its term pages are most of a small site's pages: "
            "the last column divides by both.\n\n")
    f.write("| pages | clean build | per 1,000 pages | no change | one edit | no change after a racy write | peak memory | resolve | term pages | per 1,000 pages and term pages |\n|---|---|---|---|---|---|---|---|---|---|\n")
    for pages, row in sorted(incremental.items(), key=lambda item: int(item[0])):
        n = int(pages)
        terms = int(row[10]) if len(row) > 10 and row[10].isdigit() else None
        both = f"{float(row[1]) / (n + terms) * 1000:.3f} s" if terms is not None else "–"
        shown = f"{terms:,}" if terms is not None else "–"
        f.write(f"| {n:,} | {row[1]} s | {float(row[1]) / n * 1000:.3f} s | {row[2]} s | {row[4]} s | {row[8]} s | {float(row[6]):.0f} MB | {row[7]} s | {shown} | {both} |\n")
    f.write("\n## Commands\n\n```\n")
    f.write(f"SIZES=10000 RUNS={build_runs} bench/build-bench.sh       # alternating runs (bench/alternate.py): cmark, glossary build --offline --quiet --clean, hugo\n")
    f.write(f"SIZES=\"{' '.join(sorted(incremental, key=int))}\" RUNS={runs} bench/incremental-bench.sh   # /usr/bin/time -f '%e %M'\n")
    f.write(f"glossary serve --offline --port 0; bench/serve-latency.py --edits {edits}; the same --alternate on five pages; VmRSS/VmHWM from /proc\n")
    f.write(f"bench/lsp-latency.py --edits {int(edits) * 2} --completions {int(edits) * 2}   # glossary lsp over stdio, cached-10000\n")
    f.write(f"RUNS={runs} bench/annotate-bench.sh   # alternating: glossary build --clean, glossary annotate of a fresh copy of the MkDocs site\n")
    f.write(f"RUNS={runs} bench/mkdocs-bench.sh   # alternating: glossary build --clean, mkdocs build (Material, ezglossary), 1,000 pages\n")
    f.write(f"RUNS={min(int(runs), 2)} bench/dictionary-bench.sh   # alternating: glossary build --clean, hugo (WordNet's lemmas); then one entry edited\n```\n\n")
    f.write("Raw output:\n\n```\n" + open(os.path.join(W, "run-all.log")).read() + "```\n")
    if os.path.exists(notes):
        f.write("\n" + open(notes).read())
PY
echo "wrote $repo/bench/RESULTS.md" >&2
