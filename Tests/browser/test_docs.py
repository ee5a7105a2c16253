"""Documentation pages (issue 13): the sidebar of the page's branch, breadcrumbs and previous/next links, heading
links, the table of contents beside or above the text, callouts, pipe tables (term links in cells, column
alignment, a box of their own to scroll on phones), and code blocks coloured by highlight.js with a Copy button,
in light and dark, with nothing loaded from anywhere but the site."""

import re
from pathlib import Path
from urllib.parse import urlparse

import pytest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

import support
from support import wait_for

CI_PAGE = "publishing/continuous-integration/"


def rect(driver, element):
    return driver.execute_script("var r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]", element)


def resources(driver):
    return driver.execute_script("return performance.getEntriesByType('resource').map(function (e) { return e.name; })")


def test_the_sidebar_shows_the_branch_with_the_current_page_marked(browser, example):
    driver = browser()
    driver.get(example.url + CI_PAGE)
    sidebar = driver.find_element(By.CSS_SELECTOR, "nav.sidebar")
    current = sidebar.find_elements(By.CSS_SELECTOR, "a[aria-current=page]")
    assert [a.text for a in current] == ["Publishing from CI"]
    # Its section is open, with the pages in weight order; the other sections are closed.
    open_sections = sidebar.find_elements(By.CSS_SELECTOR, "li.open > a")
    assert [a.text for a in open_sections] == ["Publishing", "Publishing from CI"]
    publishing = sidebar.find_element(By.XPATH, ".//li[@class='open'][a='Publishing']/ul")
    assert [a.text for a in publishing.find_elements(By.CSS_SELECTOR, ":scope > li > a")] == [
        "Static sites", "Deployment", "Accessibility", "Publishing from CI"]
    guide = sidebar.find_element(By.XPATH, ".//li[a='Guide']")
    assert guide.find_elements(By.TAG_NAME, "ul") == []
    crumbs = driver.find_elements(By.CSS_SELECTOR, "nav.breadcrumbs a")
    assert [(a.text, urlparse(a.get_attribute("href")).path) for a in crumbs] == [("Home", "/"), ("Publishing", "/publishing/")]
    previous = driver.find_element(By.CSS_SELECTOR, "nav.pager a[rel=prev]")
    following = driver.find_element(By.CSS_SELECTOR, "nav.pager a[rel=next]")
    assert urlparse(previous.get_attribute("href")).path == "/publishing/accessibility/"
    assert urlparse(following.get_attribute("href")).path == "/reference/"
    following.click()
    wait_for(lambda: urlparse(driver.current_url).path == "/reference/", message="the next page")
    # A folder without an index page has one generated, listing what it holds.
    entries = driver.find_elements(By.CSS_SELECTOR, ".section-entries a")
    assert [a.text for a in entries] == ["Markdown syntax", "Term syntax"]


def test_on_phones_the_sidebar_folds_behind_a_button(browser, example):
    driver = browser(width=375, height=812, mobile=True)
    driver.get(example.url + CI_PAGE)
    toggle = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-sidebar-toggle]"), message="the toggle")
    tree = driver.find_element(By.CSS_SELECTOR, "nav.sidebar > ul")
    assert toggle.get_attribute("aria-expanded") == "false" and not tree.is_displayed()
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true" and tree.is_displayed()
    assert driver.find_element(By.CSS_SELECTOR, "nav.sidebar a[aria-current=page]").is_displayed()
    toggle.click()
    assert not tree.is_displayed()


def test_without_javascript_the_sidebar_is_open_and_the_code_plain(browser, example):
    driver = browser(width=375, height=812, mobile=True)
    driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    driver.get(example.url + CI_PAGE)
    assert driver.find_element(By.CSS_SELECTOR, "nav.sidebar > ul").is_displayed()
    assert driver.find_elements(By.CSS_SELECTOR, "[data-sidebar-toggle], .copy-button, .hljs") == []
    code = driver.find_element(By.CSS_SELECTOR, "pre > code.language-yaml")
    assert "base_url: /docs/" in code.text and code.is_displayed()
    assert driver.find_element(By.CSS_SELECTOR, "nav.toc").is_displayed()


