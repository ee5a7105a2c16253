"""Screenshots of the emitted site for a person to look at (not a test):

    GLOSSARY_BIN=.build/debug/glossary .venv/bin/python Tests/browser/shots.py /tmp/shots

Every page kind at 375 px and 1280 px, light and dark, plus each font; the dictionary page in each state.
"""

import sys
import tempfile
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import support


def open_card(driver):
    link = driver.find_elements(By.CSS_SELECTOR, "a.term[data-term]")[1]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    driver.execute_script("arguments[0].focus()", link)
    support.wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-term-card]").is_displayed(), message="card")


def type_into_search(text, enter):
    def action(driver):
        field = driver.find_element(By.CSS_SELECTOR, "input[name=q]")
        field.send_keys(text, *([Keys.ENTER] if enter else []))
        if not text.strip():
            support.wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-search-error]").text, message="the error")
        elif not enter:
            support.wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-instant-results]").is_displayed(),
                             message="instant results")
    return action


def fail_audio(driver):
    button = driver.find_element(By.CSS_SELECTOR, "button[data-audio]")
    button.click()
    support.wait_for(lambda: button.find_element(By.XPATH, "following-sibling::*[@data-audio-status]").text,
                     message="the recording's error")


def settle(driver):
    """Waits for the dictionary's answer, the fonts and every finite animation or transition to end."""
    support.wait_for(lambda: driver.execute_script(
        "var r = document.querySelector('[data-dictionary-results]'); return !r || r.getAttribute('data-state') !== 'loading'"))
    support.wait_for(lambda: driver.execute_script(
        "return document.fonts.status === 'loaded' && document.getAnimations().every(function (a) {"
        "  return a.playState !== 'running' || a.effect.getComputedTiming().endTime === Infinity; })"),
        message="fonts and animations")


def main(out):
    out.mkdir(parents=True, exist_ok=True)
    api = support.FakeAPI()
    work = Path(tempfile.mkdtemp(prefix="glossary-shots-"))
    example = support.SiteServer(support.build_site(support.REPO, work / "example", "--offline", "--api-url", api.template))
    down = support.SiteServer(support.build_site(support.REPO, work / "down", "--offline", "--api-url",
                                                 "http://127.0.0.1:%d/api/v2/entries/{lang}/{word}" % support.closed_port()))
    audio = support.SiteServer(support.build_audio_site(work, api))
    pages = [
        ("home", example, "", None),
        ("page-card", example, "typography/fonts/", open_card),
        ("term-team", example, "terms/kerning/", None),
        ("term-audio", audio, "terms/hello/", None),
        ("term-failed-audio", audio, "terms/hello/", fail_audio),
        ("index", example, "terms/", None),
        ("search-idle", example, "search/", None),
        ("search-blank", example, "search/", type_into_search("", True)),
        ("search-instant", example, "search/", type_into_search("le", False)),
        ("search-glossary", example, "search/?q=kerning", None),
        ("search-api", example, "search/?q=hello", None),
        ("search-notfound", example, "search/?q=not-found", None),
        ("search-error", down, "search/?q=hello", None),
        ("404", example, "404.html", None),
    ]
    try:
        for width, height in ((375, 812), (1280, 1000)):
            for scheme in ("light", "dark"):
                driver = support.chrome(width=width, height=height, mobile=width < 500, dark=scheme == "dark")
                try:
                    for name, site, path, action in pages:
                        driver.get(site.url + path)
                        settle(driver)
                        if action:
                            action(driver)
                        settle(driver)
                        driver.save_screenshot(str(out / ("%s-%d-%s.png" % (name, width, scheme))))
                    for font in ("serif", "mono"):
                        driver.execute_script("localStorage.setItem('glossary-font', arguments[0])", font)
                        for name, site, path, action in pages[:2] + pages[3:4] + pages[10:11]:
                            driver.get(site.url + path)
                            settle(driver)
                            if action:
                                action(driver)
                            driver.save_screenshot(str(out / ("%s-%d-%s-%s.png" % (name, width, scheme, font))))
                    driver.execute_script("localStorage.removeItem('glossary-font')")
                finally:
                    driver.quit()
    finally:
        for server in (example, down, audio):
            server.close()
        api.close()
    print("screenshots in", out)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/shots"))
