"""The site search (issue 13): the header's box finds pages and terms, marks the matching words, moves with the
arrow keys and opens with Enter, and `/` gets to it; it loads from the site alone. Its results are lunr's: the
same documents in a lunr index that lunr builds itself (accents folded first) match the same documents with the same
terms, and each score is BM25 (lunr.Builder's weights, field lengths as the index keeps them) summed over the
matched terms and fields, the clause's boost times the weight."""

import json
from pathlib import Path
from urllib.parse import quote, urlparse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import support
from support import wait_for

# Plain paragraphs only, so each page's text field is known here exactly; tricky characters for the tokenizer.
PAGES = {
    "index.md": ("Home", [], ["A site about pods and nodes."]),
    "pods.md": ("Pods and nodes", ["Running pods", "Scheduling"],
                ["Pods run containers; pods stop. Café, naïve and ÜBER-cool: config.yaml set-up (x86_64) C++.",
                 "The scheduler places pods on nodes\u00a0quickly\u2003and\u3000well — or not."]),
    "nodes.md": ("Nodes", ["Node pools", "Draining a node", "Pods on nodes"],
                 ["A node runs pods. Draining moves pods elsewhere.", "Node pools group nodes; pools scale."]),
    "containers.md": ("Containers", [], ["Containers hold a process. Containerd runs containers on nodes, «Жук» and 東京タワー too."]),
    "scheduler.md": ("The scheduler", ["Scores"], ["The scheduler scores nodes for each pod and binds it."]),
}


@pytest.fixture(scope="module")
def small_site(workdir):
    source = Path(workdir) / "search-source"
    (source / "content").mkdir(parents=True)
    (source / "glossary.yml").write_text("title: Pods\nbase_url: /\n", encoding="utf-8")
    for name, (title, headings, paragraphs) in PAGES.items():
        body = "".join("## %s\n\n%s\n\n" % pair for pair in zip(headings, paragraphs[1:] + [""] * 5))
        text = "---\ntitle: %s\n---\n%s\n\n%s" % (title, paragraphs[0], body)
        (source / "content" / name).write_text(text, encoding="utf-8")
    server = support.SiteServer(support.build_site(source, Path(workdir) / "search-site", "--offline"))
    yield server, source
    server.close()


def reference_documents(small_site):
    """What each page holds, keyed by the ref the build gave it (the search/docs chunks say which page is which)."""
    server, source = small_site
    site = Path(server.directory)
    refs = {entry[2]: ref for ref, entry in enumerate(json.loads((site / "search/docs/0.json").read_text(encoding="utf-8")))}
    documents = []
    for name, (title, headings, paragraphs) in PAGES.items():
        url = "" if name == "index.md" else name[:-3] + "/"
        documents.append({"ref": str(refs[url]), "title": title, "headings": "\n".join(headings), "text": "\n".join(paragraphs)})
    return documents


