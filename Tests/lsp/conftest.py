"""Fixtures for the language server tests: a small site written per test, and a real LSP client (pytest-lsp) running
`glossary lsp` over stdio. GLOSSARY_BIN names the binary."""

import asyncio
import json
import os
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pygls.protocol import default_converter

BIN = os.environ.get("GLOSSARY_BIN") or str(Path(__file__).resolve().parents[2] / ".build/debug/glossary")

SITE = {
    "glossary.yml": "title: LSP test site\nlanguage: en\n",
    "content/glossary/keyboard.md": (
        "---\nterm: keyboard\naliases: [keys]\npart_of_speech: noun\nphonetic: /ˈkiːbɔːd/\n---\n\nA panel of keys for typing.\n"
    ),
    "content/glossary/mouse.md": "---\nterm: mouse\npart_of_speech: noun\n---\n\nA pointing device.\n",
    "content/glossary/crane-machine.md": "---\nterm: crane\nsense: machine\n---\n\nA machine for lifting loads.\n",
    "content/glossary/crane-bird.md": "---\nterm: crane\nsense: bird\n---\n\nA tall wading bird.\n",
    "content/index.md": (
        "---\ntitle: Home\n---\n\n# Home\n\nCafé 😀 [[keybord]] and [[Keys|keyboard]] and [[keyboards]].\n\n"
        "## Devices\n\nA mouse and a [[mouse]] and a [[crane (bird)]].\n"
    ),
    "content/guide.md": (
        "---\ntitle: Guide\nautolink: all\n---\n\n# Guide\n\nPress a keyboard key, then [[keyboard]].\n\n"
        "Written in [[ink]], found in a [[lexicon]].\n"
    ),
    # A cache entry written for these tests (not an API response): "ink" is defined by the cache, "lexicon" by WordNet.
    ".glossary/cache/en/ink.json": json.dumps({
        "format": 1, "key": "ink", "language": "en", "url": "https://api.dictionaryapi.dev/api/v2/entries/en/ink", "status": 200,
        "fetched_at": "2026-11-29T12:00:00Z",
        "body": [{
            "word": "ink", "phonetic": "/ɪŋk/", "phonetics": [{"text": "/ɪŋk/", "audio": ""}],
            "meanings": [{"partOfSpeech": "noun", "definitions": [{"definition": "A coloured fluid for writing.", "synonyms": [], "antonyms": []}],
                          "synonyms": [], "antonyms": []}],
            "license": {"name": "CC BY-SA 3.0", "url": "https://creativecommons.org/licenses/by-sa/3.0"},
            "sourceUrls": ["https://en.wiktionary.org/wiki/ink"],
        }],
    }, indent=2),
}

INDEX_TEXT = SITE["content/index.md"]


def write_site(root: Path, files=SITE):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


class Published:
    """Every textDocument/publishDiagnostics the client received, in order, with its version."""

    def __init__(self):
        self.items = []
        self.arrived = asyncio.Event()

    def add(self, params):
        self.items.append(params)
        self.arrived.set()

    def mark(self):
        """A place in the sequence: `wait(after=…)` looks only at what arrives after it."""
        return len(self.items)

    async def wait(self, uri, predicate=lambda params: True, after=0):
        """The first publish for `uri` (from the `after`th on) that satisfies `predicate`."""
        index = after
        while True:
            while index < len(self.items):
                params = self.items[index]
                index += 1
                if params.uri == uri and predicate(params):
                    params.diagnostics = list(params.diagnostics)
                    return params
            self.arrived.clear()
            await self.arrived.wait()


def client_factory():
    client = LanguageClient(converter_factory=default_converter)
    client.published = Published()

    def on_publish(ls, params):
        ls.diagnostics[params.uri] = params.diagnostics
        ls.published.add(params)

    client.registrations = []

    def on_register(ls, params):
        ls.registrations.extend(params.registrations)

    register_lsp_features(
        client,
        {**DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: on_publish, types.CLIENT_REGISTER_CAPABILITY: on_register},
    )
    return client


@pytest.fixture
def site(tmp_path):
    return write_site(tmp_path / "site")


CONFIG = ClientServerConfig(server_command=[BIN, "lsp"], client_factory=client_factory)


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient, site):
    """A client that watches files for the server (as VS Code and Neovim do)."""
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(
                workspace=types.WorkspaceClientCapabilities(
                    did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
                ),
                text_document=types.TextDocumentClientCapabilities(
                    completion=types.CompletionClientCapabilities(
                        completion_item=types.ClientCompletionItemOptions(documentation_format=[types.MarkupKind.Markdown])
                    ),
                    hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
                ),
            ),
            workspace_folders=[types.WorkspaceFolder(uri=site.as_uri(), name="site")],
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG)
async def plain_client(lsp_client: LanguageClient, site):
    """A client that watches no files (the server watches them itself) and shows no markdown."""
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(), workspace_folders=[types.WorkspaceFolder(uri=site.as_uri(), name="site")])
    )
    yield
    await lsp_client.shutdown_session()


def uri(site, name):
    return (site / name).as_uri()


def open_document(client, site, name, text=None, version=1):
    path = site / name
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=path.as_uri(), language_id="markdown", version=version, text=path.read_text(encoding="utf-8") if text is None else text
            )
        )
    )
    return path.as_uri()
