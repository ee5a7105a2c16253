"""Fixtures for the browser tests: the example site and a small audio site, built with the real
binary and served on loopback; the fake dictionary API; headless Chromium."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import support  # noqa: E402

# A dictionary answer written by these tests (not fixture text) whose strings look like markup and whose
# links are scripts: the dictionary page must show the text as text and drop the links.
MARKUP_ENTRY = [{
    "word": "markup",
    "phonetic": "<b>/ˈmɑːk.ʌp/</b>",
    "phonetics": [{"text": "/ˈmɑːk.ʌp/", "audio": "javascript:window.__pwned='audio'"}],
    "meanings": [{
        "partOfSpeech": "noun",
        "definitions": [{
            "definition": "<img src=x onerror=\"window.__pwned='img'\">Text written by the browser tests.",
            "example": "<script>window.__pwned='script'</script>",
            "synonyms": [], "antonyms": [],
        }],
        "synonyms": ["<i>tag</i>"], "antonyms": [],
    }],
    "license": {"name": "Test licence", "url": "javascript:window.__pwned='licence'"},
    "sourceUrls": ["javascript:window.__pwned='source'", "https://example.invalid/markup"],
}]


@pytest.fixture(scope="session")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("browser")


@pytest.fixture(scope="session")
def api():
    fake = support.FakeAPI(extra={"markup": MARKUP_ENTRY})
    yield fake
    fake.close()


@pytest.fixture(scope="session")
def example_dir(workdir, api):
    """The repository's example glossary, built offline; its dictionary page looks words up in the fake API."""
    return support.build_site(support.REPO, workdir / "example", "--offline", "--api-url", api.template)


@pytest.fixture(scope="session")
def example(example_dir):
    server = support.SiteServer(example_dir)
    yield server
    server.close()


@pytest.fixture(scope="session")
def unreachable_api_site(workdir):
    """The example again, with the dictionary API at a closed port (every lookup is a network error)."""
    template = "http://127.0.0.1:%d/api/v2/entries/{lang}/{word}" % support.closed_port()
    server = support.SiteServer(support.build_site(support.REPO, workdir / "unreachable", "--offline", "--api-url", template))
    yield server
    server.close()


@pytest.fixture(scope="session")
def audio_dir(workdir, api):
    return support.build_audio_site(workdir, api)


@pytest.fixture(scope="session")
def audio_site(audio_dir):
    server = support.SiteServer(audio_dir)
    yield server
    server.close()


@pytest.fixture(scope="session")
def example_terms(example_dir):
    return json.loads((example_dir / "terms" / "index.json").read_text(encoding="utf-8"))["terms"]


@pytest.fixture
def browser():
    """A factory of headless Chromium sessions, all closed after the test. A test any of whose pages broke
    their Content-Security-Policy fails here, at teardown (the console holds every page's violations)."""
    drivers = []

    def make(**options):
        driver = support.chrome(**options)
        drivers.append(driver)
        return driver

    yield make
    violations = []
    for driver in drivers:
        try:
            violations += support.logged_csp_violations(driver)
        except Exception:
            pass
        try:
            driver.quit()
        except Exception:
            pass
    assert violations == [], "Content-Security-Policy violations:\n" + "\n".join(violations)
