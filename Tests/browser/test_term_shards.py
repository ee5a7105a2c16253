"""Issue 37: a big glossary's term indexes are sharded, so the first lookup downloads at most 300 KB whatever the
site's size. A site of 20,000 generated entries (seeded; the seed is printed), built offline with the real binary and
served over loopback HTTP: a term link's card, a lookup and instant results on the dictionary page, and embed.js's card
on another origin's page each find their term, and the browser's resource log shows the term-index bytes fetched."""

import random
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import support
from support import wait_for

ENTRIES = 20_000
SEED = 37
LIMIT = 300_000
LETTERS = "abcdefghijklmnopqrstuvwxyz"

# The bytes of each term-index file the page fetched (its body as sent; no file is fetched twice).
FETCHED = """
var sizes = {};
performance.getEntriesByType("resource").forEach(function (e) {
  if (e.name.indexOf(arguments[0]) === 0) sizes[e.name.slice(arguments[0].length)] = (sizes[e.name.slice(arguments[0].length)] || 0) + e.encodedBodySize;
});
return sizes;
"""


def fetched(driver, prefix):
    return driver.execute_script(FETCHED.replace("arguments[0]", "prefix").replace("var sizes", "var prefix = arguments[0], sizes"), prefix)


@pytest.fixture(scope="module")
def big(workdir):
    """The words (by key), the built site and a server of it readable from any origin (for embed.js)."""
    print("term shards: seed %d" % SEED)
    rng = random.Random(SEED)
    words = set()
    while len(words) < ENTRIES:
        words.add("".join(rng.choice(LETTERS) for _ in range(rng.randint(5, 10))))
    words = sorted(words)
    source = Path(workdir) / "big-glossary"
    (source / "content" / "glossary").mkdir(parents=True)
    (source / "glossary.yml").write_text("title: Big\nbase_url: /\n", encoding="utf-8")
    chosen = rng.sample(words, 3)
    (source / "content" / "index.md").write_text(
        "# Big\n\nAbout [[%s]], [[%s]] and [[%s]].\n" % tuple(chosen), encoding="utf-8")
    for number, word in enumerate(words):
        (source / "content" / "glossary" / ("%s.md" % word)).write_text(
            "---\nterm: %s\n---\nEntry %d, about %s.\n" % (word, number, word), encoding="utf-8")
    output = support.build_site(source, Path(workdir) / "big-site", "--offline")
    server = support.SiteServer(output, cors=True)
    yield {"words": words, "chosen": chosen, "output": output, "server": server}
    server.close()


def test_the_big_site_is_sharded(big):
    index = (big["output"] / "terms" / "index.json").read_text(encoding="utf-8")
    assert index.startswith('{"shards":[{"file":"index.0.json","first":"')
    assert (big["output"] / "terms" / "api.0.json").exists()
    assert not (big["output"] / "terms" / "api.61.json").exists()


def test_a_cards_first_lookup_fetches_at_most_300_kb(big, browser):
    driver = browser()
    server = big["server"]
    driver.get(server.url)
    word = big["chosen"][1]
    link = driver.find_element(By.CSS_SELECTOR, 'a.term[data-term="%s"]' % word)
    driver.execute_script("arguments[0].focus()", link)
    card = driver.find_element(By.CSS_SELECTOR, "[data-term-card]")
    wait_for(lambda: card.is_displayed(), message="the card of " + word)
    number = big["words"].index(word)
    assert "Entry %d, about %s." % (number, word) in card.text
    sizes = fetched(driver, server.url + "terms/")
    assert "index.json" in sizes and len(sizes) == 2, sizes  # the manifest and one shard
    assert sum(sizes.values()) <= LIMIT, sizes


def test_a_dictionary_lookup_and_instant_results_fetch_at_most_300_kb(big, browser):
    driver = browser()
    server = big["server"]
    word = big["words"][12_345]
    driver.get(server.url + "search/?q=" + word.upper())
    results = driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]")
    wait_for(lambda: results.get_attribute("data-state") == "found", message="the entry of " + word)
    assert results.find_element(By.CSS_SELECTOR, "h2").text == word
    assert "Entry 12345, about %s." % word in results.text
    sizes = fetched(driver, server.url + "terms/")
    assert "index.json" in sizes and len(sizes) == 2, sizes
    assert sum(sizes.values()) <= LIMIT, sizes
    # Instant results: the terms starting with what is typed, in key order, from the shards where it falls.
    prefix = word[:3]
    field = driver.find_element(By.CSS_SELECTOR, "input[name=q]")
    field.clear()
    field.send_keys(prefix)
    instant = driver.find_element(By.CSS_SELECTOR, "[data-instant-results]")
    wait_for(lambda: instant.is_displayed(), message="instant results for " + prefix)
    shown = [a.find_element(By.CSS_SELECTOR, ".instant-word").text for a in instant.find_elements(By.CSS_SELECTOR, "a")]
    assert shown == [w for w in big["words"] if w.startswith(prefix)][:6]
    assert sum(fetched(driver, server.url + "terms/").values()) <= LIMIT


HOST_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body><main>
<p>Read about [[%(word)s]]; [[zzzzzzzzzzzz]] is no term.</p>
</main><script src="%(glossary)sembed.js" defer></script></body></html>"""


def test_embed_js_on_another_origin_fetches_at_most_300_kb(big, workdir, browser):
    glossary = big["server"]
    word = big["words"][4_321]
    page = Path(workdir) / "big-host"
    page.mkdir()
    (page / "index.html").write_text(HOST_PAGE % {"word": word, "glossary": glossary.url}, encoding="utf-8")
    host = support.SiteServer(page)
    try:
        driver = browser()
        driver.get(host.url)
        wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "a[data-glossary-term]"), message="the term link")
        links = driver.find_elements(By.CSS_SELECTOR, "a[data-glossary-term]")
        assert [a.get_attribute("data-glossary-term") for a in links] == [word]
        assert links[0].get_attribute("href") == glossary.url + "terms/%s/" % word
        driver.execute_script("arguments[0].focus()", links[0])
        text = """var h = document.querySelector("[data-glossary-card]"), c = h && h.shadowRoot.querySelector("[data-term-card]");
                  return c && !c.hidden ? c.textContent : null;"""
        wait_for(lambda: driver.execute_script(text), message="the card of " + word)
        assert "Entry 4321, about %s." % word in driver.execute_script(text)
        sizes = fetched(driver, glossary.url + "terms/")
        # The manifest and the shards of the two words (one for a word that sorts in the same shard).
        assert "api.json" in sizes and 2 <= len(sizes) <= 3, sizes
        assert sum(sizes.values()) <= LIMIT, sizes
    finally:
        host.close()
