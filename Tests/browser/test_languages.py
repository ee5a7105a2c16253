"""A site in three languages (issue 36): the header's switcher leads to the same page in another language, or to
that language's home; each page says its language; the site search box speaks the page's language and searches
its pages only, accents folded; a French site's dictionary page says what it didn't find in French; a card on a
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
    "content/guide/coffee.md": "---\ntitle: Coffee\n---\nA café on the corner.\n",
    "content/fr/guide/cafe.md": "---\ntitle: Le café\n---\nUn CAFÉ crème.\n",
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


def search_titles(driver, page, query):
    """The titles the site search box of `page` lists for `query`."""
    driver.get(page)
    field = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".site-search-input"), message="the search box")
    field.send_keys(query)
    status = driver.find_element(By.CSS_SELECTOR, ".site-search-status")
    # Done searching: the status counts the results, or names the query none matched.
    wait_for(lambda: query in status.text or any(c.isdigit() for c in status.text), message="results for %r" % query)
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".site-search-title")]


def test_a_page_searches_its_language_only_with_accents_folded(browser, languages_site):
    driver = browser()
    # "cafe" finds the French page about "café" (and "CAFÉ"), not the English one, which says "café" too.
    assert search_titles(driver, languages_site.url + "fr/guide/introduction/", "cafe") == ["Le café"]
    assert search_titles(driver, languages_site.url + "fr/", "Café") == ["Le café"]
    assert search_titles(driver, languages_site.url + "guide/intro/", "cafe") == ["Coffee"]
    assert search_titles(driver, languages_site.url + "de/", "cafe") == []
    loaded = driver.execute_script("return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
    assert any(url.endswith("/de/search/index.json") for url in loaded), loaded
    assert not any(url.endswith("/search/index.json") and "/de/" not in url for url in loaded), loaded


def test_a_french_dictionary_page_says_not_found_in_french(browser, workdir):
    source = Path(workdir) / "french-source"
    files = {
        "glossary.yml": "title: Typo\nbase_url: /\nlanguage: fr\ndictionary:\n  live_lookup: false\n",
        "content/index.md": "---\ntitle: Accueil\n---\nBienvenue.\n",
    }
    for path, text in files.items():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_text(text, encoding="utf-8")
    server = support.SiteServer(support.build_site(source, Path(workdir) / "french-site", "--offline"))
    try:
        driver = browser()
        driver.get(server.url + "search/?q=zzq")
        results = driver.find_element(By.CSS_SELECTOR, "[data-dictionary-results]")
        wait_for(lambda: results.get_attribute("data-state") == "not-found", message="the not-found state")
        assert [p.text for p in results.find_elements(By.CSS_SELECTOR, "p:not(.state-emoji)")] == [
            "Aucune définition trouvée", "« zzq » ne figure pas dans ce glossaire."]
    finally:
        server.close()


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
    assert card.text.splitlines() == ["serveur server", "Un ordinateur qui sert.", "Lire l’entrée « serveur » →"]


def test_on_a_phone_a_long_title_ends_before_the_french_controls(browser, workdir):
    # "Sans empattement", the French font label, leaves a phone's header less room than "Sans Serif".
    source = Path(workdir) / "long-title-source"
    files = dict(SITE, **{"glossary.yml": SITE["glossary.yml"].replace("title: Type\n", "title: Typography and type design\n")})
    for path, text in files.items():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_text(text, encoding="utf-8")
    server = support.SiteServer(support.build_site(source, Path(workdir) / "long-title-site", "--offline"))
    try:
        driver = browser(width=390, height=844, mobile=True)
        driver.get(server.url + "fr/")
        title = driver.find_element(By.CSS_SELECTOR, ".site-title span").rect
        controls = driver.find_element(By.CSS_SELECTOR, ".controls").rect
        assert title["x"] + title["width"] <= controls["x"], (title, controls)
    finally:
        server.close()
