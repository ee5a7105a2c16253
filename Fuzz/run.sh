#!/usr/bin/env bash
# Runs libFuzzer targets one after another and prints a summary (README.md). Used by `make fuzz` and
# `make fuzz-smoke`; the binaries come from `make fuzz-build`.
#
#   Fuzz/run.sh SECONDS [TARGET...]      every target when none is named
#   Fuzz/run.sh replay FILE              runs a saved input again (a file in Fuzz/crashes/<target>/)
#   Fuzz/run.sh minimize FILE            writes the smallest input failing the same way to FILE.min
#
# Each target keeps its growing corpus in Fuzz/work/<target>/corpus (git-ignored) and starts from the seeds
# in Fuzz/corpus/<target>/, plus inputs made at run time from the project's own example site and theme and,
# when they are there, the shared API recordings and spec examples ($FIXTURES, /work/shared by default:
# read where they are, never copied into the repository). Crashes, hangs (> 10 s) and inputs that use more
# than 2 GB land in Fuzz/crashes/<target>/. FUZZ_TIMEOUT (seconds, 10 by default) is what counts as a hang: raise
# it when the run shares starved cores (at nice 19 beside a build, a 0.2 s input took 11 s).
set -uo pipefail

caller_dir=$PWD
cd "$(dirname "$0")"
fuzz_dir=$PWD
repo=$(cd .. && pwd)
bin_dir=$fuzz_dir/GlossaryFuzz/.build/release
shared=${FIXTURES:-/work/shared}
all_targets=(front-matter markdown mustache cache-entry api-response request-path)
usage="usage: Fuzz/run.sh SECONDS [TARGET...] | replay FILE | minimize FILE"

executable() {
    case $1 in
    front-matter) echo FuzzFrontMatter ;;
    markdown) echo FuzzMarkdown ;;
    mustache) echo FuzzMustache ;;
    cache-entry) echo FuzzCacheEntry ;;
    api-response) echo FuzzAPIResponse ;;
    request-path) echo FuzzRequestPath ;;
    *) return 1 ;;
    esac
}

dictionary() {
    case $1 in
    cache-entry | api-response) echo "$fuzz_dir/dictionaries/json.dict" ;;
    *) echo "$fuzz_dir/dictionaries/$1.dict" ;;
    esac
}

# replay FILE / minimize FILE: the target is the folder a crash was saved in (Fuzz/crashes/<target>/).
if [ "${1:-}" = replay ] || [ "${1:-}" = minimize ]; then
    mode=$1
    input=$(cd "$caller_dir" && cd "$(dirname "${2:?$usage}")" && pwd)/$(basename "$2")
    target=$(basename "$(dirname "$input")")
    exe=$(executable "$target") || { echo "can't tell the target of $2: keep it in Fuzz/crashes/<target>/" >&2; exit 64; }
    export SWIFT_BACKTRACE=enable=no
    if [ "$mode" = replay ]; then
        exec "$bin_dir/$exe" -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 "$input"
    fi
    # Keeps the smallest input that still fails the same way, next to the original.
    exec "$bin_dir/$exe" -minimize_crash=1 -max_total_time=60 -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
        -exact_artifact_path="$input.min" "$input"
fi

seconds=${1:?$usage}
shift
targets=("${@:-${all_targets[@]}}")

