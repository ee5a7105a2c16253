"""Content-Security-Policy: every emitted page carries one as <meta http-equiv>, and no page kind, in any
state, breaks it, whether served over HTTP, opened from disk or served by `glossary serve` with live
reload. Its one inline script is allowed by a hash the build computes from the script as rendered, so a
theme's own head-script runs too; whatever else would run or load is refused."""

import base64
import hashlib
import html
import re

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import support
from support import csp_violations, wait_for

META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def policy_of(page_html):
    match = META.search(page_html)
    assert match, "no Content-Security-Policy meta"
    return html.unescape(match.group(1))


def inline_scripts(page_html):
    return re.findall(r"<script>(.*?)</script>", page_html, re.S)


def sha256_source(script):
    return "'sha256-%s'" % base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()


def directives(policy):
    return {part.split()[0]: part.split()[1:] for part in policy.split("; ")}


def test_every_page_has_the_policy_with_the_hash_of_its_inline_script(example_dir, api):
    pages = sorted(example_dir.rglob("*.html"))
    assert len(pages) > 60
    for page in pages:
        text = page.read_text(encoding="utf-8")
        head = text[: text.index("</head>")]
        policy = policy_of(head)
        # Before anything it governs: only <meta charset> comes first.
        assert head.index("Content-Security-Policy") < head.index("<script"), page
        scripts = inline_scripts(text)
        assert len(scripts) == 1, page
        assert directives(policy) == {
            "default-src": ["'none'"],
            "script-src": ["'self'", sha256_source(scripts[0])],
            "style-src": ["'self'"],
            "img-src": ["'self'", "https:", "data:"],
            "media-src": ["'self'", "https:"],
            "connect-src": ["'self'", "http://127.0.0.1:%d" % api.port],  # the API's origin: live lookup is on
            "font-src": ["'self'"],
            "form-action": ["'self'"],
            "base-uri": ["'self'"],
            "object-src": ["'none'"],
        }, page
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", text, re.I), "inline event handler in %s" % page
        assert not re.search(r"<[^>]+\sstyle\s*=", text, re.I), "style attribute in %s" % page


def open_card(driver):
    link = driver.find_element(By.CSS_SELECTOR, "a.term[data-term]")
    driver.execute_script("arguments[0].focus()", link)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-term-card]").is_displayed(), message="card")


def hover_card(driver):
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, "a.term[data-term]")).perform()
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-term-card]").is_displayed(), message="card")


def switch_theme_and_font(driver):
    driver.find_element(By.CSS_SELECTOR, "[data-theme-toggle]").click()
    driver.execute_script("var s = document.querySelector('[data-font-switcher]'); s.value = 'mono';"
                          "s.dispatchEvent(new Event('change'))")
    assert driver.execute_script("return document.documentElement.getAttribute('data-font')") == "mono"


def state(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]").get_attribute("data-state")


def blank_search(driver):
    driver.find_element(By.CSS_SELECTOR, "input[name=q]").send_keys(Keys.ENTER)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-search-error]").text, message="the error")


def instant_results(driver):
    driver.find_element(By.CSS_SELECTOR, "input[name=q]").send_keys("kern")
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-instant-results]").is_displayed(), message="instant results")


def play_recordings(driver):
    for button in driver.find_elements(By.CSS_SELECTOR, "button[data-audio]"):
        button.click()
        wait_for(lambda: button.find_element(By.XPATH, "following-sibling::*[@data-audio-status]").text,
                 message="the recording to fail (its host is blocked)")


def play_a_recording_of_the_site(driver):
    button = driver.find_element(By.CSS_SELECTOR, "button[data-audio]")
    driver.execute_script("arguments[0].setAttribute('data-audio', location.origin + '/__test__/tone.wav')", button)
    button.click()
    wait_for(lambda: button.get_attribute("aria-pressed") == "true", message="the recording to play")


def search_a_synonym(driver):
    driver.find_element(By.XPATH, "//button[@class='nym-button' and text()='greeting']").click()
    wait_for(lambda: driver.current_url.endswith("?q=greeting") and state(driver) == "found", message="the synonym")


