#!/usr/bin/env python3
"""Turns a glossary corpus (../shared/bench/gen-corpus's plain mode, with team entries in content/glossary/ as
bench/build-bench.sh writes them) into the same site for MkDocs Material with mkdocs-ezglossary: every page's
`[[word]]` becomes `<term:word>` and `[[shown|word]]` becomes `<term:word|shown>` (outside code, as glossary reads
them), and every entry becomes a definition in docs/glossary.md (`term:word` then `:   definition`), which
ezglossary reads through Python-Markdown's `def_list`.

Usage: bench/ezglossary-corpus.py SOURCE OUT     (writes OUT/mkdocs.yml and OUT/docs/; OUT/docs must not exist)
"""
import os
import re
import sys

source, out = sys.argv[1], sys.argv[2]
content = os.path.join(source, "content")
docs = os.path.join(out, "docs")
os.makedirs(docs)

REFERENCE = re.compile(r"\[\[([^\[\]|]+)(?:\|([^\[\]|]+))?\]\]")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def convert_text(text):
    """References to ezglossary links in text outside code spans."""
    def link(match):
        first, second = match.group(1).strip(), match.group(2)
        return f"<term:{second.strip()}|{first}>" if second else f"<term:{first}>"

    pieces, last = [], 0
    for span in CODE_SPAN.finditer(text):
        pieces.append(REFERENCE.sub(link, text[last:span.start()]))
        pieces.append(span.group(0))
        last = span.end()
    pieces.append(REFERENCE.sub(link, text[last:]))
    return "".join(pieces)


def convert(markdown):
    """Each line outside fenced code blocks converted; fences kept as they are."""
    lines, fence = [], None
    for line in markdown.split("\n"):
        stripped = line.lstrip()
        if fence is None and (stripped.startswith("```") or stripped.startswith("~~~")):
            fence = stripped[:3]
            lines.append(line)
        elif fence is not None:
            if stripped.startswith(fence):
                fence = None
            lines.append(line)
        else:
            lines.append(convert_text(line))
    return "\n".join(lines)


pages = 0
definitions = []
for folder, _, files in os.walk(content):
    for name in sorted(files):
        if not name.endswith(".md"):
            continue
        path = os.path.join(folder, name)
        relative = os.path.relpath(path, content)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        if relative.startswith("glossary" + os.sep):
            # The entry's front matter names the term; its body is the definition.
            _, front, body = text.split("---\n", 2)
            term = re.search(r"^term: (.+)$", front, re.M).group(1).strip()
            definitions.append((term, " ".join(body.split())))
            continue
        target = os.path.join(docs, relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(convert(text))
        pages += 1

with open(os.path.join(docs, "index.md"), "w", encoding="utf-8") as handle:
    handle.write("# Benchmark\n\nThe same pages as the glossary corpus.\n")
with open(os.path.join(docs, "glossary.md"), "w", encoding="utf-8") as handle:
    handle.write("# Glossary\n\n")
    for term, definition in sorted(definitions):
        handle.write(f"term:{term}\n:   {definition}\n\n")
with open(os.path.join(out, "mkdocs.yml"), "w", encoding="utf-8") as handle:
    handle.write(
        "site_name: Benchmark\n"
        "theme:\n  name: material\n"
        "markdown_extensions:\n  - def_list\n"
        "plugins:\n  - search\n  - ezglossary:\n      ignore_case: true\n"
    )
print(f"{pages} pages, {len(definitions)} definitions", file=sys.stderr)
