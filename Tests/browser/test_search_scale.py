"""The site search on a big site (issue 37): on a glossary of 20,000 entries, a first search downloads at most
300 KB — lunr, the manifest, the shard its word falls in and the results' chunks, as the browser's resource timing
counts them (bytes on the wire: headers and bodies) — and finds the entry searched for first."""

import json
import random
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

import support
from support import wait_for

ENTRIES = 20_000
SEED = 37
SYLLABLES = ["ba", "ko", "ti", "ru", "me", "sa", "lo", "ve", "ni", "da", "pu", "ge", "zo", "fi", "ha", "ju", "ka", "mo",
             "ne", "po", "qu", "re", "si", "tu", "wa", "xe", "yo", "ze"]


@pytest.fixture(scope="module")
def big_site(workdir):
    """20,000 entries, each a made-up word of four syllables defined by 6 to 12 words drawn Zipf-like from 3,000."""
    print("seed", SEED)
    rng = random.Random(SEED)

    def word(syllables):
        return "".join(rng.choice(SYLLABLES) for _ in range(syllables))

    source = Path(workdir) / "big-source"
    entries = source / "content" / "glossary"
    entries.mkdir(parents=True)
    (source / "glossary.yml").write_text("title: Big\nbase_url: /\n", encoding="utf-8")
    seen, vocabulary, terms = set(), [], []
    while len(vocabulary) < 3_000:
        candidate = word(rng.randint(2, 3))
        if candidate not in seen:
            seen.add(candidate)
            vocabulary.append(candidate)
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
    while len(terms) < ENTRIES:
        candidate = word(4)
        if candidate not in seen:
            seen.add(candidate)
            terms.append(candidate)
    for term in terms:
        definition = " ".join(rng.choices(vocabulary, weights, k=rng.randint(6, 12)))
        (entries / (term + ".md")).write_text("---\nterm: %s\n---\n%s.\n" % (term, definition.capitalize()), encoding="utf-8")
    server = support.SiteServer(support.build_site(source, Path(workdir) / "big-site", "--offline"))
    yield server, terms
    server.close()


FIRST_SEARCH = """
var text = arguments[0], done = arguments[arguments.length - 1];
var box = document.querySelector(".site-search-input");
box.value = text;
box.dispatchEvent(new Event("input"));
(function wait() {
  var options = document.querySelectorAll(".site-search-option");
  if (!options.length) return setTimeout(wait, 20);
  var fetched = performance.getEntriesByType("resource").filter(function (entry) {
    return /\\/search\\/.*\\.json$|lunr\\.min\\.js$/.test(entry.name);
  }).map(function (entry) { return [new URL(entry.name).pathname, entry.transferSize, entry.encodedBodySize]; });
  done({ titles: Array.from(options, function (o) { return o.querySelector(".site-search-title").textContent; }), fetched: fetched });
})();
"""


def test_a_first_search_on_20000_entries_downloads_at_most_300_kb_and_finds_the_entry(browser, big_site):
    server, terms = big_site
    site = Path(server.directory)
    shards = json.loads((site / "search/index.json").read_text(encoding="utf-8"))["shards"]
    assert len(shards) > 20, "the index is cut in many shards (%d)" % len(shards)
    driver = browser()
    driver.get(server.url + "terms/")
    target = terms[12_345]
    found = driver.execute_async_script(FIRST_SEARCH, target)
    assert found["titles"][0] == target, found["titles"]
    paths = [path for path, _, _ in found["fetched"]]
    assert "/assets/vendor/lunr.min.js" in paths and "/search/index.json" in paths
    # The shard holding the word: the last whose first term sorts before or as it (Python sorts these ASCII words as
    # JavaScript does).
    holding = [file for first, file in shards if first <= target][-1]
    assert [path for path in paths if path.startswith("/search/shards/")] == ["/search/shards/%s.json" % holding]
    assert any(path.startswith("/search/docs/") for path in paths)
    assert len(paths) == len(set(paths)), "each file fetched once"
    # Every file counted came over the network (a file from the cache would count 0).
    assert all(body > 0 and wire >= body for _, wire, body in found["fetched"]), found["fetched"]
    total = sum(wire for _, wire, _ in found["fetched"])
    print("first search for %r: %d bytes in %d files: %s" % (target, total, len(paths), found["fetched"]))
    assert total <= 300_000, found["fetched"]
    # Then, with the shards loaded or not: a prefix, a typo and a wildcard inside the word find it too.
    for query in (target[:6], target[:-1] + ("a" if target[-1] != "a" else "e") + "~1", target[:3] + "*" + target[-2:]):
        titles = driver.execute_async_script(TITLES, query)
        assert target in titles, (query, titles)
    assert driver.execute_async_script(TITLES, "*" + target[2:]) == [], "a leading wildcard alone reads no shard"


TITLES = """
var text = arguments[0], done = arguments[arguments.length - 1];
Glossary.siteSearch.search(text).then(function (results) {
  return Glossary.siteSearch.describe(results.slice(0, 10).map(function (r) { return Number(r.ref); }));
}).then(function (documents) { done(documents.map(function (d) { return d.title; })); }, function (e) { done(String(e)); });
"""
