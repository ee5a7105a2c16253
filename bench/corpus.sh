# Sourced by the benchmarks that compare glossary with another generator on the same pages (build-bench.sh,
# mkdocs-bench.sh). Needs $SHARED (the folder with bench/gen-corpus) and $SEED.
#
# corpus W N: W/plain-N (glossary's site) and W/hugo-N (Hugo's), generated once. The Hugo corpus defines each
# referenced word in content/terms/; glossary gets the same words as team entries, so both render the same pages,
# term pages and index.
corpus() {
  local W=$1 n=$2
  [ -d "$W/plain-$n/content" ] || "$SHARED/bench/gen-corpus" --pages "$n" --seed "$SEED" --out "$W/plain-$n" --vocab "$W/vocab-$n.txt"
  [ -d "$W/hugo-$n/content" ] || "$SHARED/bench/gen-corpus" --pages "$n" --seed "$SEED" --out "$W/hugo-$n" --hugo
  if [ ! -f "$W/plain-$n/glossary.yml" ]; then
    printf 'title: Benchmark\nbase_url: /\ndictionary:\n  cache: .glossary/cache\n' > "$W/plain-$n/glossary.yml"
    mkdir -p "$W/plain-$n/content/glossary"
    local f word
    for f in "$W/hugo-$n/content/terms/"*.md; do
      word=$(basename "$f" .md); [ "$word" = _index ] && continue; [ "$word" = index-term ] && word=index
      printf -- '---\nterm: %s\n---\nA synthetic definition of %s, written for the benchmark.\n' "$word" "$word" > "$W/plain-$n/content/glossary/$word.md"
    done
  fi
}
