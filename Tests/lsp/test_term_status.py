"""`glossary lsp`'s quick fix for deprecated and forbidden terms: "Use 'X'" replaces the name as written — a plain
word, a reference's target or its shown text — with the term its entry says to write, and nothing around it."""

import pytest
from lsprotocol import types

from conftest import open_document, uri, write_site

SITE = {
    "glossary.yml": "title: Status\nlanguages: [en, fr]\n",
    "content/glossary/log-in.md": "---\nterm: log in\ndeprecated: [logon]\nforbidden: [login]\n---\n\nTo open a session.\n",
    "content/glossary/server.md": "---\nterm: server\n---\n\nA computer that serves.\n",
    "content/glossary/host.md": "---\nterm: host\nstatus: deprecated\nuse: server\n---\n\nThe old word.\n",
    "content/glossary/mainframe.md": "---\nterm: mainframe\nstatus: deprecated\n---\n\nNo replacement named.\n",
    "content/fr/glossary/courriel.md": "---\nterm: courriel\nforbidden: [email]\n---\n\nUn message.\n",
    "content/fr/index.md": "---\ntitle: Accueil\n---\n\nDeux emails.\n",
    "content/index.md": (
        "---\ntitle: Home\n---\n\nPlease [[login]] first, on [[the logon screen|logon]].\n\nTwo hosts answer; a mainframe too.\n"
    ),
}


@pytest.fixture
def site(tmp_path):
    return write_site(tmp_path / "site", SITE)


def span(line, start, end):
    return types.Range(start=types.Position(line=line, character=start), end=types.Position(line=line, character=end))


async def fixes(client, site, diagnostic, page="content/index.md"):
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(site, page)),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    return [(action.title, action.kind, action.is_preferred, action.diagnostics, action.edit.changes) for action in actions or []]


async def test_use_the_preferred_term_replaces_exactly_the_name(client, site):
    index = open_document(client, site, "content/index.md")
    published = await client.published.wait(index, lambda p: p.version == 1)
    diagnostics = published.diagnostics
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diagnostics] == [
        ("forbidden-term", 4, 9),
        ("deprecated-term", 4, 33),
        ("deprecated-term", 4, 46),
        ("deprecated-term", 6, 4),
        ("deprecated-term", 6, 20),
    ]

    def fix(diagnostic, title, range, text):
        return [(title, types.CodeActionKind.QuickFix, True, (diagnostic,), {index: (types.TextEdit(range=range, new_text=text),)})]

    # A reference's target inside its brackets, the shown text before its bar, the target after it: the brackets and
    # the bar stay.
    assert await fixes(client, site, diagnostics[0]) == fix(diagnostics[0], "Use 'log in'", span(4, 9, 14), "log in")
    assert await fixes(client, site, diagnostics[1]) == fix(diagnostics[1], "Use 'log in'", span(4, 33, 38), "log in")
    assert await fixes(client, site, diagnostics[2]) == fix(diagnostics[2], "Use 'log in'", span(4, 46, 51), "log in")
    # A plain inflected word: the whole form goes.
    assert await fixes(client, site, diagnostics[3]) == fix(diagnostics[3], "Use 'server'", span(6, 4, 9), "server")
    # An entry that names no term to use offers no fix of its own (the word is a term, so it may still be linked).
    assert [title for title, *_ in await fixes(client, site, diagnostics[4])] == ["Link this word"]


async def test_a_page_in_another_language_is_fixed_by_its_languages_check(client, site):
    page = open_document(client, site, "content/fr/index.md")
    published = await client.published.wait(page, lambda p: p.version == 1)
    [diagnostic] = published.diagnostics
    assert (diagnostic.code, diagnostic.range.start) == ("forbidden-term", types.Position(line=4, character=5))
    # Snowball's French stem finds the plural; the fix replaces it whole.
    assert await fixes(client, site, diagnostic, "content/fr/index.md") == [
        ("Use 'courriel'", types.CodeActionKind.QuickFix, True, (diagnostic,), {page: (types.TextEdit(range=span(4, 5, 11), new_text="courriel"),)})
    ]


async def test_a_name_after_markup_on_a_line_of_wide_characters_is_placed_in_utf16(client, site):
    # cmark places a text node after inline markup at a byte column: é and 😀 before it must not move the range.
    text = "---\ntitle: Accents\n---\n\né *x* logon and 😀 **b** hosts.\n"
    page = open_document(client, site, "content/index.md", text=text, version=2)
    published = await client.published.wait(page, lambda p: p.version == 2)
    diagnostics = published.diagnostics
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diagnostics] == [("deprecated-term", 4, 6), ("deprecated-term", 4, 25)]

    def fix(diagnostic, title, range, text):
        return [(title, types.CodeActionKind.QuickFix, True, (diagnostic,), {page: (types.TextEdit(range=range, new_text=text),)})]

    assert (await fixes(client, site, diagnostics[0]))[:1] == fix(diagnostics[0], "Use 'log in'", span(4, 6, 11), "log in")
    assert (await fixes(client, site, diagnostics[1]))[:1] == fix(diagnostics[1], "Use 'server'", span(4, 25, 30), "server")


async def test_completion_offers_a_page_its_own_languages_terms(client, site):
    async def labels(page, text):
        open_document(client, site, page, text=text, version=3)
        line = text.count("\n") - 1
        result = await client.text_document_completion_async(
            types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri(site, page)), position=types.Position(line=line, character=len("Voir [[")))
        )
        return sorted(item.label for item in result.items)

    french = await labels("content/fr/index.md", "---\ntitle: Accueil\n---\n\nVoir [[\n")
    english = await labels("content/index.md", "---\ntitle: Home\n---\n\nSeen [[\n")
    assert french == ["courriel"]
    assert "courriel" not in english and {"log in", "server"} <= set(english)