PAGES = [
    ("example", "", None),
    ("example", "", open_card),
    ("example", "", hover_card),
    ("example", "", switch_theme_and_font),
    ("example", "typography/fonts/", open_card),
    ("example", "terms/", None),
    ("example", "terms/kerning/", None),
    ("example", "search/", None),
    ("example", "search/", blank_search),
    ("example", "search/", instant_results),
    ("example", "search/?q=kerning", None),
    ("example", "search/?q=hello", play_recordings),
    ("example", "search/?q=hello", search_a_synonym),
    ("example", "search/?q=not-found", None),
    ("example", "search/?q=markup", None),
    ("unreachable", "search/?q=hello", None),
    ("example", "404.html", None),
    ("audio", "terms/hello/", play_recordings),
    ("audio", "terms/hello/", play_a_recording_of_the_site),
    ("audio", "terms/widget/", None),
]


def test_no_page_kind_in_any_state_breaks_the_policy(example, unreachable_api_site, audio_site, browser):
    sites = {"example": example, "unreachable": unreachable_api_site, "audio": audio_site}
    driver = browser()
    found = {}
    for site, path, action in PAGES:
        driver.get(sites[site].url + path)
        wait_for(lambda: driver.execute_script("return document.readyState") == "complete", message="load")
        assert driver.execute_script("return !!window.Glossary"), path  # the theme's scripts ran
        if "?q=" in path:
            wait_for(lambda: state(driver) not in ("idle", "loading"), message="a result for " + path)
        if action:
            action(driver)
        violations = csp_violations(driver)
        if violations:
            found["%s:%s %s" % (site, path, action.__name__ if action else "")] = violations
    assert found == {}
    assert support.logged_csp_violations(driver) == []


def test_the_policy_refuses_what_it_should(example, browser):
    """The listener sees violations, and the policy stops inline code, style attributes, other hosts."""
    driver = browser()
    driver.get(example.url)
    driver.execute_script("""
      var script = document.createElement("script");
      script.textContent = "window.__injected = true";
      document.head.appendChild(script);
      document.body.insertAdjacentHTML("beforeend", '<img src="data:," onload="window.__handler = true">');
      document.querySelector("main").setAttribute("style", "outline: 5px solid red");
      fetch("https://example.invalid/").catch(function () {});
      var link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = "http://127.0.0.1:9/other.css";
      document.head.appendChild(link);""")
    wait_for(lambda: len(csp_violations(driver)) >= 5, message="five violations")
    assert sorted(v["directive"] for v in csp_violations(driver)) == [
        "connect-src", "script-src-attr", "script-src-elem", "style-src-attr", "style-src-elem"]
    assert driver.execute_script("return [window.__injected, window.__handler]") == [None, None]
    assert driver.execute_script("return getComputedStyle(document.querySelector('main')).outlineStyle") == "none"
    assert len(support.logged_csp_violations(driver)) >= 5  # and the console has them (the fixture's check)


def test_a_themes_own_head_script_gets_its_own_hash(workdir, browser):
    source = support.copy_example(workdir / "own-head-script")
    head_script = source / "themes" / "default" / "templates" / "head-script.mustache"
    # Windows line endings and a site value: the hash is of the text as the browser reads it, once rendered.
    text = head_script.read_text(encoding="utf-8").replace(
        "})(document.documentElement);", "  window.__ownHeadScript = \"{{site.language}}\";\n})(document.documentElement);")
    head_script.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    output = support.build_site(source, workdir / "own-head-script-site", "--offline")
    page = (output / "index.html").read_bytes().decode("utf-8")  # as written: read_text would turn CRLF into LF
    assert "\r\n" in inline_scripts(page)[0]
    assert sha256_source(inline_scripts(page)[0].replace("\r\n", "\n")) in policy_of(page)
    server = support.SiteServer(output)
    try:
        driver = browser()
        driver.get(server.url)
        assert driver.execute_script("return window.__ownHeadScript") == "en"
        assert csp_violations(driver) == []
    finally:
        server.close()


