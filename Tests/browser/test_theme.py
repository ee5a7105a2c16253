"""Dark mode (issue 4, point 1): remembered, applied before first paint, followed by other tabs,
following the system until the reader chooses, operable by keyboard with a visible focus ring."""

import re

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support import emulate_color_scheme, wait_for

RECORD_FIRST_PAINT = """
window.__atFirstStylesheet = "not seen";
new MutationObserver(function (records, observer) {
  records.forEach(function (record) {
    record.addedNodes.forEach(function (node) {
      if (node.nodeName === "LINK" && node.rel === "stylesheet" && window.__atFirstStylesheet === "not seen") {
        window.__atFirstStylesheet = String(document.documentElement.getAttribute("data-theme")) + "/" +
          String(document.documentElement.getAttribute("data-font"));
        observer.disconnect();
      }
    });
  });
}).observe(document, { childList: true, subtree: true });
document.addEventListener("DOMContentLoaded", function () {
  window.__atDOMContentLoaded = document.documentElement.getAttribute("data-theme");
});
"""


def theme(driver):
    return driver.execute_script("return document.documentElement.getAttribute('data-theme')")


def background(driver):
    return driver.execute_script("return getComputedStyle(document.body).backgroundColor")


def toggle(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-theme-toggle]")


def test_toggle_switches_to_dark_and_reload_keeps_it(example, browser):
    driver = browser()
    driver.get(example.url)
    assert theme(driver) == "light"
    light_background = background(driver)
    button = toggle(driver)
    assert button.get_attribute("role") == "switch"
    assert button.get_attribute("aria-checked") == "false"
    assert button.accessible_name == "Dark mode"

    button.click()
    assert theme(driver) == "dark"
    assert button.get_attribute("aria-checked") == "true"
    assert background(driver) != light_background

    driver.refresh()
    assert theme(driver) == "dark"
    assert toggle(driver).get_attribute("aria-checked") == "true"
    driver.get(example.url + "terms/")  # every page, not just the one where it was chosen
    assert theme(driver) == "dark"


def test_second_tab_follows_the_choice(example, browser):
    driver = browser()
    driver.get(example.url)
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(example.url + "search/")
    second = driver.current_window_handle
    assert theme(driver) == "light"

    driver.switch_to.window(first)
    toggle(driver).click()
    driver.switch_to.window(second)
    wait_for(lambda: theme(driver) == "dark", message="second tab to turn dark")
    assert toggle(driver).get_attribute("aria-checked") == "true"

    driver.switch_to.window(first)
    toggle(driver).click()
    driver.switch_to.window(second)
    wait_for(lambda: theme(driver) == "light", message="second tab to turn light again")


def test_system_dark_preference_is_applied_before_the_first_stylesheet(example, browser):
    driver = browser(dark=True)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_FIRST_PAINT})
    driver.get(example.url)
    assert driver.execute_script("return window.__atFirstStylesheet") == "dark/sans"
    assert driver.execute_script("return window.__atDOMContentLoaded") == "dark"
    assert toggle(driver).get_attribute("aria-checked") == "true"
    assert driver.execute_script("return getComputedStyle(document.documentElement).colorScheme") == "dark"


def test_stored_choice_is_applied_before_the_first_stylesheet(example, browser):
    driver = browser(dark=True)
    driver.get(example.url)
    toggle(driver).click()  # the reader prefers light despite a dark system
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_FIRST_PAINT})
    driver.get(example.url + "typography/fonts/")
    assert driver.execute_script("return window.__atFirstStylesheet") == "light/sans"


def test_follows_the_system_until_the_reader_chooses(example, browser):
    driver = browser()
    driver.get(example.url)
    assert theme(driver) == "light"
    emulate_color_scheme(driver, "dark")
    wait_for(lambda: theme(driver) == "dark", message="page to follow the system to dark")
    emulate_color_scheme(driver, "light")
    wait_for(lambda: theme(driver) == "light", message="page to follow the system back to light")

    toggle(driver).click()  # chosen: dark
    emulate_color_scheme(driver, "light")
    emulate_color_scheme(driver, "dark")
    emulate_color_scheme(driver, "light")
    assert theme(driver) == "dark"


def test_toggle_works_by_keyboard_with_a_visible_focus_ring(example, browser):
    driver = browser()
    driver.get(example.url)
    driver.execute_script("document.querySelector('[data-font-switcher]').focus()")
    ActionChains(driver).send_keys(Keys.TAB).perform()
    focused = driver.switch_to.active_element
    assert focused.get_attribute("data-theme-toggle") is not None
    outline = driver.execute_script(
        "var s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]")
    assert outline[0] != "none" and float(outline[1].rstrip("px")) >= 2

    focused.send_keys(Keys.SPACE)
    assert theme(driver) == "dark"
    focused.send_keys(Keys.ENTER)
    assert theme(driver) == "light"


def test_blocked_storage_still_switches_for_the_page(example, browser):
    driver = browser(dark=True)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
      Object.defineProperty(window, "localStorage", { get: function () { throw new DOMException("blocked", "SecurityError"); } });
    """})
    driver.get(example.url)
    assert theme(driver) == "dark"  # the system preference, read without storage
    toggle(driver).click()
    assert theme(driver) == "light"
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE" and entry["source"] != "network"]
    assert errors == []


def test_every_page_sets_theme_before_any_stylesheet_and_declares_both_schemes(example_dir):
    pages = sorted(example_dir.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        html = page.read_text(encoding="utf-8")
        head = html[: html.index("</head>")]
        script = head.find("<script>")
        stylesheet = head.find('rel="stylesheet"')
        assert 0 < script < stylesheet, page
        assert 'localStorage.getItem("glossary-theme")' in head[script:stylesheet], page
        assert '<meta name="color-scheme" content="light dark">' in head, page
        assert re.search(r"<[^>]+data-theme-toggle[^>]*>", html), page
