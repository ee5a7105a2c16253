"""Issue 33: a glossary used from other docs sites. A real MkDocs Material site and a real Sphinx site, built here
from small sources, served on one loopback port; the glossary served by `glossary serve` on another (a real
cross-origin request). Both the script variant (embed.js in the site's config) and the `glossary annotate` variant
give working term links and cards: hover, Tab, tap, Escape, focus returning, nothing linked in code, headings or
links, axe-core clean, no console errors, no request to a third origin. Material's instant navigation gets its new
page's terms linked. A hostile term index renders inert and bounded."""

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import support
from support import center, tap, wait_for

BIN = Path(sys.executable).parent

GLOSSARY = {
    "glossary.yml": "title: Team Glossary\nbase_url: /\n",
    "content/index.md": "# Team Glossary\n\nOur words.\n",
    "content/glossary/kerning.md": "---\nterm: kerning\naliases: [letter spacing]\npart_of_speech: noun\n---\n"
                                   "The *space* between letters; see [type](https://example.invalid/type).\n",
    "content/glossary/leading.md": "---\nterm: leading\n---\nThe space between lines.\n",
    "content/glossary/api.md": "---\nterm: API\ncase_sensitive: true\n---\nAn interface.\n",
}

MKDOCS_PAGES = {
    "index.md": "# Home of [[kerning]]\n\nWe tune [[kerning]] and [[spacing|letter spacing]] here.\n\n"
                "Not in code: `[[kerning]]`, nor in [a link to [[kerning]]](https://example.invalid/).\n\n"
                "Read [the other page](other.md).\n",
    "other.md": "# Other\n\nThe [[leading]] of a paragraph.\n",
}

SPHINX_PAGES = {
    "index.rst": "Home of [[kerning]]\n===================\n\nWe tune [[kerning]] here.\n\n"
                 "Not in code: ``[[kerning]]``, nor in `a link to [[kerning]] <https://example.invalid/>`_.\n\n"
                 ".. toctree::\n\n   other\n",
    "other.rst": "Other\n=====\n\nThe [[leading]] of a paragraph.\n",
}


def write(folder, files):
    for name, text in files.items():
        path = Path(folder) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def run(command, **options):
    result = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=600, **options)
    assert result.returncode == 0, "%s failed:\n%s%s" % (command, result.stdout, result.stderr)
    return result


@pytest.fixture(scope="module")
def glossary(workdir):
    source = Path(workdir) / "embed-glossary"
    write(source, GLOSSARY)
    server = support.Serve(source)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def docs(workdir):
    """One http.server on loopback for every docs site of this module (its own origin)."""
    root = Path(workdir) / "embed-docs"
    root.mkdir()
    server = support.SiteServer(root)
    yield server
    server.close()


