"""The dictionary page (issue 4, point 5): blank submit, instant glossary results, the states for no word,
loading, found, not found and network error, live lookup against a local fake API, ?q= in the address
with Back and Forward, Escape to clear, and API text shown safely."""

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support import FIXTURES, center, tap, wait_for

RECORD_STATES = """
window.__states = [];
var results = document.querySelector("[data-dictionary-results]");
new MutationObserver(function () { window.__states.push(results.getAttribute("data-state")); })
  .observe(results, { attributes: true, attributeFilter: ["data-state"] });
"""


def open_dictionary(driver, site, query=""):
    driver.get(site.url + "search/" + query)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "form[data-dictionary-search]").get_attribute("data-ready"),
             message="the dictionary script")
    return driver.find_element(By.CSS_SELECTOR, "input[name=q]")


def state(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]").get_attribute("data-state")


def results_text(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]").text


def search(driver, field, word):
    field.clear()
    field.send_keys(word, Keys.ENTER)


def wait_state(driver, expected):
    return wait_for(lambda: state(driver) == expected, message="state %r (now %r)" % (expected, state(driver)))


def test_no_word_searched_state(example, browser):
    driver = browser()
    open_dictionary(driver, example)
    assert state(driver) == "idle"
    assert "No word searched" in results_text(driver)


def test_blank_submit_says_it_cannot_be_empty(example, browser):
    driver = browser()
    field = open_dictionary(driver, example)
    field.send_keys("   ", Keys.ENTER)
    error = driver.find_element(By.CSS_SELECTOR, "[data-search-error]")
    assert error.text == "Whoops, can’t be empty…"
    assert error.is_displayed()
    assert field.get_attribute("aria-invalid") == "true"
    assert "dictionary-error" in field.get_attribute("aria-describedby")
    assert driver.current_url == example.url + "search/"
    field.send_keys("k")
    assert error.text == "" and field.get_attribute("aria-invalid") is None


def test_instant_results_come_from_the_glossary_index(example, browser):
    driver = browser()
    field = open_dictionary(driver, example)
    field.send_keys("kern")
    instant = driver.find_element(By.CSS_SELECTOR, "[data-instant-results]")
    wait_for(lambda: instant.is_displayed(), message="instant results")
    links = instant.find_elements(By.CSS_SELECTOR, "a")
    assert links[0].find_element(By.CSS_SELECTOR, ".instant-word").text == "Kerning"
    assert links[0].get_attribute("href") == example.url + "terms/kerning/"
    field.send_keys("zzzz")
    wait_for(lambda: not instant.is_displayed(), message="no instant results for a word not in the glossary")


def test_found_a_glossary_term(example, browser):
    driver = browser()
    field = open_dictionary(driver, example)
    driver.execute_script(RECORD_STATES)
    search(driver, field, "Kerning")
    wait_state(driver, "found")
    results = driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]")
    assert results.get_attribute("data-source") == "glossary"
    assert results.find_element(By.CSS_SELECTOR, "h2").text == "Kerning"
    assert results.find_element(By.CSS_SELECTOR, "a[href$='/terms/kerning/']")
    assert driver.current_url == example.url + "search/?q=Kerning"
    assert "loading" not in driver.execute_script("return window.__states")  # no API call for glossary terms
    requests = driver.execute_script("return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
    assert not [url for url in requests if "/api/" in url]


def test_found_through_the_live_lookup_with_a_loading_state(example, api, browser):
    driver = browser()
    field = open_dictionary(driver, example)
    driver.execute_script(RECORD_STATES)
    search(driver, field, "hello")
    wait_state(driver, "found")
    assert driver.execute_script("return window.__states") == ["loading", "found"]
    results = driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]")
    assert results.get_attribute("data-source") == "dictionary"
    assert results.find_element(By.CSS_SELECTOR, "h2").text == "hello"
    entries = json.loads((FIXTURES / "hello.json").read_text(encoding="utf-8"))
    first_definition = entries[0]["meanings"][0]["definitions"][0]["definition"]
    assert first_definition in results.text
    assert [h.text for h in results.find_elements(By.CSS_SELECTOR, ".meaning-pos")] == ["noun", "verb", "interjection"]
    assert results.find_elements(By.CSS_SELECTOR, "button[data-audio]")
    for link in results.find_elements(By.CSS_SELECTOR, ".result-source a"):
        assert link.get_attribute("target") == "_blank" and "noopener" in link.get_attribute("rel")
    # A synonym outside the glossary searches for that word.
    driver.find_element(By.XPATH, "//button[@class='nym-button' and text()='greeting']").click()
    wait_for(lambda: driver.current_url.endswith("?q=greeting"), message="synonym search")
    wait_state(driver, "found")