def test_without_live_lookup_pages_connect_only_to_the_site(workdir, api, browser):
    source = support.copy_example(workdir / "no-live-lookup")
    config = source / "glossary.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("live_lookup: true", "live_lookup: false"), encoding="utf-8")
    assert "live_lookup: false" in config.read_text(encoding="utf-8")
    output = support.build_site(source, workdir / "no-live-lookup-site", "--offline", "--api-url", api.template)
    assert directives(policy_of((output / "search" / "index.html").read_text(encoding="utf-8")))["connect-src"] == ["'self'"]
    server = support.SiteServer(output)
    try:
        driver = browser()
        driver.get(server.url + "search/?q=hello")
        wait_for(lambda: state(driver) == "not-found", message="not found without the API")
        assert csp_violations(driver) == []
        driver.execute_script("fetch(arguments[0]).catch(function () {})", api.template.replace("{lang}", "en").replace("{word}", "hello"))
        wait_for(lambda: [v["directive"] for v in csp_violations(driver)] == ["connect-src"], message="the API refused")
        driver.get_log("browser")  # that violation was this test's own
    finally:
        server.close()


def test_pages_opened_from_disk_run_their_scripts_within_the_policy(workdir, browser):
    # Links are site-absolute, so a site to open from disk is built with its folder as the base URL.
    folder = workdir / "from-disk"
    support.build_site(support.REPO, folder, "--offline", "--base-url", str(folder) + "/")
    driver = browser()
    driver.get((folder / "index.html").as_uri())
    driver.find_element(By.CSS_SELECTOR, "[data-theme-toggle]").click()
    assert driver.execute_script("return document.documentElement.getAttribute('data-theme')") == "dark"
    open_card(driver)  # the card says what it can without terms/index.json (file:// forbids reading it)
    assert csp_violations(driver) == []
    driver.get((folder / "search" / "index.html").as_uri())
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "form[data-dictionary-search]").get_attribute("data-ready"),
             message="the dictionary script")
    assert csp_violations(driver) == []
    assert support.logged_csp_violations(driver) == []


@pytest.fixture
def served_site(tmp_path):
    return support.copy_example(tmp_path / "served")


def test_pages_served_with_live_reload_keep_the_policy(served_site, browser):
    server = support.Serve(served_site)
    try:
        driver = browser()
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": support.LIVE_RELOAD_PROBE})
        for path in ("", "about/", "terms/kerning/", "search/?q=kerning", "no/such/page/"):
            driver.get(server.url + path)
            wait_for(lambda: "hello" in (support.live_reload_state(driver) or {"handled": []})["handled"], message="connected")
            assert csp_violations(driver) == [], path
        # The error overlay of a failed build, styled through CSSOM.
        about = served_site / "content" / "about.md"
        good = about.read_text(encoding="utf-8")
        driver.get(server.url + "about/")
        wait_for(lambda: "hello" in support.live_reload_state(driver)["handled"], message="connected")
        about.write_text("---\ntitle: [broken\n---\n", encoding="utf-8")
        overlay = wait_for(lambda: driver.find_element(By.ID, "glossary-build-errors"), message="the overlay")
        assert driver.execute_script("return getComputedStyle(arguments[0]).position", overlay) == "fixed"
        assert csp_violations(driver) == []
        about.write_text(good, encoding="utf-8")
        wait_for(lambda: not driver.find_elements(By.ID, "glossary-build-errors"), message="the overlay gone")
        assert csp_violations(driver) == []
    finally:
        server.stop()


def test_the_page_served_before_any_good_build_keeps_a_policy(served_site, browser):
    (served_site / "content" / "about.md").write_text("---\ntitle: [broken\n---\n", encoding="utf-8")
    server = support.Serve(served_site)
    try:
        driver = browser()
        driver.get(server.url)
        overlay = wait_for(lambda: driver.find_element(By.ID, "glossary-build-errors"), message="the overlay")
        assert "[yaml-syntax]" in overlay.text
        assert driver.execute_script("return getComputedStyle(arguments[0]).position", overlay) == "fixed"
        assert driver.find_elements(By.CSS_SELECTOR, 'meta[http-equiv="Content-Security-Policy"]')
        assert csp_violations(driver) == []
    finally:
        server.stop()
