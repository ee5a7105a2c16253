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

# The bytes of each term-index file the page fetched (its body as sent; no file is fetched twice). The server sends
# Timing-Allow-Origin, without which another origin's sizes read 0: `fetched` fails on a size of 0.
FETCHED = """
var prefix = arguments[0], sizes = {};
performance.getEntriesByType("resource").forEach(function (e) {
  var name = e.name.slice(prefix.length);
  if (e.name.indexOf(prefix) === 0) sizes[name] = (sizes[name] || 0) + e.encodedBodySize;
});
return sizes;
"""


def fetched(driver, prefix):
    sizes = driver.execute_script(FETCHED, prefix)
    assert all(size > 0 for size in sizes.values()), sizes
    return sizes


@pytest.fixture(scope="module")
def big(workdir):
    """The words (by key), the built site and a server of it readable from any origin (for embed.js)."""
    print("term shards: seed %d" % SEED)
    rng = random.Random(SEED)
    words = set()
    # As in a real dictionary, one letter starts many words (s: 10% in English; 40% here, so that a shard of a
    # first letter's words would take more than 300 KB even at this size).
    while len(words) < ENTRIES:
        first = "s" if rng.random() < 0.4 else rng.choice(LETTERS)
        words.add(first + "".join(rng.choice(LETTERS) for _ in range(rng.randint(4, 9))))
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
    print("term shards: a card fetched %s" % sizes)
    assert "index.json" in sizes and len(sizes) == 2, sizes  # the manifest and one shard
    assert sum(sizes.values()) <= LIMIT, sizes


def test_a_dictionary_lookup_fetches_at_most_300_kb(big, browser):
    driver = browser()
    server = big["server"]
    word = big["words"][12_345]
    driver.get(server.url + "search/?q=" + word.upper())
    results = driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]")
    wait_for(lambda: results.get_attribute("data-state") == "found", message="the entry of " + word)
    assert results.find_element(By.CSS_SELECTOR, "h2").text == word
    assert "Entry 12345, about %s." % word in results.text
    sizes = fetched(driver, server.url + "terms/")
    print("term shards: a lookup fetched %s" % sizes)
    assert "index.json" in sizes and len(sizes) == 2, sizes
    assert sum(sizes.values()) <= LIMIT, sizes


def test_typing_a_word_with_instant_results_then_looking_it_up_fetches_at_most_300_kb(big, browser):
    driver = browser()
    server = big["server"]
    # A word halfway through the crowded letter, with at least six words starting with its first three letters: each
    # letter typed may ask for another shard.
    middle = [w for w in big["words"] if w.startswith("s")]
    word = next(w for w in middle[len(middle) // 2:] if sum(1 for v in big["words"] if v.startswith(w[:3])) >= 6)
    driver.get(server.url + "search/")
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "form[data-dictionary-search]").get_attribute("data-ready"), message="the script")
    field = driver.find_element(By.CSS_SELECTOR, "input[name=q]")
    instant = driver.find_element(By.CSS_SELECTOR, "[data-instant-results]")

    def shown():
        return [a.find_element(By.CSS_SELECTOR, ".instant-word").text for a in instant.find_elements(By.CSS_SELECTOR, "a")]

    # Instant results: the terms starting with what is typed, in key order.
    field.send_keys(word[:3])
    expected = [w for w in big["words"] if w.startswith(word[:3])][:6]
    wait_for(lambda: instant.is_displayed() and shown() == expected, message="instant results for " + word[:3])
    field.send_keys(word[3:])
    wait_for(lambda: instant.is_displayed() and shown()[:1] == [word], message="instant results for " + word)
    field.send_keys(Keys.ENTER)
    results = driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]")
    wait_for(lambda: results.get_attribute("data-state") == "found", message="the entry of " + word)
    assert results.find_element(By.CSS_SELECTOR, "h2").text == word
    sizes = fetched(driver, server.url + "terms/")
    print("term shards: typing %r and looking it up fetched %s" % (word, sizes))
    assert sum(sizes.values()) <= LIMIT, sizes


HOST_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body><main>
<p>Read about [[%(word)s]]; [[zzzzzzzzzzzz]] is no term.</p>
</main><script src="%(glossary)sembed.js" defer></script></body></html>"""


def test_embed_js_on_another_origin_fetches_at_most_300_kb(big, workdir, browser):
    glossary = big["server"]
    word = [w for w in big["words"] if w.startswith("s")][1_000]
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
        assert "Entry %d, about %s." % (big["words"].index(word), word) in driver.execute_script(text)
        sizes = fetched(driver, glossary.url + "terms/")
        print("term shards: embed.js fetched %s" % sizes)
        # The manifest and the shards of the two words (one for a word that sorts in the same shard).
        assert "api.json" in sizes and 2 <= len(sizes) <= 3, sizes
        assert sum(sizes.values()) <= LIMIT, sizes
    finally:
        host.close()
