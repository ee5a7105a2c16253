"""Exports and structured data (issue 12, points 5 and 6), read by the tools that consume them: glossary.json
against its JSON Schema (docs/glossary.schema.json) with jsonschema, glossary.csv with Python's csv module,
glossary.tbx and sitemap.xml with ElementTree; and the schema.org JSON-LD of the term pages in Chromium,
where it must cause no Content-Security-Policy violation (a JSON-LD block is data: never run, never hashed)."""

import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from selenium.webdriver.common.by import By

import support
from support import csp_violations, wait_for

SCHEMA = json.loads((support.REPO / "docs" / "glossary.schema.json").read_text(encoding="utf-8"))
TBX = "{urn:iso:std:iso:30042:ed:3.0}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"

# A site written by these tests: an address and a subpath, terms and definitions that look like formulas and
# markup, an alias, a page that uses a term by another spelling.
EXPORT_SITE = {
    "glossary.yml": "title: Exports & <tests>\nsite: https://glossary.test\nbase_url: /docs/\nlanguage: en\n",
    "content/index.md": "---\ntitle: Home\ndate: 2024-05-06\n---\nAbout [[Kerning]], [[letter fit]], [[=cmd]] and [[@mention]].\n",
    "content/guide/intro.md": "# Intro\n\nOn [[kerning]] and [[-flag]].\n",
    "content/glossary/kerning.md": "---\nterm: Kerning\naliases: [letter fit]\npart_of_speech: noun\n"
                                   "see_also: [../guide/intro.md]\n---\nThe space between two *letters* & [the intro](../../guide/intro/).\n",
    "content/glossary/cmd.md": "---\nterm: \"=cmd\"\n---\n=HYPERLINK(\"http://evil.example\",\"click\")\n",
    "content/glossary/mention.md": "---\nterm: \"@mention\"\npart_of_speech: verb\n---\n+1 for <b>this</b>.\n",
    "content/glossary/flag.md": "---\nterm: \"-flag\"\n---\n-2+3\n",
}


@pytest.fixture(scope="module")
def exports_dir(workdir):
    source = Path(workdir) / "exports-source"
    for name, text in EXPORT_SITE.items():
        path = source / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return support.build_site(source, Path(workdir) / "exports-site", "--offline")


def load_json(folder):
    return json.loads((folder / "glossary.json").read_text(encoding="utf-8"))


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("site", ["example", "exports"])
def test_glossary_json_matches_its_schema(site, example_dir, exports_dir):
    folder = example_dir if site == "example" else exports_dir
    document = load_json(folder)
    validator = jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(document), key=lambda error: list(error.path))
    assert errors == [], "\n".join("%s: %s" % (list(error.path), error.message) for error in errors)
    assert document["terms"], "the export lists terms"
    assert document["absolute_urls"] is (site == "exports")
    # The schema rejects what it should: a term without its key, a URL that is not one.
    broken = json.loads(json.dumps(document))
    del broken["terms"][0]["key"]
    broken["terms"][-1]["url"] = "terms/x/"
    assert len(list(validator.iter_errors(broken))) == 2


def test_json_lists_every_term_page_with_absolute_urls(exports_dir):
    document = load_json(exports_dir)
    pages = sorted(p.parent.name for p in (exports_dir / "terms").glob("*/index.html"))
    assert sorted(term["slug"] for term in document["terms"]) == pages
    kerning = next(term for term in document["terms"] if term["key"] == "kerning")
    assert kerning["url"] == "https://glossary.test/docs/terms/kerning/"
    assert kerning["aliases"] == ["letter fit"]
    assert kerning["forms"] == ["Kerning", "kerning", "letter fit"]
    assert [page["url"] for page in kerning["pages"]] == ["https://glossary.test/docs/guide/intro/", "https://glossary.test/docs/"]
    assert '<a href="https://glossary.test/docs/guide/intro/">the intro</a>' in kerning["definition"]["html"]
    assert kerning["definition"]["text"] == "The space between two letters & the intro."


