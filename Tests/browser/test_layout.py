"""Layout, polish and the page without JavaScript (issue 4, points 6 and 7): no sideways scrolling from
320 px to wide screens, a readable measure, hover and focus states, print styles without controls,
no third-party requests; without JavaScript the content is readable, the theme follows the system and
term links lead to term pages."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from support import emulate_color_scheme, set_viewport, wait_for


def pages(folder):
    return sorted(str(path.relative_to(folder).parent) + "/" if path.name == "index.html" else str(path.relative_to(folder))
                  for path in folder.rglob("*.html"))


WIDTHS = [320, 375, 768, 1280, 1920]


def test_no_page_scrolls_sideways_and_nothing_leaves_the_site(example, example_dir, browser):
    """Every page, loaded at a phone's width and then widened step by step (a load per page and width took five
    times as long, and the theme lays out on resize as it does on load: CSS, and cards placed again)."""
    driver = browser(width=WIDTHS[0], height=800)
    for path in pages(example_dir):
        path = "" if path == "./" else path
        set_viewport(driver, WIDTHS[0], 800)
        driver.get(example.url + path)
        for width in WIDTHS:
            set_viewport(driver, width, 800)
            overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, "%s overflows by %spx at %dpx" % (path, overflow, width)
        requests = driver.execute_script("return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
        assert all(url.startswith(example.url) for url in requests), (path, requests)


def test_prose_keeps_a_readable_measure(example, browser):
    driver = browser(width=1920, height=1000)
    driver.get(example.url + "typography/fonts/")
    paragraph = driver.find_element(By.CSS_SELECTOR, ".prose p")
    chars_per_line = driver.execute_script("""
      var p = arguments[0], probe = document.createElement("span");
      probe.textContent = "abcdefghijklmnopqrstuvwxyz"; p.appendChild(probe);
      var perChar = probe.getBoundingClientRect().width / 26; probe.remove();
      return p.getBoundingClientRect().width / perChar;""", paragraph)
    assert 45 <= chars_per_line <= 90
    assert float(driver.execute_script("return getComputedStyle(arguments[0]).fontSize", paragraph).rstrip("px")) >= 16


def test_links_and_controls_change_on_hover(example, browser):
    driver = browser()
    driver.get(example.url)
    for selector, prop in ((".site-nav a:not([aria-current])", "color"), ("a.term", "background-color"),
                           ("[data-font-switcher]", "background-color"), (".site-title", "color")):
        element = driver.find_element(By.CSS_SELECTOR, selector)
        before = element.value_of_css_property(prop)
        ActionChains(driver).move_to_element(element).perform()
        wait_for(lambda: element.value_of_css_property(prop) != before, timeout=3, message="hover style on " + selector)
        ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, "footer")).perform()


def test_print_drops_the_controls(example, browser):
    driver = browser(dark=True)
    driver.get(example.url)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print", "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    for selector in ("[data-controls]", ".site-nav", ".skip-link"):
        assert not driver.find_element(By.CSS_SELECTOR, selector).is_displayed(), selector
    assert driver.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    assert driver.find_element(By.CSS_SELECTOR, ".prose").is_displayed()
    driver.get(example.url + "search/")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert not driver.find_element(By.CSS_SELECTOR, "form[data-dictionary-search]").is_displayed()


def without_javascript(driver):
    driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})


@pytest.mark.parametrize("scheme,background", [("light", "rgba(255, 255, 255, 1)"), ("dark", "rgba(18, 18, 20, 1)")])
def test_without_javascript_the_theme_follows_the_system(scheme, background, example, browser):
    driver = browser()
    without_javascript(driver)
    emulate_color_scheme(driver, scheme)
    driver.get(example.url)
    assert driver.execute_script("return document.documentElement.getAttribute('data-theme')") is None
    assert driver.find_element(By.TAG_NAME, "body").value_of_css_property("background-color") == background
    # Controls that would do nothing are not shown.
    assert not driver.find_element(By.CSS_SELECTOR, "[data-theme-toggle]").is_displayed()
    assert not driver.find_element(By.CSS_SELECTOR, "[data-font-switcher]").is_displayed()


def test_without_javascript_content_is_readable_and_term_links_lead_to_term_pages(example, audio_site, browser):
    driver = browser()
    without_javascript(driver)
    driver.get(example.url + "typography/fonts/")
    assert driver.find_element(By.CSS_SELECTOR, "h1").text == "Fonts and typefaces"
    assert driver.find_element(By.CSS_SELECTOR, ".page-terms").is_displayed()
    link = driver.find_element(By.CSS_SELECTOR, 'a.term[data-term="kerning"], a.term[data-term="typeface"]')
    target = link.get_attribute("href")
    link.click()
    wait_for(lambda: driver.current_url == target, message="term link navigation without JavaScript")
    assert driver.find_element(By.CSS_SELECTOR, ".term-word").is_displayed()
    assert driver.find_element(By.CSS_SELECTOR, ".meaning").text

    driver.get(example.url + "search/")
    assert "needs JavaScript" in driver.find_element(By.CSS_SELECTOR, ".noscript-note").text
    driver.get(audio_site.url + "terms/hello/")
    # No dead play buttons: plain links to the recordings instead.
    assert not any(button.is_displayed() for button in driver.find_elements(By.CSS_SELECTOR, "button[data-audio]"))
    assert driver.find_elements(By.CSS_SELECTOR, ".audio-links a")
