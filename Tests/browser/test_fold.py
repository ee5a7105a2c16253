"""The browser folds words into term keys as the build does (TermKey: NFC, case folding as Foundation's
`.caseInsensitive`, typographic apostrophes made plain, white space collapsed and trimmed), so the
dictionary page finds `Straße` typed as `STRASSE`, `Don’t` as `don't`, an NFD `Café` as `CAFÉ`.

The build's own keys are the reference: a reference to a word with no definition renders as
`<span data-term-unknown="KEY">word</span>`, KEY being the Swift TermKey of the word, and terms/index.json
holds every term's key. The theme's `Glossary.foldWord` must give the same key for every such word: every
character with a case mapping in Unicode 14 (Python's database), each white space character, apostrophes
before marks, and the tricky words.

Known differences, not tested: letters added in Unicode 16 (Garay, Kirat Rai, some Latin and Cyrillic ones)
fold in Chromium (its ICU knows their case) but not in Foundation on Linux; and a precomposed Hangul
syllable followed by a trailing consonant jamo (가 + ᆨ) is composed to 각 by the browser's NFC but left
as it is by Foundation's. Either way, a word typed exactly as the glossary spells it is still found: the
page also keys each term by its word folded in the browser.
"""

import sys
import unicodedata

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import support
from support import wait_for

# Team entries, each spelt one way; the tests type and reference them in others.
ENTRIES = {
    "strasse": "Straße",
    "dont": "Don\u2019t",
    "cafe": "Cafe\u0301",  # NFD
    "sofia": "ΣΟΦΊΑ",
    "sofos": "σοφός",
    "istanbul": "İstanbul",
    "ice-cream": "ice   cream",
}

# Other spellings of each entry, as a reader might type them.
SPELLINGS = {
    "Straße": ["Straße", "straße", "STRASSE", "strasse", "STRAẞE", "Strasse"],
    "Don\u2019t": ["Don\u2019t", "don't", "DON'T", "don\u2018t", "DON\u2019T"],
    "Cafe\u0301": ["Café", "café", "CAFÉ", "Cafe\u0301", "CAFE\u0301"],
    "ΣΟΦΊΑ": ["ΣΟΦΊΑ", "σοφία", "Σοφία", "ΣΟΦΙ\u0301Α"],
    "σοφός": ["σοφός", "ΣΟΦΌΣ", "Σοφός", "σοφόσ"],
    "İstanbul": ["İstanbul", "İSTANBUL", "i\u0307stanbul", "I\u0307stanbul"],
    "ice   cream": ["ice cream", "ICE CREAM", "ice\tcream", "  ice   cream  ", "Ice\u00a0\u2003Cream"],
}

TRICKY = [
    "Straße", "STRASSE", "Don\u2019t", "don\u2018t", "Cafe\u0301", "ΣΟΦΊΑ", "σοφία", "ΣΟΦΟΣ", "\u201cİstanbul\u201d",
    "İSTANBUL", "ice   cream", "ice\tcream", "ice \t cream", "ﬁnance", "ŉ", "ǅungla", "µ", "ſ", "ᾼ", "ΐ",
    "\u13a0", "\uab70", "\u0131", "\u1e9e", "\u212b", "\u212a", "\u1c80", "don\u2019\u0301t", "don\u2019\u200dt", "a \u0301b", "x\u3000\u0301y",
    "a\u200bb", "a\ufeffb", "a\u180eb", "\U00010400", "ȺȾ",
]
WHITE_SPACE = ["\t", "\x0b", "\x0c", "\x85", "\xa0", "\u1680", *map(chr, range(0x2000, 0x200B)), "\u2028", "\u2029",
               "\u202f", "\u205f", "\u3000"]