def test_csv_reads_back_one_row_per_term_with_no_formula_cells(exports_dir):
    document = load_json(exports_dir)
    raw = (exports_dir / "glossary.csv").read_bytes()
    assert raw.endswith(b"\r\n") and b"\r\n" in raw
    with open(exports_dir / "glossary.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle, strict=True))
    header, body = rows[0], rows[1:]
    assert header[:5] == ["key", "word", "sense", "slug", "url"]
    assert len(body) == len(document["terms"])
    for row in body:
        assert len(row) == len(header)
        for cell in row:
            assert not cell or cell[0] not in "=+-@\t\r", "a cell a spreadsheet would run: %r" % cell
    by_key = {row[0]: dict(zip(header, row)) for row in body}
    # The neutralised cells are the exact values behind an apostrophe.
    for term in document["terms"]:
        row = next(r for r in by_key.values() if r["slug"] == term["slug"])
        for column in ("word", "summary"):
            value = term[column] or ""
            assert row[column] == ("'" + value if value[:1] in ("=", "+", "-", "@") else value)
    assert by_key["'=cmd"]["definition"] == "'=HYPERLINK(\"http://evil.example\",\"click\")"
    assert by_key["'@mention"]["definition"] == "'+1 for this."
    assert by_key["'-flag"]["summary"] == "'-2+3"


def test_tbx_is_well_formed_tbx_basic(exports_dir):
    root = ET.parse(exports_dir / "glossary.tbx").getroot()
    assert root.tag == TBX + "tbx"
    assert root.get("type") == "TBX-Basic" and root.get("style") == "dca"
    assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == "en"
    assert [child.tag for child in root] == [TBX + "tbxHeader", TBX + "text"]
    assert root.find(TBX + "tbxHeader/" + TBX + "fileDesc/" + TBX + "sourceDesc/" + TBX + "p") is not None
    entries = root.findall(TBX + "text/" + TBX + "body/" + TBX + "conceptEntry")
    assert len(entries) == len(load_json(exports_dir)["terms"])
    ids = [entry.get("id") for entry in entries]
    assert len(set(ids)) == len(ids) and all(i[0].isalpha() for i in ids)
    names = {}
    for entry in entries:
        lang_sections = entry.findall(TBX + "langSec")
        assert len(lang_sections) == 1 and lang_sections[0].get("{http://www.w3.org/XML/1998/namespace}lang") == "en"
        for xref in entry.findall(TBX + "xref"):
            assert xref.get("type") == "externalCrossReference" and xref.get("target").startswith("https://glossary.test/docs/terms/")
        children = [child.tag for child in lang_sections[0]]
        first_term = children.index(TBX + "termSec")
        assert all(tag == TBX + "termSec" for tag in children[first_term:])
        assert all(tag == TBX + "descripGrp" for tag in children[:first_term])
        for group in lang_sections[0].findall(TBX + "descripGrp"):
            assert group[0].tag == TBX + "descrip" and group[0].get("type") == "definition"
        for section in lang_sections[0].findall(TBX + "termSec"):
            assert section[0].tag == TBX + "term" and section[0].text
            for note in section.findall(TBX + "termNote"):
                allowed = {"partOfSpeech": {"noun", "verb", "adjective", "adverb", "other"},
                           "administrativeStatus": {"preferredTerm-admn-sts", "admittedTerm-admn-sts"},
                           "termType": {"variant"}}
                assert note.text in allowed[note.get("type")]
        names[entry.get("id")] = [section.find(TBX + "term").text for section in lang_sections[0].findall(TBX + "termSec")]
    assert names["term-kerning"] == ["Kerning", "letter fit"]


def test_sitemap_lists_every_page_and_term_page_absolute_under_the_subpath(exports_dir):
    root = ET.parse(exports_dir / "sitemap.xml").getroot()
    assert root.tag == SITEMAP + "urlset"
    locations = [url.find(SITEMAP + "loc").text for url in root]
    assert all(location.startswith("https://glossary.test/docs/") for location in locations)
    published = sorted("https://glossary.test/docs/" + page_url(exports_dir, page)
                       for page in exports_dir.rglob("index.html") if page_url(exports_dir, page) != "search/")
    assert sorted(locations) == published
    lastmod = {url.find(SITEMAP + "loc").text: url.findtext(SITEMAP + "lastmod") for url in root}
    assert lastmod["https://glossary.test/docs/"] == "2024-05-06"
    assert (exports_dir / "robots.txt").read_text(encoding="utf-8").endswith("Sitemap: https://glossary.test/docs/sitemap.xml\n")


def page_url(folder, page):
    """The URL path below the site's root of a built page (`guide/intro/` for guide/intro/index.html)."""
    relative = page.parent.relative_to(folder).as_posix()
    return "" if relative == "." else relative + "/"


def json_ld(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('script[type=\"application/ld+json\"]')).map(function (s) { return JSON.parse(s.textContent); })")


def test_json_ld_causes_no_csp_violation_and_is_read_by_the_browser(example, example_terms, browser):
    driver = browser()
    driver.get(example.url + "terms/")
    wait_for(lambda: driver.execute_script("return document.readyState") == "complete", message="the index")
    [term_set] = json_ld(driver)
    assert term_set["@type"] == "DefinedTermSet" and term_set["@context"] == "https://schema.org"
    assert [term["termCode"] for term in term_set["hasDefinedTerm"]] == [term["slug"] for term in example_terms]
    assert csp_violations(driver) == []

    slug = example_terms[0]["slug"]
    driver.get(example.url + "terms/%s/" % slug)
    wait_for(lambda: driver.execute_script("return document.readyState") == "complete", message="the term page")
    [term] = json_ld(driver)
    assert term["@type"] == "DefinedTerm"
    for key in ("name", "description", "url", "termCode", "inDefinedTermSet"):
        assert key in term, key
    assert term["termCode"] == slug and term["inDefinedTermSet"]["@type"] == "DefinedTermSet"
    # The policy is enforced on this page (its inline no-flash script ran by its hash), and the block was not run.
    assert driver.execute_script("return document.documentElement.getAttribute('data-theme')") in ("light", "dark")
    assert csp_violations(driver) == []
    # Control: the listener does see what the policy refuses (an inline script added without a hash).
    driver.execute_script("var s = document.createElement('script'); s.textContent = 'window.__ran = true'; document.head.appendChild(s)")
    wait_for(lambda: csp_violations(driver), message="the refused script to be reported")
    assert driver.execute_script("return window.__ran === undefined")
    assert [v["directive"] for v in csp_violations(driver)] == ["script-src-elem"]
    support.logged_csp_violations(driver)  # drained: the one violation above was the test's own


def test_canonical_and_open_graph_tags_on_every_page(example_dir):
    for page in example_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        head = text[: text.index("</head>")]
        assert '<html lang="en">' in text, page
        assert '<meta property="og:title" content="' in head and '<meta property="og:type" content="' in head, page
        if page.name == "404.html":
            assert 'rel="canonical"' not in head, page
        else:
            url = "/" + page_url(example_dir, page)
            assert '<link rel="canonical" href="%s">' % url in head, page
            assert '<meta property="og:url" content="%s">' % url in head, page
