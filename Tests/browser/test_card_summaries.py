"""Card text (issue 12, point 4): a team entry's `summary:` (else its first paragraph) shows in its card with its
inline markup and links, next to the link to the full entry; markup from terms/index.json is rebuilt from an
allow-list, so nothing in it runs."""

import json

import pytest
from selenium.webdriver.common.by import By

import support
from support import wait_for

SITE = {
    "glossary.yml": "title: Cards\nbase_url: /\n",
    "content/index.md": "---\ntitle: Cards\n---\nAbout [[kerning]], [[leading]] and [[letterspacing]].\n",
    "content/glossary/kerning.md": "---\nterm: Kerning\nsummary: \"Space *between* two [letters](https://example.org/letters).\"\n---\n"
                                   "The long definition, which the card does not show.\n",
    "content/glossary/leading.md": "---\nterm: Leading\n---\nSpace between **lines**.\n",
    "content/glossary/letterspacing.md": "---\nterm: letterspacing\nstatus: deprecated\nuse: Kerning\n---\nThe old word.\n",
}

CARD = """
var card = document.querySelector("[data-term-card]");
if (!card || card.hidden) return null;
var summary = card.querySelector(".term-card-summary");
return {summary: summary.innerHTML, text: summary.textContent,
        links: Array.prototype.map.call(card.querySelectorAll("a"), function (a) { return a.href; }),
        elements: Array.prototype.map.call(summary.querySelectorAll("*"), function (e) { return e.tagName.toLowerCase(); }),
        attributes: Array.prototype.map.call(summary.querySelectorAll("*"), function (e) { return e.attributes.length; })};
"""


@pytest.fixture(scope="module")
def cards_site(workdir):
    source = workdir / "cards-source"
    for name, text in SITE.items():
        path = source / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    output = support.build_site(source, workdir / "cards-site", "--offline")
    server = support.SiteServer(output)
    yield server, output
    server.close()


def open_card(driver, slug):
    link = driver.find_element(By.CSS_SELECTOR, 'a.term[data-term="%s"]' % slug)
    driver.execute_script("arguments[0].focus()", link)
    wait_for(lambda: driver.execute_script(CARD) is not None, message="card of %s to open" % slug)
    return driver.execute_script(CARD)


def test_a_card_shows_the_summary_with_its_markup_and_link(cards_site, browser):
    server, _ = cards_site
    driver = browser()
    driver.get(server.url)
    card = open_card(driver, "kerning")
    assert card["summary"] == 'Space <em>between</em> two <a href="https://example.org/letters">letters</a>.'
    assert card["links"] == ["https://example.org/letters", server.url + "terms/kerning/"]

    card = open_card(driver, "leading")
    assert card["summary"] == "Space between <strong>lines</strong>."
    assert card["links"] == [server.url + "terms/leading/"]


def test_card_markup_is_rebuilt_from_an_allow_list(cards_site, browser):
    server, output = cards_site
    # Markup no build makes, as another tool or a theme might write it into the JSON.
    terms_path = output / "terms" / "index.json"
    original = terms_path.read_text(encoding="utf-8")
    data = json.loads(original)
    for term in data["terms"]:
        if term["slug"] == "kerning":
            term["summary_html"] = ('<img src="x" onerror="window.__pwned=1"/><em onclick="window.__pwned=2">safe</em> '
                                    '<a href="javascript:window.__pwned=3">js</a> <a href="../tracking/" title="t">rel</a>'
                                    '<script>window.__pwned=4</script><b>bold</b>')
    try:
        terms_path.write_text(json.dumps(data), encoding="utf-8")
        driver = browser()
        driver.get(server.url)
        card = open_card(driver, "kerning")
        assert card["summary"] == '<em>safe</em> js <a href="%sterms/tracking/">rel</a>bold' % server.url
        assert card["attributes"] == [0, 1]
        assert driver.execute_script("return window.__pwned === undefined")
    finally:
        terms_path.write_text(original, encoding="utf-8")


STATUS = """
var line = document.querySelector("[data-term-card] .term-card-status");
if (!line) return null;
function rgb(text) { return text.match(/[0-9.]+/g).slice(0, 3).map(Number); }
function luminance(c) {
  c = c.map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}
var fg = luminance(rgb(getComputedStyle(line).color));
var bg = luminance(rgb(getComputedStyle(line.closest("[data-term-card]")).backgroundColor));
return {text: line.textContent, status: line.getAttribute("data-term-status"),
        contrast: (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)};
"""


@pytest.mark.parametrize("dark", [False, True])
def test_a_deprecated_term_card_says_so_and_names_the_term_to_use(cards_site, browser, dark):
    server, _ = cards_site
    driver = browser(dark=dark)
    driver.get(server.url)
    open_card(driver, "letterspacing")
    status = driver.execute_script(STATUS)
    assert status["text"] == "Deprecated term — use Kerning"
    assert status["status"] == "deprecated"
    assert status["contrast"] >= 4.5, status
    # A preferred term's card has no status line.
    open_card(driver, "leading")
    assert driver.execute_script(STATUS) is None
