"""The site search (issue 13): the header's box finds pages and terms, marks the matching words, moves with the
arrow keys and opens with Enter, and `/` gets to it; it loads from the site alone. Its results are lunr's: the
same documents in a lunr index that lunr builds itself (accents folded first) give the same results with the same
scores."""

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
    "containers.md": ("Containers", [], ["Containers hold a process. Containerd runs containers on nodes."]),
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
var builder = new lunr.Builder();
builder.pipeline.add(fold, lunr.trimmer, lunr.stopWordFilter, noEmpty);
builder.ref("ref");
builder.field("title", { boost: 10 });
builder.field("headings", { boost: 5 });
builder.field("text");
documents.forEach(function (d) { builder.add(d); });
var reference = builder.build();
var vocabulary = Object.keys(reference.invertedIndex).sort();
Promise.all(queries.map(function (text) {
  return Promise.all([Glossary.siteSearch.clauses(text), Glossary.siteSearch.search(text)]).then(function (both) {
    var expected = reference.query(function (q) { both[0].forEach(function (c) { q.clause(Object.assign({}, c)); }); });
    function shape(results) { return results.map(function (r) { return [r.ref, Math.round(r.score * 1e9) / 1e9]; }); }
    return { text: text, clauses: both[0].length, ours: shape(both[1]), lunr: shape(expected) };
  });
})).then(function (results) {
  return fetch(document.body.dataset.root + "search/index.json").then(function (r) { return r.json(); }).then(function (m) {
    done({ results: results, vocabulary: vocabulary, built: m.terms });
  });
}, function (error) { done({ error: String(error) }); });
"""


def test_results_and_scores_are_what_lunr_itself_gives(browser, small_site):
    driver = browser()
    server, _ = small_site
    driver.get(server.url)
    driver.find_element(By.CSS_SELECTOR, ".site-search-input").send_keys("pods")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, ".site-search-option"), message="results")
    queries = ["pods", "pod", "node", "sched", "pods nodes", "title:nodes", "pods -draining", "caf", "config.yaml", "containr~2",
               "x86_64", "über", "+pools scale", "nothing-here", "quickly well"]
    answer = driver.execute_async_script(LUNR_REFERENCE, reference_documents(small_site), queries)
    assert "error" not in answer, answer
    # The build's terms are lunr's tokenizer, trimmer and stop-word filter's terms of the same text.
    assert answer["built"] == answer["vocabulary"]
    for result in answer["results"]:
        assert result["ours"] == result["lunr"], result
    found = {r["text"]: r["ours"] for r in answer["results"]}
    # A plain word is a prefix: "pods" is on three pages, "pod" also finds the scheduler's "pod".
    assert len(found["pods"]) == 3 and len(found["pod"]) == 4 and found["nothing-here"] == [] and len(found["caf"]) == 1
    assert found["x86_64"] and found["quickly well"], "text after a no-break space and other white space"


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
