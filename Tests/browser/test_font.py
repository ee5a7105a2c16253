"""Font switcher (issue 4, point 2): Sans Serif, Serif and Mono from system stacks, kept between visits,
applied before first paint, operable by keyboard, followed by other tabs."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from support import wait_for

FIRST_STYLESHEET_FONT = """
new MutationObserver(function (records, observer) {
  records.forEach(function (record) {
    record.addedNodes.forEach(function (node) {
      if (node.nodeName === "LINK" && node.rel === "stylesheet" && !window.__font) {
        window.__font = document.documentElement.getAttribute("data-font");
        observer.disconnect();
      }
    });
  });
}).observe(document, { childList: true, subtree: true });
"""


def body_font(driver):
    return driver.execute_script("return getComputedStyle(document.body).fontFamily")


def switcher(driver):
    return Select(driver.find_element(By.CSS_SELECTOR, "[data-font-switcher]"))


def test_switcher_offers_the_three_families(example, browser):
    driver = browser()
    driver.get(example.url)
    options = [(o.get_attribute("value"), o.text) for o in switcher(driver).options]
    assert options == [("sans", "Sans Serif"), ("serif", "Serif"), ("mono", "Mono")]
    assert driver.find_element(By.CSS_SELECTOR, "[data-font-switcher]").accessible_name == "Font"


def test_each_font_changes_the_body_font_and_survives_reload(example, browser):
    driver = browser()
    driver.get(example.url + "typography/fonts/")
    seen = {}
    for value, generic in (("serif", "serif"), ("mono", "monospace"), ("sans", "sans-serif")):
        switcher(driver).select_by_value(value)
        assert driver.execute_script("return document.documentElement.getAttribute('data-font')") == value
        family = body_font(driver)
        assert family.rstrip().endswith(generic), family
        seen[value] = family
        driver.refresh()
        assert body_font(driver) == family
        assert switcher(driver).first_selected_option.get_attribute("value") == value
    assert len(set(seen.values())) == 3
    # No font files: the stacks name only fonts already on the reader's machine.
    assert driver.execute_script("return document.fonts.size") == 0


def test_stored_font_is_applied_before_the_first_stylesheet(example, browser):
    driver = browser()
    driver.get(example.url)
    switcher(driver).select_by_value("serif")
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_STYLESHEET_FONT})
    driver.get(example.url + "terms/")
    assert driver.execute_script("return window.__font") == "serif"


def test_font_switcher_works_by_keyboard(example, browser):
    driver = browser()
    driver.get(example.url)
    select = driver.find_element(By.CSS_SELECTOR, "[data-font-switcher]")
    driver.execute_script("arguments[0].focus()", select)
    select.send_keys(Keys.ARROW_DOWN)
    wait_for(lambda: driver.execute_script("return document.documentElement.getAttribute('data-font')") == "serif",
             message="arrow key to choose Serif")


def test_other_tabs_follow_the_font(example, browser):
    driver = browser()
    driver.get(example.url)
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(example.url + "terms/")
    second = driver.current_window_handle
    driver.switch_to.window(first)
    switcher(driver).select_by_value("mono")
    driver.switch_to.window(second)
    wait_for(lambda: driver.execute_script("return document.documentElement.getAttribute('data-font')") == "mono",
             message="second tab to switch to Mono")
    assert switcher(driver).first_selected_option.get_attribute("value") == "mono"