def cased_characters():
    """Every character that has a case mapping in Python's Unicode database (14.0)."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if unicodedata.category(char) in ("Cn", "Cs", "Co"):
            continue
        if char.lower() != char or char.upper() != char or char.casefold() != char:
            yield char


def words_to_fold():
    return TRICKY + ["a%sb" % space for space in WHITE_SPACE] + ["a%sa" % char for char in cased_characters()]


@pytest.fixture(scope="module")
def fold_site(workdir):
    source = workdir / "fold-source"
    (source / "content" / "glossary").mkdir(parents=True)
    (source / "glossary.yml").write_text("title: Folding\nbase_url: /\nlanguage: en\ntheme: default\n"
                                         "dictionary:\n  live_lookup: false\n", encoding="utf-8")
    for name, word in ENTRIES.items():
        (source / "content" / "glossary" / (name + ".md")).write_text(
            '---\nterm: "%s"\n---\nAn entry written by the folding test.\n' % word, encoding="utf-8")
    references = [spelling for spellings in SPELLINGS.values() for spelling in spellings if "\t" not in spelling]
    (source / "content" / "index.md").write_text(
        "# Spellings\n\n" + "\n".join("[[%s]]" % word for word in references) + "\n", encoding="utf-8")
    (source / "content" / "words.md").write_text(
        "# Words\n\n" + "\n".join("[[%s]]" % word for word in words_to_fold()) + "\n", encoding="utf-8")
    server = support.SiteServer(support.build_site(source, workdir / "fold-site", "--offline"))
    yield server
    server.close()


FOLD_PAGE = """
var done = arguments[arguments.length - 1];
var rows = [];
document.querySelectorAll("[data-term-unknown]").forEach(function (span) {
  rows.push([span.textContent, span.getAttribute("data-term-unknown"), Glossary.foldWord(span.textContent)]);
});
// A link names its term by the key the build folded (data-term).
document.querySelectorAll("a.term[data-term]").forEach(function (link) {
  rows.push([link.textContent, link.getAttribute("data-term"), Glossary.foldWord(link.textContent)]);
});
done({ segmenter: !!(window.Intl && Intl.Segmenter), rows: rows });
"""


def folds(driver, url):
    driver.get(url)
    return driver.execute_async_script(FOLD_PAGE)


def disagreements(rows):
    return [{"word": word, "word code points": [hex(ord(c)) for c in word], "swift": swift, "js": js}
            for word, swift, js in rows if swift != js]


@pytest.mark.parametrize("segmenter", [True, False], ids=["Intl.Segmenter", "without Intl.Segmenter"])
def test_the_browser_folds_every_word_as_the_build_does(fold_site, browser, segmenter):
    driver = browser()
    if not segmenter:  # older browsers: white space is split by a regular expression instead
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete Intl.Segmenter;"})
    result = folds(driver, fold_site.url + "words/")
    assert result["segmenter"] == segmenter
    assert len(result["rows"]) == len(words_to_fold()) > 2500  # every word became a reference
    assert disagreements(result["rows"]) == []

    spellings = folds(driver, fold_site.url)["rows"]
    assert len(spellings) == sum(1 for s in SPELLINGS.values() for w in s if "\t" not in w)
    assert all(key is not None for _, key, _ in spellings), "every spelling resolved to its entry"
    assert disagreements(spellings) == []


def search(driver, field, text):
    driver.execute_script("arguments[0].value = arguments[1]", field, text)  # typing a tab would move the focus
    field.send_keys(Keys.ENTER)


def test_the_dictionary_page_finds_each_entry_in_every_spelling(fold_site, browser):
    driver = browser()
    driver.get(fold_site.url + "search/")
    field = driver.find_element(By.CSS_SELECTOR, "input[name=q]")
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "form[data-dictionary-search]").get_attribute("data-ready"), message="ready")
    results = driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]")
    for word, spellings in SPELLINGS.items():
        shown = " ".join(unicodedata.normalize("NFC", word).split())
        for spelling in spellings:
            field.send_keys(Keys.ESCAPE)  # back to no word, so each answer is a new one
            wait_for(lambda: results.get_attribute("data-state") == "idle", message="cleared")
            search(driver, field, spelling)
            wait_for(lambda: results.get_attribute("data-state") in ("found", "not-found"), message="an answer for %r" % spelling)
            assert results.get_attribute("data-state") == "found", "%r did not find %r" % (spelling, word)
            assert unicodedata.normalize("NFC", results.find_element(By.CSS_SELECTOR, "h2").text) == shown, spelling


@pytest.mark.parametrize("typed, word", [("STRASS", "Straße"), ("DON’", "Don’t"), ("ΣΟΦ", "ΣΟΦΊΑ"), ("CAFE\u0301", "Café"),
                                         ("İST", "İstanbul"), ("ICE  CR", "ice cream")])
def test_instant_results_match_prefixes_in_other_spellings(fold_site, browser, typed, word):
    driver = browser()
    driver.get(fold_site.url + "search/")
    field = driver.find_element(By.CSS_SELECTOR, "input[name=q]")
    field.send_keys(typed)
    instant = driver.find_element(By.CSS_SELECTOR, "[data-instant-results]")
    wait_for(lambda: instant.is_displayed(), message="instant results for %r" % typed)
    names = [unicodedata.normalize("NFC", e.text) for e in instant.find_elements(By.CSS_SELECTOR, ".instant-word")]
    assert unicodedata.normalize("NFC", word) in [" ".join(name.split()) for name in names]
