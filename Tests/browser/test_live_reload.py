"""Live reload in a real browser (issue 5): `glossary serve` on a copy of the example, edits on disk,
headless Chromium watching. Reload after a complete build, stylesheet swap without reload, scroll kept,
the error overlay, reconnecting after a restart."""

import re
from pathlib import Path

import pytest

import support

LONG_PAGE = "---\ntitle: Long page\n---\n# Long page\n\n" + "\n\n".join(
    "Paragraph %d about [[kerning]] and the craft of setting type, long enough to need scrolling." % i for i in range(120)) + "\n"


@pytest.fixture
def site(tmp_path):
    source = support.copy_example(tmp_path / "example")
    (source / "content" / "long.md").write_text(LONG_PAGE, encoding="utf-8")
    return source


@pytest.fixture
def serve(site):
    servers = []

    def start(port=0):
        server = support.Serve(site, port)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def watched(browser, **options):
    """A browser whose pages record their live-reload events (support.LIVE_RELOAD_PROBE)."""
    driver = browser(**options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": support.LIVE_RELOAD_PROBE})
    return driver


def handled(driver, event):
    """Whether the page has received `event` on its live-reload connection and every listener has run."""
    state = support.live_reload_state(driver)
    return bool(state) and event in state["handled"]


def open_page(driver, url):
    driver.get(url)
    support.wait_for(lambda: driver.execute_script("return document.readyState") == "complete", message="page load")
    # Connected once the server's greeting has been handled (it may reload a page from an older build).
    support.wait_for(lambda: handled(driver, "hello"), message="the live-reload greeting")
    driver.execute_script("window.__sameDocument = true")


def same_document(driver):
    return driver.execute_script("return window.__sameDocument === true")


def edit(path, text):
    Path(path).write_text(text, encoding="utf-8")


def test_reloads_after_the_build_and_keeps_the_scroll_position(site, serve, browser):
    server = serve()
    driver = watched(browser, width=1000, height=600)
    open_page(driver, server.url + "long/")
    driver.execute_script("window.scrollTo(0, 1500)")
    support.wait_for(lambda: driver.execute_script("return Math.round(scrollY)") == 1500, message="scrolled")

    edit(site / "content" / "long.md", LONG_PAGE.replace("Paragraph 0 ", "Edited paragraph 0 "))
    support.wait_for(lambda: not same_document(driver), message="reload")
    support.wait_for(lambda: "Edited paragraph 0" in driver.find_element("tag name", "main").text, message="new content")
    support.wait_for(lambda: abs(driver.execute_script("return scrollY") - 1500) < 2, message="scroll restored")


def test_a_change_elsewhere_does_not_reload_the_page(site, serve, browser):
    server = serve()
    driver = watched(browser)
    open_page(driver, server.url + "about/")
    edit(site / "content" / "long.md", LONG_PAGE.replace("Paragraph 1 ", "Changed paragraph 1 "))
    support.wait_for(lambda: server.builds() == 1, message="rebuild")
    support.wait_for(lambda: not same_document(driver) or handled(driver, "build"), message="the build event")
    assert same_document(driver) and not support.live_reload_state(driver)["unloading"], "the page reloaded"


def test_a_stylesheet_change_applies_without_a_reload(site, serve, browser):
    server = serve()
    driver = watched(browser)
    open_page(driver, server.url + "about/")
    css = site / "themes" / "default" / "assets" / "glossary.css"
    css.write_text(css.read_text(encoding="utf-8") + "\nbody { outline: 3px solid rgb(1, 2, 3); }\n", encoding="utf-8")
    support.wait_for(lambda: driver.execute_script("return getComputedStyle(document.body).outlineColor") == "rgb(1, 2, 3)",
                     message="new stylesheet applied")
    assert same_document(driver)
    assert driver.execute_script("return document.querySelectorAll('link[rel~=stylesheet][href*=\"glossary.css\"]').length") == 1


def test_a_failed_build_shows_its_errors_until_the_next_good_build(site, serve, browser):
    server = serve()
    driver = watched(browser)
    open_page(driver, server.url + "about/")
    heading = driver.find_element("tag name", "h1").text
    about = site / "content" / "about.md"
    good = about.read_text(encoding="utf-8")
    edit(about, "---\ntitle: [broken\n---\nBroken.\n")
    overlay = support.wait_for(lambda: driver.find_element("id", "glossary-build-errors"), message="overlay")
    assert re.search(r"content/about\.md:3:1: error: .* \[yaml-syntax\]", overlay.text), overlay.text
    assert same_document(driver) and driver.find_element("tag name", "h1").text == heading

    # A page opened while the build is failed shows the errors at once.
    other = watched(browser)
    open_page(other, server.url)
    support.wait_for(lambda: other.find_element("id", "glossary-build-errors"), message="overlay on load")

    edit(about, good + "\nFixed again.\n")
    support.wait_for(lambda: not driver.find_elements("id", "glossary-build-errors"), message="overlay gone")
    support.wait_for(lambda: "Fixed again." in driver.find_element("tag name", "body").text, message="reloaded page")
    support.wait_for(lambda: not other.find_elements("id", "glossary-build-errors"), message="overlay gone elsewhere")


def test_error_text_is_shown_as_text_never_as_markup(site, serve, browser):
    server = serve()
    driver = watched(browser)
    open_page(driver, server.url + "about/")
    entry = "---\nterm: <img src=x onerror=window.__pwned=1><b>bold</b>\n---\nTwice.\n"
    edit(site / "content" / "glossary" / "zz-one.md", entry)
    edit(site / "content" / "glossary" / "zz-two.md", entry)
    overlay = support.wait_for(lambda: driver.find_element("id", "glossary-build-errors"), message="overlay")
    support.wait_for(lambda: "[duplicate-term]" in overlay.text, message="duplicate-term error")
    assert "<b>bold</b>" in overlay.text
    assert not overlay.find_elements("tag name", "b") and not overlay.find_elements("tag name", "img")
    assert driver.execute_script("return window.__pwned") is None
    (site / "content" / "glossary" / "zz-two.md").unlink()
    support.wait_for(lambda: not driver.find_elements("id", "glossary-build-errors"), message="overlay gone")


def test_reconnects_after_a_restart_and_reloads_the_new_build(site, serve, browser):
    first = serve()
    driver = watched(browser)
    open_page(driver, first.url + "about/")
    first.stop()
    support.wait_for(lambda: "error" in support.live_reload_state(driver)["handled"], message="the connection to drop")
    assert same_document(driver)  # the page stays as it was while there is no server
    serve(port=first.port)
    support.wait_for(lambda: not same_document(driver), timeout=15, message="reload after restart")
    assert driver.execute_script("return document.readyState") == "complete"