LUNR_REFERENCE = """
var documents = arguments[0], queries = arguments[1], done = arguments[arguments.length - 1];
function noEmpty(token) { return token.toString() === "" ? undefined : token; }
// Accents folded before lunr's own steps, as the build and the search box fold them.
function fold(token) { return token.update(Glossary.searchEngine.fold); }
var builder = new lunr.Builder(), boosts = { title: 10, headings: 5, text: 1 };
builder.pipeline.add(fold, Glossary.searchEngine.trimmer, lunr.stopWordFilter, noEmpty);
builder.ref("ref");
Object.keys(boosts).forEach(function (field) { builder.field(field, { boost: boosts[field] }); });
documents.forEach(function (d) { builder.add(d); });
var reference = builder.build();
var vocabulary = Object.keys(reference.invertedIndex).sort();
// BM25 from lunr.Builder's own counts, a field's length as the index keeps it: exact below 8, else the middle of its
// level, level 8 + k holding the lengths from ⌈8 × 1.25^k⌉ to before ⌈8 × 1.25^(k+1)⌉.
function kept(length) {
  if (length < 8) return length;
  for (var k = 0; length >= Math.ceil(8 * Math.pow(1.25, k + 1)); k++);
  return 8 * Math.pow(1.25, k + 0.5);
}
function weight(term, field, ref) {
  var frequency = builder.fieldTermFrequencies[field + "/" + ref][term];
  if (!frequency) return 0;
  var df = 0, total = 0;
  Object.keys(boosts).forEach(function (f) { df += Object.keys(reference.invertedIndex[term][f]).length; });
  documents.forEach(function (d) { total += builder.fieldLengths[field + "/" + d.ref]; });
  var idf = Math.log(1 + Math.abs((documents.length - df + 0.5) / (df + 0.5)));
  var relative = kept(builder.fieldLengths[field + "/" + ref]) / (total / documents.length);
  return idf * 2.2 * frequency / (1.2 * (0.25 + 0.75 * relative) + frequency) * boosts[field];
}
// lunr finds the documents and the terms and fields that match; the score sums each clause's boost times the weight
// of each term it expands to in each of its fields.
function expected(clauses) {
  var found = reference.query(function (q) { clauses.forEach(function (c) { q.clause(Object.assign({}, c)); }); });
  return found.map(function (result) {
    var score = 0;
    clauses.forEach(function (clause) {
      if (clause.presence === lunr.Query.presence.PROHIBITED) return;
      var q = new lunr.Query(Object.keys(boosts));
      q.clause(Object.assign({}, clause));
      reference.tokenSet.intersect(lunr.TokenSet.fromClause(q.clauses[0])).toArray().forEach(function (term) {
        clause.fields.forEach(function (field) { score += clause.boost * weight(term, field, result.ref); });
      });
    });
    return { ref: result.ref, score: score, matchData: result.matchData };
  }).sort(function (a, b) { return b.score - a.score || a.ref - b.ref; });
}
function shape(results) {
  return results.map(function (r) {
    var matched = Object.keys(r.matchData.metadata).sort().map(function (t) { return t + ":" + Object.keys(r.matchData.metadata[t]).sort(); });
    return [r.ref, Math.round(r.score * 1e9) / 1e9, matched.join(" ")];
  });
}
Promise.all(queries.map(function (text) {
  return Promise.all([Glossary.siteSearch.clauses(text), Glossary.siteSearch.search(text)]).then(function (both) {
    return { text: text, clauses: both[0].length, ours: shape(both[1]), lunr: shape(expected(both[0])) };
  });
})).then(function (results) {
  // Every shard, in the manifest's order: its first term the manifest's, its terms sorted on from the previous one's.
  var folder = document.body.dataset.root + "search/";
  function get(path) { return fetch(folder + path).then(function (r) { return r.json(); }); }
  return get("index.json").then(function (manifest) {
    return Promise.all(manifest.shards.map(function (shard) { return get("shards/" + shard[1] + ".json"); })).then(function (shards) {
      var built = [], firsts = [];
      shards.forEach(function (shard) {
        firsts.push(shard.terms[0][0]);
        shard.terms.forEach(function (entry) { built.push(entry[0]); });
      });
      done({ results: results, vocabulary: vocabulary, built: built, firsts: firsts,
             manifestFirsts: manifest.shards.map(function (shard) { return shard[0]; }) });
    });
  });
}, function (error) { done({ error: String(error) }); });
"""