def test_not_found_shows_the_api_message(example, browser):
    driver = browser()
    field = open_dictionary(driver, example)
    search(driver, field, "not-found")  # the recorded 404 answer
    wait_state(driver, "not-found")
    body = json.loads((FIXTURES / "not-found.json").read_text(encoding="utf-8"))
    text = results_text(driver)
    assert "No Definitions Found" in text
    assert body["message"] in text


def test_network_error_when_the_api_is_unreachable(unreachable_api_site, browser):
    driver = browser()
    field = open_dictionary(driver, unreachable_api_site)
    driver.execute_script(RECORD_STATES)
    search(driver, field, "hello")
    wait_state(driver, "error")
    assert driver.execute_script("return window.__states") == ["loading", "error"]
    assert "Couldn’t reach the dictionary" in results_text(driver)
    retry = driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results] button")
    assert retry.text == "Try again"
    driver.execute_script("arguments[0].dataset.old = 'yes'", retry)
    retry.click()
    wait_state(driver, "error")
    # Focus is not dropped with the old button: it comes to the new "Try again".
    wait_for(lambda: driver.execute_script(
        "var a = document.activeElement; return !a.dataset.old && a.matches('[data-dictionary-results] .state button')"),
        message="focus on the new Try again")
    # Glossary terms need no network.
    search(driver, field, "kerning")
    wait_state(driver, "found")


def test_word_in_the_address_and_back_forward(example, browser):
    driver = browser()
    field = open_dictionary(driver, example, "?q=hello")
    wait_state(driver, "found")
    assert field.get_attribute("value") == "hello"

    search(driver, field, "kerning")
    wait_for(lambda: driver.current_url.endswith("?q=kerning"), message="address to hold the word")
    wait_state(driver, "found")
    search(driver, field, "not-found")
    wait_state(driver, "not-found")

    driver.back()
    wait_for(lambda: driver.current_url.endswith("?q=kerning") and state(driver) == "found", message="Back to kerning")
    assert driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results] h2").text == "Kerning"
    assert driver.find_element(By.CSS_SELECTOR, "input[name=q]").get_attribute("value") == "kerning"
    driver.back()
    wait_for(lambda: driver.current_url.endswith("?q=hello") and state(driver) == "found", message="Back to hello")
    assert driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results] h2").text == "hello"
    driver.forward()
    wait_for(lambda: driver.current_url.endswith("?q=kerning"), message="Forward to kerning")
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results] h2").text == "Kerning",
             message="kerning shown again")


def test_escape_clears_the_search(example, browser):
    driver = browser()
    field = open_dictionary(driver, example, "?q=kerning")
    wait_state(driver, "found")
    field.send_keys(Keys.BACKSPACE, Keys.BACKSPACE, Keys.BACKSPACE)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-instant-results]").is_displayed(), message="instant results")
    field.send_keys(Keys.ESCAPE)
    assert field.get_attribute("value") == ""
    assert state(driver) == "idle"
    assert not driver.find_element(By.CSS_SELECTOR, "[data-instant-results]").is_displayed()
    assert driver.current_url == example.url + "search/"
    assert driver.switch_to.active_element == field


def test_tapping_outside_the_field_closes_the_keyboard(example, browser):
    driver = browser(width=375, height=740, mobile=True)
    field = open_dictionary(driver, example)
    tap(driver, *center(driver, field))
    wait_for(lambda: driver.switch_to.active_element == field, message="tap to focus the field")
    tap(driver, *center(driver, driver.find_element(By.CSS_SELECTOR, ".lead")))
    wait_for(lambda: driver.switch_to.active_element != field, message="tap outside to blur the field")


def test_api_text_is_shown_as_text_and_script_links_are_dropped(example, browser):
    driver = browser()
    field = open_dictionary(driver, example)
    search(driver, field, "markup")
    wait_state(driver, "found")
    results = driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]")
    assert "<img src=x" in results.text and "<script>" in results.text and "<b>/ˈmɑːk.ʌp/</b>" in results.text
    assert results.find_elements(By.CSS_SELECTOR, "img, script, b, i") == []
    assert driver.execute_script("return window.__pwned") is None
    hrefs = [a.get_attribute("href") for a in results.find_elements(By.CSS_SELECTOR, "a")]
    assert hrefs == ["https://example.invalid/markup"]
    assert results.find_elements(By.CSS_SELECTOR, "button[data-audio]") == []


def test_every_glossary_term_is_found_without_the_api(example, example_terms, browser):
    driver = browser()
    field = open_dictionary(driver, example)
    for term in example_terms[:8]:
        search(driver, field, term["word"])
        wait_for(lambda: state(driver) == "found" and
                 driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results] h2").text == term["word"],
                 message=term["word"])
    requests = driver.execute_script("return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
    assert not [url for url in requests if "/api/" in url]