def test_headings_have_ids_and_a_link_shown_on_hover_and_focus(browser, example):
    driver = browser()
    driver.get(example.url + CI_PAGE)
    heading = driver.find_element(By.ID, "the-build-step")
    anchor = heading.find_element(By.CSS_SELECTOR, "a.anchor")
    assert anchor.get_attribute("href").endswith("#the-build-step")
    opacity = lambda: float(driver.execute_script("return getComputedStyle(arguments[0]).opacity", anchor))
    assert opacity() == 0
    ActionChains(driver).move_to_element(heading).perform()
    wait_for(lambda: opacity() == 1, message="the link on hover")
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, ".site-title")).perform()
    wait_for(lambda: opacity() == 0, message="the link hidden again")
    driver.execute_script("arguments[0].focus()", anchor)
    wait_for(lambda: opacity() == 1, message="the link on focus")
    ids = driver.execute_script("return Array.from(document.querySelectorAll('[id]')).map(function (e) { return e.id; })")
    assert len(ids) == len(set(ids)), "ids are unique"
    # The page's title heading (in its header, outside the text) has the same link, named by the heading it is in.
    title = driver.find_element(By.CSS_SELECTOR, ".page-header h1 > a.anchor")
    driver.execute_script("arguments[0].focus()", title)
    assert driver.execute_script("return getComputedStyle(arguments[0], '::before').content", title) == '"#"'
    assert title.size["width"] > 0 and float(driver.execute_script("return getComputedStyle(arguments[0]).opacity", title)) == 1
    assert title.get_attribute("aria-labelledby") == driver.find_element(By.CSS_SELECTOR, ".page-header h1").get_attribute("id")
    assert driver.execute_script("return arguments[0].computedName || ''", title) in ("", driver.find_element(By.CSS_SELECTOR, ".page-header h1").text.rstrip("#"))
    # A finger can't hover: on a touch screen the links stay faintly visible.
    phone = browser(width=375, height=812, mobile=True)
    phone.get(example.url + CI_PAGE)
    faint = phone.find_element(By.CSS_SELECTOR, "#the-build-step > a.anchor")
    assert float(phone.execute_script("return getComputedStyle(arguments[0]).opacity", faint)) == 0.45


def test_the_table_of_contents_is_beside_the_text_when_wide_and_above_it_on_phones(browser, example):
    wide = browser(width=1280, height=900)
    wide.get(example.url + CI_PAGE)
    toc = wide.find_element(By.CSS_SELECTOR, "nav.toc")
    prose = wide.find_element(By.CSS_SELECTOR, ".prose")
    links = toc.find_elements(By.TAG_NAME, "a")
    assert [a.text for a in links][:3] == ["Before you start", "The build step", "Checking links and anchors"]
    for link in links:
        target = link.get_attribute("href").split("#")[1]
        assert wide.find_elements(By.ID, target), target
    assert rect(wide, toc)[0] >= rect(wide, prose)[2], "to the right of the text"
    # It stays in view while the page scrolls.
    wide.execute_script("window.scrollTo(0, document.body.scrollHeight / 2)")
    wait_for(lambda: 0 <= rect(wide, toc)[1] < 100, message="the sticky contents")

    phone = browser(width=375, height=812, mobile=True)
    phone.get(example.url + CI_PAGE)
    toc = phone.find_element(By.CSS_SELECTOR, "nav.toc")
    prose = phone.find_element(By.CSS_SELECTOR, ".prose")
    title = phone.find_element(By.CSS_SELECTOR, "h1")
    assert rect(phone, title)[3] <= rect(phone, toc)[1] and rect(phone, toc)[3] <= rect(phone, prose)[1], "title, contents, text"


def test_a_page_with_toc_false_or_fewer_than_three_headings_has_none(example_dir):
    def read(page):
        return (example_dir / page / "index.html").read_text(encoding="utf-8")
    # Four sections: contents. About has three, but says toc: false. A generated section page has no headings.
    assert '<nav class="toc"' in read("publishing/deployment")
    about = read("about")
    assert len(re.findall(r'aria-labelledby="[^"]*"></a></h2>', about)) == 3 and '<nav class="toc"' not in about
    assert '<nav class="toc"' not in read("publishing")


def test_callouts_are_labelled_notes(browser, example):
    driver = browser()
    driver.get(example.url + CI_PAGE)
    callouts = driver.find_elements(By.CSS_SELECTOR, ".callout")
    assert [(c.get_attribute("role"), c.get_attribute("aria-label"), c.find_element(By.CSS_SELECTOR, ".callout-title").text)
            for c in callouts] == [("note", k, k) for k in ("Note", "Tip", "Important", "Warning", "Caution")]
    # Each kind has its own colour, and none looks like a plain quote.
    colours = {driver.execute_script("return getComputedStyle(arguments[0]).borderLeftColor", c) for c in callouts}
    assert len(colours) == 5
    assert driver.find_elements(By.CSS_SELECTOR, ".prose blockquote") == []


