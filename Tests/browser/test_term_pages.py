"""Term pages (issue 4, point 4): word and phonetic; a play button per recording (none without audio; a
failed load shows a message); meanings by part of speech with numbered definitions and examples;
synonyms linked when the glossary has them; sources in a new tab with rel=noopener; licence and
attribution for text and audio; "Used on" backlinks."""

import json

from selenium.webdriver.common.by import By

from support import FIXTURES, wait_for


def recordings(word):
    """The distinct audio URLs of a recorded API response (read at test time from shared/fixtures)."""
    entries = json.loads((FIXTURES / (word + ".json")).read_text(encoding="utf-8"))
    urls = []
    for entry in entries:
        for phonetic in entry.get("phonetics", []):
            if phonetic.get("audio") and phonetic["audio"] not in urls:
                urls.append(phonetic["audio"])
    return urls


def play_buttons(driver):
    return driver.find_elements(By.CSS_SELECTOR, "button[data-audio]")


def test_one_play_button_per_recording(audio_site, browser):
    driver = browser()
    for word in ("hello", "banana", "charlie", "hi"):
        driver.get(audio_site.url + "terms/%s/" % word)
        buttons = play_buttons(driver)
        assert [b.get_attribute("data-audio") for b in buttons] == recordings(word), word
        assert all(b.is_displayed() and b.accessible_name.startswith("Play") for b in buttons), word


def test_no_play_button_without_audio(audio_site, example, browser):
    driver = browser()
    for url in (audio_site.url + "terms/aaa/", audio_site.url + "terms/widget/", example.url + "terms/keyboard/"):
        driver.get(url)
        assert play_buttons(driver) == [], url
        assert driver.find_elements(By.CSS_SELECTOR, "[data-audio-list]") == [], url


def test_a_failed_recording_shows_a_message(audio_site, browser):
    # The recordings live on the API's host, which the test browser blocks: the load fails.
    driver = browser()
    driver.get(audio_site.url + "terms/hello/")
    button = play_buttons(driver)[0]
    button.click()
    status = button.find_element(By.XPATH, "following-sibling::*[@data-audio-status]")
    wait_for(lambda: "load" in status.text, message="an error message for the failed recording")
    assert status.is_displayed()
    assert status.get_attribute("role") == "status"
    assert button.get_attribute("aria-describedby") == status.get_attribute("id")
    assert button.is_enabled()  # still a working button: a click tries again


def test_a_working_recording_plays(audio_site, browser):
    driver = browser()
    driver.get(audio_site.url + "terms/hello/")
    button = play_buttons(driver)[0]
    driver.execute_script("arguments[0].setAttribute('data-audio', arguments[1])", button, audio_site.url + "__test__/tone.wav")
    driver.execute_script("""
      window.__events = [];
      var play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function () {
        var media = this;
        ["playing", "ended", "error"].forEach(function (type) {
          media.addEventListener(type, function () { window.__events.push(type); });
        });
        return play.call(this);
      };""")
    button.click()
    wait_for(lambda: "ended" in driver.execute_script("return window.__events"), message="the recording to play to the end")
    assert driver.execute_script("return window.__events") == ["playing", "ended"]
    status = button.find_element(By.XPATH, "following-sibling::*[@data-audio-status]")
    assert status.text == ""


def test_meanings_grouped_by_part_of_speech_with_numbered_definitions(audio_site, browser):
    driver = browser()
    driver.get(audio_site.url + "terms/aaa/")  # the recorded response has two "noun" meanings
    parts = [h.text for h in driver.find_elements(By.CSS_SELECTOR, ".meaning-pos")]
    assert parts.count("noun") == 1
    entries = json.loads((FIXTURES / "aaa.json").read_text(encoding="utf-8"))
    definitions = [d["definition"] for e in entries for m in e["meanings"] if m["partOfSpeech"] == "noun" for d in m["definitions"]]
    noun = driver.find_elements(By.CSS_SELECTOR, ".meaning")[parts.index("noun")]
    items = noun.find_elements(By.CSS_SELECTOR, "ol.definitions > li")
    assert [i.find_element(By.CSS_SELECTOR, ".definition").text for i in items] == definitions
    assert [i.get_attribute("value") for i in items] == [str(n + 1) for n in range(len(items))]

    driver.get(audio_site.url + "terms/hello/")
    assert driver.find_element(By.CSS_SELECTOR, "h1").text == "hello"
    assert driver.find_element(By.CSS_SELECTOR, ".term-header .phonetic").text.startswith("/")
    assert driver.find_elements(By.CSS_SELECTOR, ".definitions .example")


def test_synonyms_link_to_term_pages_when_the_glossary_has_them(audio_site, browser):
    driver = browser()
    driver.get(audio_site.url + "terms/widget/")
    link = driver.find_element(By.CSS_SELECTOR, ".nym-list a")
    assert link.text == "hello" and link.get_attribute("href") == audio_site.url + "terms/hello/"
    driver.get(audio_site.url + "terms/hello/")
    # "greeting" has no page here: plain text, not a link
    words = driver.find_elements(By.CSS_SELECTOR, ".nym-list li")
    assert any(w.text == "greeting" and not w.find_elements(By.TAG_NAME, "a") for w in words)


def test_sources_licences_and_attribution(audio_site, browser):
    driver = browser()
    driver.get(audio_site.url + "terms/hello/")
    footer = driver.find_element(By.CSS_SELECTOR, ".term-source")
    assert "CC BY-SA 3.0" in footer.text
    assert "Free Dictionary API" in footer.text
    assert "BY-SA 4.0" in footer.text and "BY 3.0 US" in footer.text  # each recording's own licence
    external = footer.find_elements(By.CSS_SELECTOR, "a[href^='http']")
    assert external
    for link in external:
        assert link.get_attribute("target") == "_blank"
        assert "noopener" in link.get_attribute("rel").split()
    sources = [a.get_attribute("href") for a in footer.find_elements(By.CSS_SELECTOR, ".source-list a")]
    assert "https://en.wiktionary.org/wiki/hello" in sources

    driver.get(audio_site.url + "terms/widget/")
    assert "Written by this glossary’s team." in driver.find_element(By.CSS_SELECTOR, ".term-source").text


def test_used_on_backlinks(example, browser):
    driver = browser()
    driver.get(example.url + "terms/kerning/")
    links = driver.find_elements(By.CSS_SELECTOR, ".used-on a")
    assert links
    for link in links:
        href = link.get_attribute("href")
        assert href.startswith(example.url) and not href.startswith(example.url + "terms/")
    target = links[0].get_attribute("href")
    links[0].click()
    wait_for(lambda: driver.current_url == target, message="backlink navigation")
    assert driver.find_elements(By.CSS_SELECTOR, 'a.term[data-term="kerning"]')
