"""Term cards (issue 4, point 3): a card opens on hover, focus and tap; Escape, an outside click or tap,
or focus leaving closes it; a non-modal dialog named by its term, disclosed by the link (aria-expanded,
aria-controls); inside a 320 px viewport; never
traps focus; its data comes from terms/index.json, fetched once."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support import TIMER_PROBE, center, tap, wait_for, wait_for_timers

CARD_STATE = """
var card = document.querySelector("[data-term-card]");
var link = arguments[0];
if (!card) return {exists: false};
var r = card.getBoundingClientRect();
return {exists: true, hidden: card.hidden, visible: !card.hidden && r.width > 0 && r.height > 0,
        role: card.getAttribute("role"), id: card.id, controls: link ? link.getAttribute("aria-controls") : null,
        expanded: link ? link.getAttribute("aria-expanded") : null, label: card.getAttribute("aria-label"),
        modal: card.getAttribute("aria-modal"),
        text: card.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
        width: document.documentElement.clientWidth, height: window.innerHeight,
        href: (card.querySelector("a") || {}).href || null};
"""


def card(driver, link=None):
    return driver.execute_script(CARD_STATE, link)


def is_open(driver, link):
    state = card(driver, link)
    return state["exists"] and state["visible"] and state["controls"] == state["id"] and state["expanded"] == "true"


def is_closed(driver, link):
    state = card(driver, link)
    return (not state["exists"] or not state["visible"]) and state["expanded"] != "true"


def term_link(driver, key):
    return driver.find_element(By.CSS_SELECTOR, 'a.term[data-term="%s"]' % key)


def focus(driver, element):
    driver.execute_script("arguments[0].focus()", element)


def test_focus_opens_a_dialog_card_and_escape_closes_it(example, example_terms, browser):
    driver = browser()
    driver.get(example.url)
    link = term_link(driver, "markdown")
    focus(driver, link)
    wait_for(lambda: is_open(driver, link), message="card to open on focus")
    state = card(driver, link)
    markdown = next(term for term in example_terms if term["slug"] == "markdown")
    assert state["role"] == "dialog" and state["modal"] is None and state["label"] == markdown["word"]
    assert markdown["word"] in state["text"] and markdown["summary"] in state["text"]
    assert markdown["part_of_speech"] in state["text"] and markdown["phonetic"] in state["text"]
    assert state["href"] == example.url + "terms/markdown/"

    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_for(lambda: is_closed(driver, link), message="Escape to close the card")
    assert driver.switch_to.active_element == link  # focus stays where it was


def test_hover_opens_the_card_and_leaving_closes_it(example, browser):
    driver = browser()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TIMER_PROBE})
    driver.get(example.url)
    link = term_link(driver, "static site")
    ActionChains(driver).move_to_element(link).perform()
    wait_for(lambda: is_open(driver, link), message="card to open on hover")
    # The pointer can travel onto the card (to reach its link) without it closing: once every timer the
    # move set has run (a delayed close would be one), the card is still open.
    card_element = driver.find_element(By.CSS_SELECTOR, "[data-term-card]")
    ActionChains(driver).move_to_element(card_element).perform()
    wait_for_timers(driver)
    assert is_open(driver, link)
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, ".site-title")).perform()
    wait_for(lambda: is_closed(driver, link), message="card to close when the pointer leaves")


def test_click_outside_closes_the_card(example, browser):
    driver = browser()
    driver.get(example.url)
    link = term_link(driver, "typeface")
    focus(driver, link)
    wait_for(lambda: is_open(driver, link), message="card to open")
    driver.find_element(By.CSS_SELECTOR, "main h1").click()
    wait_for(lambda: is_closed(driver, link), message="outside click to close the card")


def test_focus_moves_through_the_card_and_out_without_a_trap(example, browser):
    driver = browser()
    driver.get(example.url)
    link = term_link(driver, "markdown")
    focus(driver, link)
    wait_for(lambda: is_open(driver, link), message="card to open")
    ActionChains(driver).send_keys(Keys.TAB).perform()
    inside = driver.switch_to.active_element
    assert inside.get_attribute("class") == "term-card-link"  # the card's own link comes next
    assert is_open(driver, link)
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert driver.switch_to.active_element == link
    assert is_open(driver, link)
    ActionChains(driver).send_keys(Keys.TAB).send_keys(Keys.TAB).perform()
    after = driver.switch_to.active_element
    assert after.get_attribute("data-term") == "static site"  # focus went on to the next term (by key)
    old = driver.execute_script("return arguments[0].getAttribute('aria-expanded')", link)
    assert old == "false"
    assert is_open(driver, after)
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    ActionChains(driver).send_keys(Keys.TAB).perform()
    assert driver.switch_to.active_element.get_attribute("data-term") != "static_site"


def test_cards_stay_inside_a_320px_viewport(example, browser):
    driver = browser(width=320, height=640)
    for path in ("", "typography/fonts/", "guide/linking/"):
        driver.get(example.url + path)
        links = driver.find_elements(By.CSS_SELECTOR, "a.term[data-term]")
        assert links, path
        for link in links:
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
            focus(driver, link)
            wait_for(lambda: is_open(driver, link), message="card for %s" % link.text)
            state = card(driver, link)
            assert state["width"] == 320
            assert 0 <= state["left"] and state["right"] <= 320, (path, link.text, state)
            assert 0 <= state["top"] and state["bottom"] <= state["height"], (path, link.text, state)
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 320


def test_first_tap_opens_the_card_and_a_tap_elsewhere_dismisses_it(example, browser):
    driver = browser(width=375, height=740, mobile=True)
    driver.get(example.url)
    link = term_link(driver, "typeface")
    tap(driver, *center(driver, link))
    wait_for(lambda: is_open(driver, link), message="first tap to open the card")
    assert driver.current_url == example.url  # the first tap did not follow the link

    paragraph = driver.find_element(By.CSS_SELECTOR, ".prose h2")
    tap(driver, *center(driver, paragraph))
    wait_for(lambda: is_closed(driver, link), message="tap elsewhere to dismiss the card")

    tap(driver, *center(driver, link))
    wait_for(lambda: is_open(driver, link), message="tap to reopen")
    tap(driver, *center(driver, link))  # a second tap on an open card's term follows the link
    wait_for(lambda: driver.current_url == example.url + "terms/typeface/", message="second tap to open the term page")


def test_card_data_comes_from_the_terms_json_fetched_once(example, browser):
    driver = browser()
    driver.get(example.url + "typography/fonts/")
    for link in driver.find_elements(By.CSS_SELECTOR, "a.term[data-term]")[:5]:
        focus(driver, link)
        wait_for(lambda: is_open(driver, link), message="card")
    requests = driver.execute_script("return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
    assert requests.count(example.url + "terms/index.json") == 1
    assert all(url.startswith(example.url) for url in requests), requests


def test_unknown_terms_open_no_card(example, browser):
    driver = browser()
    driver.get(example.url + "reference/term-syntax/")
    unknown = driver.find_elements(By.CSS_SELECTOR, ".term-unknown")
    for element in unknown:
        focus(driver, element)
    assert card(driver)["exists"] is False or card(driver)["hidden"]


def test_escape_inside_the_card_closes_it_and_focus_returns_to_the_link(example, browser):
    driver = browser()
    driver.get(example.url)
    link = term_link(driver, "markdown")
    focus(driver, link)
    wait_for(lambda: is_open(driver, link), message="card to open")
    ActionChains(driver).send_keys(Keys.TAB).perform()
    assert driver.switch_to.active_element.get_attribute("class") == "term-card-link"
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_for(lambda: is_closed(driver, link), message="Escape to close the card")
    assert driver.switch_to.active_element == link
    assert is_closed(driver, link), "focus given back does not open the card again"