def test_code_is_highlighted_from_the_site_in_both_themes(browser, example):
    driver = browser()
    driver.get(example.url + CI_PAGE)
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "pre > code.hljs")) == 3, message="highlighted blocks")
    # ```sh, ```yaml and ```yaml are coloured; ```text stays plain.
    assert driver.find_elements(By.CSS_SELECTOR, "code.language-text.hljs") == []
    keyword = driver.find_element(By.CSS_SELECTOR, "code.language-yaml .hljs-attr")
    light = driver.execute_script("return getComputedStyle(arguments[0]).color", keyword)
    driver.find_element(By.CSS_SELECTOR, "[data-theme-toggle]").click()
    wait_for(lambda: driver.execute_script("return document.documentElement.dataset.theme") == "dark", message="dark")
    dark = driver.execute_script("return getComputedStyle(arguments[0]).color", keyword)
    assert light != dark
    hosts = {urlparse(url).netloc for url in resources(driver)}
    assert hosts == {urlparse(example.url).netloc}, "nothing from another host"
    assert any(url.endswith("/assets/vendor/highlight.min.js") for url in resources(driver))


def test_pages_without_language_blocks_never_load_highlight_js(browser, example):
    driver = browser()
    driver.get(example.url + "guide/linking/")
    wait_for(lambda: driver.execute_script("return document.readyState") == "complete", message="the page")
    assert not any("highlight" in url for url in resources(driver))


def test_the_copy_button_copies_the_code(browser, example):
    driver = browser()
    driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"],
                                                        "origin": example.url.rstrip("/")})
    driver.get(example.url + CI_PAGE)
    block = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".code-block"), message="a code block")
    button = block.find_element(By.CSS_SELECTOR, "button.copy-button")
    assert button.get_attribute("aria-label") == "Copy code"
    button.click()
    wait_for(lambda: button.text == "Copied", message="the confirmation")
    copied = driver.execute_async_script(
        "var done = arguments[0]; navigator.clipboard.readText().then(done, function (e) { done('error ' + e); })")
    assert copied == "glossary build --offline --strict\n"
    assert block.find_element(By.CSS_SELECTOR, "[role=status]").get_attribute("textContent") == "Copied to the clipboard"


def test_tables_link_their_terms_and_align_their_columns(browser, example):
    driver = browser()
    driver.get(example.url + CI_PAGE)
    tables = driver.find_elements(By.CSS_SELECTOR, ".prose .table-scroll > table")
    assert len(tables) == 2
    terms = tables[0].find_elements(By.CSS_SELECTOR, "td a.term[data-term]")
    assert [a.text for a in terms] == ["Markdown", "glossary"]
    align = lambda cell: driver.execute_script("return getComputedStyle(arguments[0]).textAlign", cell)
    headers = tables[0].find_elements(By.TAG_NAME, "th")
    assert [align(th) for th in headers] == ["left", "left", "center"]
    assert {align(td) for td in tables[1].find_elements(By.TAG_NAME, "td")} == {"right"}
    # A card opens from a term in a cell as from any other.
    driver.execute_script("arguments[0].focus()", terms[0])
    card = lambda: driver.find_element(By.ID, terms[0].get_attribute("aria-controls"))
    wait_for(lambda: card().get_attribute("role") == "dialog" and card().is_displayed(), message="the term card")


@pytest.fixture(scope="module")
def wide_table_site(workdir):
    source = Path(workdir) / "wide-table-source"
    (source / "content").mkdir(parents=True)
    (source / "glossary.yml").write_text("title: Wide\nbase_url: /\n", encoding="utf-8")
    columns = ["`--option-number-%d-long`" % n for n in range(8)]
    table = "| %s |\n|%s\n| %s |\n" % (" | ".join("Column %d" % n for n in range(8)), "---|" * 8, " | ".join(columns))
    (source / "content" / "index.md").write_text("---\ntitle: Options\n---\nEvery option:\n\n" + table, encoding="utf-8")
    server = support.SiteServer(support.build_site(source, Path(workdir) / "wide-table-site", "--offline"))
    yield server
    server.close()


def test_a_wide_table_scrolls_in_its_own_box_on_phones(browser, wide_table_site):
    driver = browser(width=390, height=844, mobile=True)
    driver.get(wide_table_site.url)
    box = driver.find_element(By.CSS_SELECTOR, ".table-scroll")
    width = lambda script: driver.execute_script("return " + script, box)
    assert width("arguments[0].scrollWidth") > width("arguments[0].clientWidth") + 200, "the table is wider than its box"
    assert width("document.documentElement.scrollWidth") <= width("window.innerWidth"), "the page itself doesn't scroll sideways"
    assert width("(arguments[0].scrollLeft = 150, arguments[0].scrollLeft)") == 150
    # The keyboard can scroll it too: the box takes focus.
    driver.execute_script("arguments[0].scrollLeft = 0; arguments[0].focus()", box)
    assert driver.switch_to.active_element == box