def build_mkdocs(root, name, site_url, script):
    source = Path(root).parent / ("src-" + name)
    write(source / "docs", MKDOCS_PAGES)
    config = {"site_name": "Docs", "site_url": site_url, "use_directory_urls": True,
              "theme": {"name": "material", "font": False, "features": ["navigation.instant"]}, "plugins": []}
    if script:
        config["extra_javascript"] = [{"path": script, "defer": True}]
    (source / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")
    run([BIN / "mkdocs", "build", "-q", "-f", source / "mkdocs.yml", "-d", Path(root) / name])


def build_sphinx(root, name, script):
    source = Path(root).parent / ("src-" + name)
    write(source, SPHINX_PAGES)
    conf = "project = 'Docs'\nhtml_theme = 'alabaster'\n"
    if script:
        conf += "html_js_files = [(%r, {'defer': 'defer'})]\n" % script
    (source / "conf.py").write_text(conf, encoding="utf-8")
    run([BIN / "sphinx-build", "-q", "-b", "html", source, Path(root) / name])


@pytest.fixture(scope="module")
def sites(docs, glossary):
    """The four docs sites, by name: MkDocs and Sphinx, each with the script in its config and annotated."""
    root = docs.directory
    script = glossary.url + "embed.js"
    build_mkdocs(root, "mkdocs-script", docs.url + "mkdocs-script/", script)
    build_mkdocs(root, "mkdocs-annotated", docs.url + "mkdocs-annotated/", None)
    build_sphinx(root, "sphinx-script", script)
    build_sphinx(root, "sphinx-annotated", None)
    for name in ("mkdocs-annotated", "sphinx-annotated"):
        run([support.GLOSSARY, "annotate", root / name, "--glossary", glossary.url])
    return {name: docs.url + name + "/" for name in ("mkdocs-script", "mkdocs-annotated", "sphinx-script", "sphinx-annotated")}


CARD = """
var host = document.querySelector("[data-glossary-card]");
var card = host && host.shadowRoot.querySelector("[data-term-card]");
if (!card) return {open: false};
var r = card.getBoundingClientRect();
var inner = host.shadowRoot.activeElement;
return {open: !card.hidden && r.width > 0, role: card.getAttribute("role"), label: card.getAttribute("aria-label"),
        modal: card.getAttribute("aria-modal"), text: card.textContent, height: r.height,
        links: Array.from(card.querySelectorAll("a[href]")).map(function (a) { return a.href; }),
        scripts: card.querySelectorAll("script, img, iframe").length,
        focusInCard: document.activeElement === host && !!inner, focusClass: inner ? inner.className : null};
"""


def card(driver):
    return driver.execute_script(CARD)


def term_links(driver):
    return driver.find_elements(By.CSS_SELECTOR, "a[data-glossary-term]")


def third_origins(driver, allowed):
    names = driver.execute_script("return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
    origins = {"%s://%s" % (urlsplit(name).scheme, urlsplit(name).netloc) for name in names if name.startswith("http")}
    return origins - {origin.rstrip("/") for origin in allowed}


def console_errors(driver):
    return [entry["message"] for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE" and "favicon" not in entry["message"]]


def open_page(driver, url):
    driver.get(url)
    wait_for(lambda: term_links(driver), message="term links on " + url)


@pytest.mark.parametrize("name", ["mkdocs-script", "mkdocs-annotated", "sphinx-script", "sphinx-annotated"])
def test_terms_link_to_the_glossary_with_cards(name, sites, glossary, docs, browser):
    driver = browser()
    open_page(driver, sites[name])
    links = term_links(driver)
    kerning = glossary.url + "terms/kerning/"
    assert [link.get_attribute("href") for link in links][:1] == [kerning]
    assert all(link.get_attribute("href").startswith(glossary.url + "terms/") for link in links)
    inside = driver.execute_script("""return Array.from(document.querySelectorAll("a[data-glossary-term]"))
        .filter(function (a) { return a.parentElement.closest("code, pre, h1, h2, h3, a, nav"); }).length""")
    assert inside == 0
    # The references left in code, headings and links stay as they were.
    assert driver.execute_script("return Array.from(document.querySelectorAll('code')).some(function (c) { return c.textContent === '[[kerning]]'; })")

    link = links[0]
    # Styled by embed.css (annotated) or the same rules adopted by embed.js (script): a dotted underline and a marker.
    style = driver.execute_script("""var s = getComputedStyle(arguments[0]), after = getComputedStyle(arguments[0], "::after");
        return [s.textDecorationLine, s.textDecorationStyle, after.content, arguments[0].getAttribute("style")];""", link)
    assert style[:2] == ["underline", "dotted"] and "\u2197" in style[2] and style[3] is None
    ActionChains(driver).move_to_element(link).perform()
    wait_for(lambda: card(driver)["open"], message="the card to open on hover")
    state = card(driver)
    assert state["role"] == "dialog" and state["modal"] is None and state["label"] == "kerning"
    assert "Team Glossary" in state["text"] and "The space between letters" in state["text"]
    assert state["links"] == ["https://example.invalid/type", kerning]
    assert link.get_attribute("aria-expanded") == "true"

    Axe(driver).inject()
    violations = driver.execute_async_script("""var done = arguments[arguments.length - 1];
        axe.run({include: [["[data-glossary-card]", "[data-term-card]"]]}).then(function (r) {
          done(r.violations.map(function (v) { return v.id + ": " + v.help; })); });""")
    assert violations == []

    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_for(lambda: not card(driver)["open"], message="Escape to close the card")

    # Tab onto the link opens it, Tab again moves into the card, Escape closes it and focus returns to the link.
    driver.execute_script("arguments[0].focus(); arguments[0].blur();", link)
    driver.execute_script("""var a = arguments[0], before = document.createElement('button');
        before.id = '__before'; before.textContent = 'before'; a.parentNode.insertBefore(before, a);""", link)
    driver.find_element(By.ID, "__before").click()
    ActionChains(driver).send_keys(Keys.TAB).perform()
    wait_for(lambda: card(driver)["open"], message="the card to open on focus")
    assert driver.switch_to.active_element == link
    ActionChains(driver).send_keys(Keys.TAB).perform()
    wait_for(lambda: card(driver)["focusInCard"], message="Tab to move into the card")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_for(lambda: not card(driver)["open"], message="Escape to close the card")
    assert driver.switch_to.active_element == link

    # A link by an alias, or by another case, opens its term's card too.
    alias = next((a for a in term_links(driver) if a.text == "spacing"), None)
    if name.startswith("mkdocs"):
        driver.execute_script("arguments[0].focus()", alias)
        wait_for(lambda: card(driver)["open"] and card(driver)["label"] == "kerning", message="the card of a link by an alias")
        assert alias.get_attribute("href") == kerning

    assert third_origins(driver, [docs.url, glossary.url]) == set()
    assert console_errors(driver) == []


@pytest.mark.parametrize("name", ["mkdocs-script", "sphinx-annotated"])
def test_a_tap_opens_the_card_and_a_tap_outside_closes_it(name, sites, browser):
    driver = browser(width=400, height=800, mobile=True)
    open_page(driver, sites[name])
    link = term_links(driver)[0]
    start = driver.current_url
    x, y = center(driver, link)
    tap(driver, x, y)
    wait_for(lambda: card(driver)["open"], message="a tap to open the card")
    assert driver.current_url == start
    tap(driver, 5, 790)
    wait_for(lambda: not card(driver)["open"], message="a tap outside to close the card")


def test_material_instant_navigation_links_the_new_page(sites, glossary, browser):
    driver = browser()
    open_page(driver, sites["mkdocs-script"])
    driver.execute_script("window.__samePage = true")
    driver.find_element(By.LINK_TEXT, "the other page").click()
    wait_for(lambda: driver.execute_script("return location.pathname").endswith("/other/"), message="navigation")
    wait_for(lambda: any(a.get_attribute("data-glossary-term") == "leading" for a in term_links(driver)),
             message="the new page's terms to be linked")
    assert driver.execute_script("return window.__samePage === true"), "Material navigated without a reload"
    link = next(a for a in term_links(driver) if a.get_attribute("data-glossary-term") == "leading")
    assert link.get_attribute("href") == glossary.url + "terms/leading/"
    driver.execute_script("arguments[0].focus()", link)
    wait_for(lambda: card(driver)["open"] and card(driver)["label"] == "leading", message="the card of the new page's term")


HOSTILE_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hostile</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src %(origin)s; connect-src %(origin)s">
</head><body><main><p>Words: [[evil]] and [[jsurl]] and [[huge]].</p></main>
<script src="%(origin)s/embed.js" defer></script></body></html>"""


def test_a_hostile_index_renders_inert_and_bounded(workdir, glossary, browser):
    folder = Path(workdir) / "hostile-glossary"
    (folder / "terms").mkdir(parents=True)
    shutil.copy(Path(support.build_site(Path(workdir) / "embed-glossary", Path(workdir) / "embed-glossary-site", "--offline")) / "embed.js", folder)
    terms = [
        {"key": "evil", "word": "evil<img src=x onerror=\"window.__pwned='word'\">", "url": "evil/",
         "summary_html": "<script>window.__pwned='script'</script><a href=\"javascript:window.__pwned='a'\">click</a>"
                         "<img src=x onerror=\"window.__pwned='img'\"/><em onclick=\"window.__pwned='em'\">text</em>"},
        {"key": "jsurl", "word": "jsurl", "url": "javascript:window.__pwned='url'", "summary": "x"},
        {"key": "huge", "word": "huge", "url": "huge/", "summary_html": "<em>" + "x" * 1_000_000 + "</em>",
         "summary": "y" * 1_000_000, "phonetic": "p" * 10_000},
    ]
    (folder / "terms" / "api.json").write_text(json.dumps({"version": 2, "title": "Evil <b>Glossary</b>", "terms": terms}), encoding="utf-8")
    glossary_server = support.SiteServer(folder, cors=True)
    page = Path(workdir) / "hostile-page"
    page.mkdir()
    origin = glossary_server.url.rstrip("/")
    (page / "index.html").write_text(HOSTILE_PAGE % {"origin": origin}, encoding="utf-8")
    page_server = support.SiteServer(page)
    try:
        driver = browser()
        open_page(driver, page_server.url)
        linked = {a.get_attribute("data-glossary-term"): a for a in term_links(driver)}
        assert sorted(linked) == ["evil", "huge"], "a javascript: term URL is never linked"
        for key in ("evil", "huge"):
            driver.execute_script("arguments[0].focus()", linked[key])
            wait_for(lambda: card(driver)["open"] and card(driver)["label"].startswith(key), message="the card of " + key)
            state = card(driver)
            assert state["scripts"] == 0
            assert all(href.startswith(origin + "/terms/") for href in state["links"])
            assert len(state["text"]) < 1200 and state["height"] < 600
        assert "Evil <b>Glossary</b>" in card(driver)["text"]
        # The links are styled under this policy (no style-src): embed.js adopts a constructed stylesheet, which CSP
        # doesn't govern, where a <style>, a style attribute or a <link> to embed.css would be a violation (and the
        # browser fixture fails a test whose pages logged any).
        assert linked["evil"].value_of_css_property("text-decoration-style") == "dotted"
        assert driver.execute_script("return window.__pwned === undefined")
    finally:
        glossary_server.close()
        page_server.close()


AUTOLINK_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Autolink</title></head><body>
<nav><p>kerning in the navigation</p></nav>
<main>
<h2>kerning in a heading</h2>
<p id="first">Good Letter  Spacing and kerning, then kerning again; an api, not an API.</p>
<p id="marked">By hand: <span data-term="leading">the gaps</span>.</p>
<p id="skipped">Code <code>kerning</code>, <a href="/x">kerning</a>, <button>kerning</button>,
  <span data-glossary-skip>kerning</span>, kerningly, leading-edge.</p>
</main>
<aside><p id="outside">leading outside the scope</p></aside>
<script src="%(glossary)sembed.js" defer data-autolink="first" data-scope="main"></script>
</body></html>"""


def test_autolink_links_first_occurrences_by_the_matching_rules(workdir, glossary, browser):
    page = Path(workdir) / "autolink-page"
    page.mkdir()
    (page / "index.html").write_text(AUTOLINK_PAGE % {"glossary": glossary.url}, encoding="utf-8")
    server = support.SiteServer(page)
    try:
        driver = browser(dark=True)
        open_page(driver, server.url)
        wait_for(lambda: len(term_links(driver)) == 3, message="three links")
        linked = driver.execute_script("""return Array.from(document.querySelectorAll("a[data-glossary-term]"))
            .map(function (a) { return [a.closest("p").id, a.textContent, a.getAttribute("data-glossary-term")]; })""")
        # The longest match first (the alias "letter spacing", across two spaces), each term once per page, a
        # case-sensitive term only as spelled, marked elements by hand; nothing in headings, code, links, buttons, nav, skipped elements, inside words or outside
        # the scope.
        assert linked == [["first", "Letter  Spacing", "kerning"], ["first", "API", "api"], ["marked", "the gaps", "leading"]]
        paragraph = driver.find_element(By.ID, "skipped")
        before = paragraph.rect
        link = term_links(driver)[0]
        driver.execute_script("arguments[0].focus()", link)
        wait_for(lambda: card(driver)["open"], message="the card")
        assert paragraph.rect == before, "opening a card shifts nothing"
        background = driver.execute_script("""var c = document.querySelector("[data-glossary-card]").shadowRoot
            .querySelector("[data-term-card]"); return getComputedStyle(c).backgroundColor""")
        assert background == "rgb(28, 33, 40)", "dark like the host's preference"
    finally:
        server.close()


PROTOTYPE_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Words</title></head><body>
<main>
<p id="words">The constructor calls toString and hasOwnProperty; [[constructor]], [[shown|__proto__]], [[kerning]].</p>
<p>Marked: <span id="proto" data-term="valueOf">a value</span> and <span id="marked" data-term="leading">the gaps</span>.</p>
</main>
<script src="%(glossary)sembed.js" defer data-autolink="all"></script>
</body></html>"""


def test_words_named_like_object_properties_are_no_terms_and_marked_elements_link_once(workdir, glossary, browser):
    """The tables words are looked up in have no prototype: "constructor", "toString", "__proto__" or "valueOf" is no
    term, linked nowhere (it was linked to "undefined"). A marked element, once linked, is not linked again inside its
    link when the page changes and the script looks again."""
    page = Path(workdir) / "prototype-page"
    page.mkdir()
    (page / "index.html").write_text(PROTOTYPE_PAGE % {"glossary": glossary.url}, encoding="utf-8")
    server = support.SiteServer(page)
    try:
        driver = browser()
        open_page(driver, server.url)
        wait_for(lambda: len(term_links(driver)) == 2, message="kerning and the marked element linked")
        # A change to the page makes the script look again: a new paragraph's term is linked...
        driver.execute_script("""var p = document.createElement("p"); p.id = "later"; p.textContent = "Later: leading.";
            document.querySelector("main").appendChild(p);""")
        wait_for(lambda: driver.execute_script("return !!document.querySelector('#later a[data-glossary-term]')"), message="the new paragraph")
        linked = driver.execute_script("""return Array.from(document.querySelectorAll("a"))
            .map(function (a) { return [a.closest("p").id || a.closest("span").id, a.textContent, a.getAttribute("href")]; })""")
        hrefs = [href for _, _, href in linked]
        assert all(href and href.startswith(glossary.url) for href in hrefs), linked
        # ...and the marked element keeps its one link.
        assert [(place, text) for place, text, _ in linked] == [("words", "kerning"), ("marked", "the gaps"), ("later", "leading")]
        assert driver.execute_script("return document.querySelectorAll('#marked a').length") == 1
    finally:
        server.close()
