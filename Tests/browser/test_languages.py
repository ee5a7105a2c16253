"""A site in three languages (issue 36): the header's switcher leads to the same page in another language, or to
that language's home; each page says its language; the site search box speaks the page's language; a card on a
French page shows its concept's English term with cards: {show_source_term: true}."""

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

import support
from support import wait_for

SITE = {
    "glossary.yml": "title: Type\nbase_url: /\nlanguages: [en, fr, de]\ncards: {show_source_term: true}\n",
    "content/index.md": "---\ntitle: Home\n---\nWelcome.\n",
    "content/guide/intro.md": "---\ntitle: Intro\n---\nAbout type.\n",
    "content/guide/only-english.md": "---\ntitle: Only English\n---\nNot translated.\n",
    "content/fr/index.md": "---\ntitle: Accueil\n---\nBienvenue sur le [[serveur]].\n",
    "content/glossary/server.md": "---\nterm: server\nconcept: srv\n---\nA computer that serves.\n",
    "content/fr/glossary/serveur.md": "---\nterm: serveur\nconcept: srv\n---\nUn ordinateur qui sert.\n",
    "content/fr/guide/introduction.md": "---\ntitle: Introduction\ntranslation_of: guide/intro.md\n---\nÀ propos de la typographie.\n",
    "content/de/index.md": "---\ntitle: Startseite\n---\nWillkommen.\n",
    "content/de/guide/intro.md": "---\ntitle: Einführung\n---\nÜber Typografie.\n",
}


@pytest.fixture(scope="module")
def languages_site(workdir):
    source = Path(workdir) / "languages-source"
    for path, text in SITE.items():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_text(text, encoding="utf-8")
    server = support.SiteServer(support.build_site(source, Path(workdir) / "languages-site", "--offline"))
    yield server
    server.close()


def switch_to(driver, language):
    driver.find_element(By.CSS_SELECTOR, ".language-switcher a[hreflang='%s']" % language).click()
    wait_for(lambda: driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language, message="the page in " + language)


def test_the_switcher_leads_to_the_same_page_in_each_language_or_its_home(browser, languages_site):
    driver = browser()
    driver.get(languages_site.url + "guide/intro/")
    switch_to(driver, "fr")
    assert driver.current_url == languages_site.url + "fr/guide/introduction/"
    assert driver.find_element(By.CSS_SELECTOR, ".language-switcher [aria-current]").text == "Français"
    switch_to(driver, "de")
    assert driver.current_url == languages_site.url + "de/guide/intro/"
    driver.get(languages_site.url + "guide/only-english/")
    switch_to(driver, "de")
    assert driver.current_url == languages_site.url + "de/"


def test_the_search_box_speaks_the_page_language(browser, languages_site):
    driver = browser()
    driver.get(languages_site.url + "fr/")
    field = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".site-search-input"), message="the search box")
    assert field.get_attribute("aria-label") == "Rechercher dans le site"
    assert field.get_attribute("placeholder") == "Rechercher"
    field.send_keys("zzzq")
    status = driver.find_element(By.CSS_SELECTOR, ".site-search-status")
    wait_for(lambda: status.text.startswith("Aucun"), message="the French status")
    assert status.text == "Aucun résultat pour « zzzq »"
    field.clear()
    field.send_keys("typographie")
    wait_for(lambda: "résultat" in status.text and "Aucun" not in status.text, message="results")
    titles = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".site-search-title")]
    assert titles == ["Introduction"]


def test_a_card_in_another_language_shows_the_concept_source_term(browser, languages_site):
    driver = browser()
    driver.get(languages_site.url + "fr/")
    link = driver.find_element(By.CSS_SELECTOR, 'a.term[data-term="serveur"]')
    assert link.get_attribute("href") == languages_site.url + "fr/terms/serveur/"
    driver.execute_script("arguments[0].focus()", link)
    card = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-term-card]:not([hidden])"), message="the card")
    word = card.find_element(By.CSS_SELECTOR, ".term-card-word")
    wait_for(lambda: word.text != "", message="the card's word")
    source = word.find_element(By.CSS_SELECTOR, ".term-card-source")
    assert (source.text, source.get_attribute("lang")) == ("server", "en")
    assert "Un ordinateur qui sert." in card.text