def test_results_and_scores_are_bm25_of_what_lunr_itself_matches(browser, small_site):
    driver = browser()
    server, _ = small_site
    driver.get(server.url)
    driver.find_element(By.CSS_SELECTOR, ".site-search-input").send_keys("pods")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, ".site-search-option"), message="results")
    queries = ["pods", "pod", "node", "sched", "pods nodes", "title:nodes", "pods -draining", "caf", "config.yaml", "containr~2",
               "x86_64", "über", "+pools scale", "nothing-here", "quickly well", "headings:pods", "pods *odes", "no*s", "Жук", "東京"]
    answer = driver.execute_async_script(LUNR_REFERENCE, reference_documents(small_site), queries)
    assert "error" not in answer, answer
    # The build's terms are lunr's tokenizer, trimmer and stop-word filter's terms of the same text, in JavaScript's
    # order, and each shard begins with the term the manifest names. One shard: every query loads every term, so it
    # expands as lunr does over the whole vocabulary (a leading wildcard, a typo).
    assert answer["built"] == answer["vocabulary"]
    assert answer["firsts"] == answer["manifestFirsts"] and len(answer["firsts"]) == 1
    for result in answer["results"]:
        assert result["ours"] == result["lunr"], result
    found = {r["text"]: r["ours"] for r in answer["results"]}
    # A plain word is a prefix: "pods" is on three pages, "pod" also finds the scheduler's "pod".
    assert len(found["pods"]) == 3 and len(found["pod"]) == 4 and found["nothing-here"] == [] and len(found["caf"]) == 1
    assert found["x86_64"] and found["quickly well"], "text after a no-break space and other white space"
    # A field's length counts: "nodes" weighs more in the title "Nodes" than in "Pods and nodes".
    refs = {d["title"]: d["ref"] for d in reference_documents(small_site)}
    assert [r[0] for r in found["title:nodes"]] == [refs["Nodes"], refs["Pods and nodes"]]
    assert found["headings:pods"] and found["pods *odes"] and found["no*s"]
    # Words of any script are words: Cyrillic whole, Japanese by its first characters.
    assert len(found["Жук"]) == 1 and len(found["東京"]) == 1


SEARCH = """
var done = arguments[arguments.length - 1];
Glossary.siteSearch.search(arguments[0]).then(function (results) { done(results.map(function (r) { return r.ref; })); },
                                              function (error) { done("failed: " + error.message); });
"""


def test_a_shard_that_failed_to_load_is_fetched_again_by_the_next_search(browser, small_site):
    server, _ = small_site
    site = Path(server.directory)
    shard = site / "search" / "shards" / (json.loads((site / "search/index.json").read_text(encoding="utf-8"))["shards"][0][1] + ".json")
    driver = browser()
    driver.get(server.url)
    hidden = shard.with_name("hidden")
    shard.rename(hidden)
    try:
        failed = driver.execute_async_script(SEARCH, "pods")
    finally:
        hidden.rename(shard)
    assert failed.startswith("failed: HTTP 404"), failed
    again = driver.execute_async_script(SEARCH, "pods")
    assert isinstance(again, list) and len(again) == 3, again


def open_results(driver, text):
    driver.find_element(By.TAG_NAME, "body").send_keys("/")
    field = driver.switch_to.active_element
    assert field.get_attribute("class") == "site-search-input", "/ focuses the search box"
    field.send_keys(text)
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, ".site-search-option"), message="results for %r" % text)
    return field


def test_typing_shows_marked_results_the_arrow_keys_move_and_enter_opens(browser, example):
    driver = browser()
    driver.get(example.url + "guide/linking/")
    field = open_results(driver, "kern")
    options = driver.find_elements(By.CSS_SELECTOR, ".site-search-option")
    assert field.get_attribute("aria-expanded") == "true"
    assert options[0].find_element(By.CSS_SELECTOR, ".site-search-title").text == "Kerning"
    assert options[0].find_element(By.CSS_SELECTOR, ".site-search-trail").text == "Glossary term"
    assert [m.text for m in options[0].find_elements(By.TAG_NAME, "mark")] == ["Kerning"]
    status = driver.find_element(By.CSS_SELECTOR, ".site-search-status").text
    assert status == "%d results" % len(options)
    field.send_keys(Keys.ARROW_DOWN)
    assert options[0].get_attribute("aria-selected") == "true"
    assert field.get_attribute("aria-activedescendant") == options[0].get_attribute("id")
    field.send_keys(Keys.ARROW_DOWN)
    assert options[0].get_attribute("aria-selected") == "false" and options[1].get_attribute("aria-selected") == "true"
    field.send_keys(Keys.ARROW_UP, Keys.ARROW_UP)
    assert options[-1].get_attribute("aria-selected") == "true", "Up from the first wraps to the last"
    field.send_keys(Keys.ARROW_DOWN)
    target = options[0].get_attribute("data-href")
    field.send_keys(Keys.ENTER)
    wait_for(lambda: urlparse(driver.current_url).path == target, message="the result's page")
    assert target == "/terms/kerning/"


