"""`glossary lsp` end to end over stdio with a real LSP client (pytest-lsp) on a small site (conftest.SITE)."""

from lsprotocol import types

from conftest import INDEX_TEXT, open_document, uri


def position(line, character):
    return types.Position(line=line, character=character)


def span(start_line, start_char, end_line, end_char):
    return types.Range(start=position(start_line, start_char), end=position(end_line, end_char))


def doc(site, name):
    return types.TextDocumentIdentifier(uri=uri(site, name))


# Line 6 of index.md: "Café 😀 [[keybord]] and [[Keys|keyboard]] and [[keyboards]]." — "Café 😀 " is 8 UTF-16 code
# units (é is one, the emoji two), so the first reference starts at character 8.
UNKNOWN = types.Diagnostic(
    range=span(6, 8, 6, 19),
    severity=types.DiagnosticSeverity.Warning,
    code="unknown-term",
    code_description=types.CodeDescription(href="glossary:explain/unknown-term"),
    source="glossary",
    message="no definition found for 'keybord' (offline, and not in the cache)",
)


async def change(client, page, version, range, text):
    """Types `text` over `range` of the open `page` as its `version`, and gives the diagnostics published for it."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=page, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=range, text=text)],
        )
    )
    return await client.published.wait(page, lambda p: p.version == version)


async def test_diagnostics_come_from_the_unsaved_text_with_utf16_positions(client, site):
    index = open_document(client, site, "content/index.md")
    published = await client.published.wait(index, lambda p: p.version == 1)
    assert published.diagnostics == [UNKNOWN]

    # Typing the missing letter (unsaved) clears it; typing an unknown word elsewhere reports that one.
    published = await change(client, index, 2, span(6, 15, 6, 15), "a")
    assert published.diagnostics == []
    published = await change(client, index, 3, span(4, 6, 4, 6), " [[zyxw]]")
    assert [(d.code, d.range, d.message) for d in published.diagnostics] == [
        ("unknown-term", span(4, 7, 4, 15), "no definition found for 'zyxw' (offline, and not in the cache)")
    ]
    assert (site / "content/index.md").read_text(encoding="utf-8") == INDEX_TEXT


async def test_a_carriage_return_alone_ends_a_line_as_it_does_for_the_client(client, site):
    # LSP (and CommonMark) take "\r" alone as a line break: the range, hover and an edit on the next line agree.
    text = "---\ntitle: CR\n---\n\nOne\rtwo [[zyxw]] and [[keyboard]].\n"
    page = open_document(client, site, "content/cr.md", text=text)
    published = await client.published.wait(page, lambda p: p.version == 1)
    assert [(d.code, d.range) for d in published.diagnostics] == [("unknown-term", span(5, 4, 5, 12))]
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc(site, "content/cr.md"), position=position(5, 22)))
    assert hover.range == span(5, 17, 5, 29)
    published = await change(client, page, 2, span(5, 9, 5, 9), "q")
    assert [(d.code, d.range, d.message) for d in published.diagnostics] == [
        ("unknown-term", span(5, 4, 5, 13), "no definition found for 'zyxqw' (offline, and not in the cache)")
    ]


async def test_files_not_open_are_checked_from_disk(client, site):
    published = await client.published.wait(uri(site, "content/index.md"))
    assert published.version is None
    assert published.diagnostics == [UNKNOWN]


async def test_a_duplicate_term_has_its_first_definition_as_related_information(client, site):
    text = "---\nterm: Keyboard\n---\n\nAnother keyboard.\n"
    # Not on disk: only the editor has it. (keyboard2.md sorts after keyboard.md, which keeps the term.)
    copy = open_document(client, site, "content/glossary/keyboard2.md", text=text)
    published = await client.published.wait(copy, lambda p: p.version == 1)
    assert published.diagnostics == [
        types.Diagnostic(
            range=span(1, 6, 1, 14),
            severity=types.DiagnosticSeverity.Error,
            code="duplicate-term",
            code_description=types.CodeDescription(href="glossary:explain/duplicate-term"),
            source="glossary",
            message="'keyboard' is already defined",
            related_information=(
                types.DiagnosticRelatedInformation(
                    location=types.Location(uri=uri(site, "content/glossary/keyboard.md"), range=span(1, 6, 1, 14)),
                    message="'keyboard' is first defined here",
                ),
            ),
        )
    ]


async def test_completion_after_brackets_offers_team_terms_aliases_senses_cached_and_wordnet_words(client, site):
    open_document(client, site, "content/index.md")
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc(site, "content/index.md"), position=position(6, 10))
    )
    labels = [(item.label, item.detail) for item in result.items]
    assert labels == [
        ("crane (bird)", "team"),
        ("crane (machine)", "team"),
        ("keyboard", "team"),
        ("mouse", "team"),
        ("keys", "team, alias of keyboard"),
        ("ink", "cached"),
        ("lexicon", "WordNet"),
    ]
    keyboard = result.items[2]
    assert keyboard.documentation == types.MarkupContent(kind=types.MarkupKind.Markdown, value="A panel of keys for typing.")
    # The reference is closed already: only the word is inserted, over what was typed.
    assert keyboard.text_edit == types.TextEdit(range=span(6, 10, 6, 10), new_text="keyboard")


async def test_no_completion_where_brackets_are_no_reference(client, site):
    text = "---\ntitle: Code\n---\n\nA `code [[` span, \\[[ escaped, then [[\n\n```\n[[\n```\n"
    open_document(client, site, "content/code.md", text=text)

    async def labels(line, character):
        result = await client.text_document_completion_async(types.CompletionParams(text_document=doc(site, "content/code.md"), position=position(line, character)))
        return [item.label for item in (result.items if result else [])]

    line = text.split("\n")[4]
    assert await labels(4, line.index("[[`") + 2) == []
    assert await labels(4, line.index("[[ escaped") + 2) == []
    assert "keyboard" in await labels(4, len(line))
    assert await labels(7, 2) == []


async def test_completion_after_a_bar_and_inside_a_sense(client, site):
    index = open_document(client, site, "content/index.md")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=index, version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=span(10, 0, 10, 0), text="[[Shown|ke\n[[crane (")],
        )
    )
    after_bar = await client.text_document_completion_async(types.CompletionParams(text_document=doc(site, "content/index.md"), position=position(10, 10)))
    assert [(i.label, i.text_edit.new_text, i.text_edit.range) for i in after_bar.items] == [
        ("keyboard", "keyboard]]", span(10, 8, 10, 10)),
        ("keys", "keys]]", span(10, 8, 10, 10)),
    ]
    sense = await client.text_document_completion_async(types.CompletionParams(text_document=doc(site, "content/index.md"), position=position(11, 9)))
    assert [i.label for i in sense.items] == ["crane (bird)", "crane (machine)"]


async def test_hover_shows_the_card_and_the_term_a_form_belongs_to(client, site):
    open_document(client, site, "content/index.md")
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc(site, "content/index.md"), position=position(6, 48)))
    assert hover.range == span(6, 46, 6, 59)
    assert hover.contents.value == (
        "**keyboard** /ˈkiːbɔːd/ *noun*\n\n*keyboards* is a form of **keyboard**.\n\nA panel of keys for typing.\n\n"
        "Source: the team's glossary, `content/glossary/keyboard.md`."
    )
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(site, "content/index.md"), version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=span(8, 10, 8, 10), text=" [[keys]]")],
        )
    )
    alias = await client.text_document_hover_async(types.HoverParams(text_document=doc(site, "content/index.md"), position=position(8, 13)))
    assert alias.contents.value.split("\n\n")[1] == "*keys* is an alias of **keyboard**."


async def test_hover_on_cached_and_wordnet_definitions_names_source_and_licence(client, site):
    open_document(client, site, "content/guide.md")
    cached = await client.text_document_hover_async(types.HoverParams(text_document=doc(site, "content/guide.md"), position=position(9, 13)))
    assert cached.range == span(9, 11, 9, 18)
    assert cached.contents.value == (
        "**ink** /ɪŋk/ *noun*\n\nA coloured fluid for writing.\n\n"
        "Source: the Free Dictionary API (cached), licensed under CC BY-SA 3.0. From https://en.wiktionary.org/wiki/ink."
    )
    wordnet = await client.text_document_hover_async(types.HoverParams(text_document=doc(site, "content/guide.md"), position=position(9, 36)))
    assert wordnet.contents.value == (
        "**lexicon** *noun*\n\na language user's knowledge of words\n\nSource: WordNet 3.0, Princeton University, used under the WordNet 3.0 licence."
    )
    # The cached word's definition is its cache file.
    definition = await client.text_document_definition_async(types.DefinitionParams(text_document=doc(site, "content/guide.md"), position=position(9, 13)))
    assert definition == types.Location(uri=uri(site, ".glossary/cache/en/ink.json"), range=span(0, 0, 0, 0))


async def test_hover_on_an_auto_linked_word(client, site):
    open_document(client, site, "content/guide.md")
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc(site, "content/guide.md"), position=position(7, 10)))
    assert hover.range == span(7, 8, 7, 16)
    assert hover.contents.value.startswith("**keyboard** /ˈkiːbɔːd/ *noun*\n\nA panel of keys for typing.")
    nothing = await client.text_document_hover_async(types.HoverParams(text_document=doc(site, "content/guide.md"), position=position(7, 1)))
    assert nothing is None
    # After inline markup, wide characters before the word (é: one UTF-16 unit, two bytes) don't move it.
    text = (site / "content/guide.md").read_text(encoding="utf-8") + "é *x* keyboard.\n"
    line = text.count("\n") - 1
    open_document(client, site, "content/guide.md", text=text, version=2)
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc(site, "content/guide.md"), position=position(line, 6)))
    assert hover.range == span(line, 6, line, 14)


async def test_go_to_definition_opens_the_entry_at_its_term_line(client, site):
    open_document(client, site, "content/index.md")
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(site, "content/index.md"), position=position(6, 50))
    )
    assert result == types.Location(uri=uri(site, "content/glossary/keyboard.md"), range=span(1, 6, 1, 14))


async def test_find_references_lists_every_use_across_the_site(client, site):
    open_document(client, site, "content/index.md")
    result = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(site, "content/index.md"), position=position(6, 30), context=types.ReferenceContext(include_declaration=True)
        )
    )
    assert [(location.uri, location.range) for location in result] == [
        (uri(site, "content/glossary/keyboard.md"), span(1, 6, 1, 14)),
        (uri(site, "content/guide.md"), span(7, 8, 7, 16)),
        (uri(site, "content/guide.md"), span(7, 27, 7, 39)),
        (uri(site, "content/index.md"), span(6, 24, 6, 41)),
        (uri(site, "content/index.md"), span(6, 46, 6, 59)),
    ]


async def test_document_and_workspace_symbols(client, site):
    open_document(client, site, "content/index.md")
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc(site, "content/index.md")))
    assert [(s.name, s.range) for s in symbols] == [("Home", span(4, 0, 4, 6)), ("Devices", span(8, 0, 8, 10))]
    # Indented four spaces a line is code, not a heading; in a block quote it is one.
    text = "---\ntitle: T\n---\n\n## Custom\n\n    # not a heading\n\n> # Quoted\n>\n> Setext\n> ---\n\n```\n# in a fence\n```\n"
    open_document(client, site, "content/symbols.md", text=text)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc(site, "content/symbols.md")))
    assert [(s.name, s.range.start.line) for s in symbols] == [("Custom", 4), ("Quoted", 8), ("Setext", 10)]
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="e"))
    assert [(s.name, s.container_name) for s in found] == [
        ("crane (bird)", "terms"),
        ("crane (machine)", "terms"),
        ("keyboard", "terms"),
        ("mouse", "terms"),
        ("Guide", "pages"),
        ("Home", "pages"),
    ]


async def test_rename_a_team_term_across_the_site(client, site):
    open_document(client, site, "content/index.md")
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc(site, "content/index.md"), position=position(6, 35), new_name="keypad")
    )
    assert edit.changes == {
        uri(site, "content/glossary/keyboard.md"): (types.TextEdit(range=span(1, 6, 1, 14), new_text="keypad"),),
        uri(site, "content/guide.md"): (types.TextEdit(range=span(7, 29, 7, 37), new_text="keypad"),),
        uri(site, "content/index.md"): (
            types.TextEdit(range=span(6, 31, 6, 39), new_text="keypad"),
            # A form of the term keeps its text and names the new term.
            types.TextEdit(range=span(6, 48, 6, 57), new_text="keyboards|keypad"),
        ),
    }
    # From the entry's own term, the same edit.
    open_document(client, site, "content/glossary/keyboard.md")
    from_entry = await client.text_document_rename_async(
        types.RenameParams(text_document=doc(site, "content/glossary/keyboard.md"), position=position(1, 9), new_name="keypad")
    )
    assert from_entry.changes == edit.changes


async def test_rename_refuses_a_name_another_entry_has(client, site):
    open_document(client, site, "content/index.md")
    try:
        await client.text_document_rename_async(
            types.RenameParams(text_document=doc(site, "content/index.md"), position=position(6, 35), new_name="Mouse")
        )
    except Exception as error:  # noqa: BLE001 — pygls raises its own JsonRpc error types
        assert "'mouse' is already defined" in str(error)
    else:
        raise AssertionError("rename to an existing term was accepted")


async def test_rename_refuses_names_a_reference_cannot_hold_and_quotes_yaml(client, site):
    open_document(client, site, "content/index.md")

    async def rename(name):
        return await client.text_document_rename_async(
            types.RenameParams(text_document=doc(site, "content/index.md"), position=position(6, 35), new_name=name)
        )

    for name, why in [("a|b", "belong to references"), ("a]]b", "belong to references"), ("a\nb", "one line"), ("k" * 201, "201 characters")]:
        try:
            await rename(name)
        except Exception as error:  # noqa: BLE001 — pygls raises its own JsonRpc error types
            assert "can't be a term" in str(error) and why in str(error), str(error)
        else:
            raise AssertionError(f"rename to {name!r} was accepted")
    # A name YAML would read otherwise is quoted in the entry, and written as it is in references.
    edit = await rename("key: pad #1")
    assert edit.changes[uri(site, "content/glossary/keyboard.md")] == (types.TextEdit(range=span(1, 6, 1, 14), new_text='"key: pad #1"'),)
    assert edit.changes[uri(site, "content/guide.md")] == (types.TextEdit(range=span(7, 29, 7, 37), new_text="key: pad #1"),)


async def test_a_new_entry_quotes_its_term_and_takes_a_file_of_its_own(client, site):
    # A file named as the new entry would be, holding another term: the new entry's gets a number.
    (site / "content/glossary/qqq.md").write_text("---\nterm: other\n---\n\nTaken.\n", encoding="utf-8")
    open_document(client, site, "content/new.md", text="---\ntitle: New\n---\n\nA [[qqq]] and [[a: b]] here.\n")

    async def create(character):
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=doc(site, "content/new.md"), range=span(4, character, 4, character), context=types.CodeActionContext(diagnostics=[])
            )
        )
        return actions[0].title, actions[0].edit.document_changes

    title, changes = await create(5)
    assert title == "Create a glossary entry for 'qqq'"
    assert changes[0] == types.CreateFile(kind="create", uri=uri(site, "content/glossary/qqq-2.md"))
    # A term YAML would read otherwise is quoted.
    title, changes = await create(18)
    assert title == "Create a glossary entry for 'a: b'"
    assert changes[1].edits[0].new_text == '---\nterm: "a: b"\n---\n\nWhat \'a: b\' means here.\n'


async def test_code_actions_for_an_unknown_term(client, site):
    open_document(client, site, "content/index.md")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(site, "content/index.md"), range=span(6, 10, 6, 10), context=types.CodeActionContext(diagnostics=[UNKNOWN])
        )
    )
    assert [action.title for action in actions] == ["Create a glossary entry for 'keybord'", "Did you mean 'keyboard'?"]
    create = actions[0].edit.document_changes
    assert create[0] == types.CreateFile(kind="create", uri=uri(site, "content/glossary/keybord.md"))
    assert create[1].edits[0].new_text == "---\nterm: keybord\n---\n\nWhat 'keybord' means here.\n"
    assert actions[1].edit.changes == {uri(site, "content/index.md"): (types.TextEdit(range=span(6, 10, 6, 17), new_text="keyboard"),)}


async def test_link_this_word(client, site):
    open_document(client, site, "content/index.md")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(text_document=doc(site, "content/index.md"), range=span(10, 3, 10, 3), context=types.CodeActionContext(diagnostics=[]))
    )
    assert [action.title for action in actions] == ["Link this word"]
    assert actions[0].edit.changes == {uri(site, "content/index.md"): (types.TextEdit(range=span(10, 2, 10, 7), new_text="[[mouse]]"),)}
    # Not on a word the site defines, nor inside a reference to a known term.
    for character in (0, 17):
        none = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=doc(site, "content/index.md"), range=span(10, character, 10, character), context=types.CodeActionContext(diagnostics=[])
            )
        )
        assert none == ()


KEYBORD_ENTRY = "---\nterm: keybord\n---\n\nA misspelling, defined on purpose.\n"


async def test_files_changed_outside_the_editor_are_picked_up(client, site):
    index = uri(site, "content/index.md")
    assert (await client.published.wait(index)).diagnostics == [UNKNOWN]
    mark = client.published.mark()
    entry = site / "content/glossary/keybord.md"
    entry.write_text(KEYBORD_ENTRY, encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=entry.as_uri(), type=types.FileChangeType.Created)])
    )
    assert (await client.published.wait(index, after=mark)).diagnostics == []
    # (The server asked for the watching before it handled the change, so the request has arrived by now.)
    assert [r.method for r in client.registrations] == ["workspace/didChangeWatchedFiles"]
    mark = client.published.mark()
    entry.unlink()
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=entry.as_uri(), type=types.FileChangeType.Deleted)])
    )
    assert (await client.published.wait(index, after=mark)).diagnostics == [UNKNOWN]


async def test_the_server_watches_files_itself_when_the_client_does_not(plain_client, site):
    index = uri(site, "content/index.md")
    assert (await plain_client.published.wait(index)).diagnostics == [UNKNOWN]
    assert plain_client.registrations == []
    mark = plain_client.published.mark()
    (site / "content/glossary/keybord.md").write_text(KEYBORD_ENTRY, encoding="utf-8")
    assert (await plain_client.published.wait(index, after=mark)).diagnostics == []


async def test_a_client_without_markdown_gets_plain_text(plain_client, site):
    open_document(plain_client, site, "content/index.md")
    hover = await plain_client.text_document_hover_async(types.HoverParams(text_document=doc(site, "content/index.md"), position=position(6, 48)))
    assert hover.contents == types.MarkupContent(
        kind=types.MarkupKind.PlainText,
        value=(
            "keyboard /ˈkiːbɔːd/ (noun)\n\nkeyboards is a form of keyboard.\n\nA panel of keys for typing.\n\n"
            "Source: the team's glossary, content/glossary/keyboard.md."
        ),
    )
    result = await plain_client.text_document_completion_async(
        types.CompletionParams(text_document=doc(site, "content/index.md"), position=position(6, 10))
    )
    assert result.items[2].label == "keyboard" and result.items[2].documentation == "A panel of keys for typing."