# Seeds made at run time from files that are not ours to copy, or that would go stale if copied.
make_seeds() {
    local target=$1 out=$2
    rm -rf "$out" && mkdir -p "$out"
    python3 - "$target" "$out" "$repo" "$shared" <<'PY'
import glob, json, os, re, sys
target, out, repo, shared = sys.argv[1:]
count = 0
def seed(data):
    global count
    count += 1
    with open(os.path.join(out, "seed-%04d" % count), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
def read(path):
    with open(path, "rb") as f:
        return f.read()
fixtures = sorted(glob.glob(os.path.join(shared, "fixtures/dictionaryapi/*.json")))
if target in ("front-matter", "markdown"):
    for path in sorted(glob.glob(os.path.join(repo, "content/**/*.md"), recursive=True)):
        seed(read(path))
    if target == "front-matter":
        for path in [os.path.join(repo, "glossary.yml")] + glob.glob(os.path.join(repo, "themes/*/theme.yml")):
            if os.path.exists(path):
                seed(read(path))
    spec = os.path.join(shared, "spec/commonmark/spec.txt")
    if target == "markdown" and os.path.exists(spec):
        text = open(spec, encoding="utf-8").read()
        for example in re.findall(r"^`{32} example\n(.*?)^\.\n", text, re.S | re.M):
            seed(example.replace("\u2192", "\t"))
elif target == "mustache":
    for path in sorted(glob.glob(os.path.join(repo, "themes/*/templates/*.mustache"))):
        seed(b"\x1e" + read(path))
    for path in sorted(glob.glob(os.path.join(shared, "spec/mustache/*.json"))):
        for test in json.load(open(path, encoding="utf-8"))["tests"]:
            template = test["template"]
            partials = []
            # The target names its partials a, b, c…: rename the spec's to match.
            for letter, (name, source) in zip("abcdefghijklmnopqrstuvwxyz", sorted(test.get("partials", {}).items())):
                pattern = r"(\{\{[<>$]\s*)" + re.escape(name) + r"(\s*\}\})"
                template = re.sub(pattern, r"\g<1>" + letter + r"\g<2>", template)
                partials.append((name, letter, source))
            sources = [re.sub(r"(\{\{[<>]\s*)" + re.escape(name) + r"(\s*\}\})", r"\g<1>" + letter + r"\g<2>", source)
                       for name, letter, source in partials]
            seed("\x1e".join([json.dumps(test["data"]), template] + sources))
elif target == "cache-entry":
    for path in fixtures:
        word = os.path.basename(path)[:-5]
        status = 404 if word == "not-found" else 200
        seed('{"body":%s,"fetched_at":"2024-03-01T09:30:00Z","format":1,"key":"%s","language":"en","status":%d,"url":"https://api.dictionaryapi.dev/api/v2/entries/en/%s"}\n'
             % (read(path).decode("utf-8"), word, status, word))
elif target == "api-response":
    for path in fixtures:
        seed((b"404\n" if path.endswith("not-found.json") else b"") + read(path))
PY
}

summary=()
failed=0
for target in "${targets[@]}"; do
    exe=$(executable "$target") || { echo "unknown target '$target' (one of: ${all_targets[*]})" >&2; exit 64; }
    [ -x "$bin_dir/$exe" ] || { echo "$bin_dir/$exe is missing: run 'make fuzz-build'" >&2; exit 1; }
    work=$fuzz_dir/work/$target
    crashes=$fuzz_dir/crashes/$target
    mkdir -p "$work/corpus" "$crashes"
    make_seeds "$target" "$work/seeds"
    log=$work/last-run.log
    echo "== $target: ${seconds}s, log in ${log#$repo/}"
    count_findings() { find "$crashes" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) ! -name '*.min' | wc -l; }
    before=$(count_findings)
    # The Swift runtime's backtracer would fight the sanitizer over a crashing input; libFuzzer reports it.
    # Leak checks off: Swift's runtime caches make libFuzzer run LeakSanitizer after most inputs, a third of
    # the speed, and no leak turned up with it on.
    SWIFT_BACKTRACE=enable=no "$bin_dir/$exe" \
        -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 \
        -dict="$(dictionary "$target")" -artifact_prefix="$crashes/" \
        "$work/corpus" "$fuzz_dir/corpus/$target" "$work/seeds" >"$log" 2>&1
    status=$?
    found=$(($(count_findings) - before))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corpus=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
    if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
        failed=1
        grep -E '^(==[0-9]+==ERROR|invariant broken|SUMMARY|.*Test unit written to)' "$log" | head -5
    fi
    summary+=("$(printf '%-13s %6s %12s %9s %6s %7s %7s %8s' "$target" "$seconds" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corpus:-?}" "$found")")
done

echo
printf '%-13s %6s %12s %9s %6s %7s %7s %8s\n' target seconds runs execs/s cov ft corpus crashes
printf '%s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
    echo "Crashes, hangs or out-of-memory inputs are in Fuzz/crashes/ (replay one: make fuzz-replay INPUT=...)."
fi
exit "$failed"