def test_a_match_in_a_heading_leads_to_that_heading(browser, example):
    driver = browser()
    driver.get(example.url)
    field = open_results(driver, "stable addresses")
    option = driver.find_element(By.XPATH, "//li[@role='option'][.//span[@class='site-search-title']='Linking well']")
    assert option.find_element(By.CSS_SELECTOR, ".site-search-heading").text == "Use stable addresses"
    assert option.get_attribute("data-href") == "/guide/linking/#use-stable-addresses"
    option.click()
    wait_for(lambda: driver.execute_script("return location.hash") == "#use-stable-addresses", message="the heading")
    assert field  # the box was used, not a link


# Folders named with what a URL must encode (issue 32): `#` would start a fragment, `%` an escape.
ESCAPED_FOLDERS = {"C#": "sharpword", "100%": "fullword", "a b": "spaceword", "é": "accentword"}


@pytest.fixture(scope="module")
def escaped_site(workdir):
    source = Path(workdir) / "escaped-source"
    (source / "content").mkdir(parents=True)
    (source / "glossary.yml").write_text("title: Escapes\nbase_url: /\n", encoding="utf-8")
    (source / "content" / "index.md").write_text("---\ntitle: Home\n---\nHome.\n", encoding="utf-8")
    for folder, word in ESCAPED_FOLDERS.items():
        (source / "content" / folder).mkdir()
        text = "---\ntitle: Page in %s\n---\nThe %s is here.\n" % (folder, word)
        (source / "content" / folder / "page.md").write_text(text, encoding="utf-8")
    server = support.SiteServer(support.build_site(source, Path(workdir) / "escaped-site", "--offline"))
    yield server
    server.close()


@pytest.mark.parametrize("folder", list(ESCAPED_FOLDERS))
def test_results_and_sidebar_links_lead_into_folders_named_with_escapes(browser, escaped_site, folder):
    driver = browser()
    driver.get(escaped_site.url)
    field = open_results(driver, ESCAPED_FOLDERS[folder])
    option = driver.find_elements(By.CSS_SELECTOR, ".site-search-option")[0]
    target = "/%s/page/" % quote(folder)
    assert option.get_attribute("data-href") == target, "the index's URL as it is, after the root"
    field.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
    wait_for(lambda: urlparse(driver.current_url).path == target, message="the result's page")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Page in %s" % folder
    driver.get(escaped_site.url)
    driver.find_element(By.CSS_SELECTOR, '.sidebar a[href="/%s/"]' % quote(folder)).click()
    wait_for(lambda: urlparse(driver.current_url).path == "/%s/" % quote(folder), message="the folder's page")
    assert driver.find_element(By.TAG_NAME, "h1").text.casefold() == folder.casefold(), "the folder's generated page, titled from its name"


def test_escape_closes_the_results_and_slash_in_a_field_is_typed(browser, example):
    driver = browser()
    driver.get(example.url + "search/")
    field = open_results(driver, "typeface")
    panel = driver.find_element(By.CSS_SELECTOR, ".site-search-panel")
    field.send_keys(Keys.ESCAPE)
    assert not panel.is_displayed() and field.get_attribute("aria-expanded") == "false"
    dictionary = driver.find_element(By.CSS_SELECTOR, "input[name=q]")
    dictionary.send_keys("a/b")
    assert dictionary.get_attribute("value") == "a/b", "typing / in another field types it"


def test_search_loads_nothing_but_the_site_and_little_of_it(browser, example):
    driver = browser()
    driver.get(example.url)
    before = set(driver.execute_script("return performance.getEntriesByType('resource').map(function (e) { return e.name; })"))
    open_results(driver, "readability")
    entries = driver.execute_script(
        "return performance.getEntriesByType('resource').map(function (e) { return [e.name, e.encodedBodySize]; })")
    fetched = [(name, size) for name, size in entries if name not in before]
    assert {urlparse(name).netloc for name, _ in fetched} == {urlparse(example.url).netloc}
    paths = sorted(urlparse(name).path for name, _ in fetched)
    assert "/assets/vendor/lunr.min.js" in paths and "/search/index.json" in paths
    assert all(p.startswith("/search/") or p == "/assets/vendor/lunr.min.js" for p in paths), paths
    assert sum(size for _, size in fetched) < 200_000
