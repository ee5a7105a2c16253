#!/usr/bin/env python3
"""A dictionary-sized benchmark site from WordNet: one team entry per lemma, plus pages that reference some.

Usage: bench/wordnet-corpus.py OUT [--pages 1000] [--refs 8] [--seed 1] [--wordnet /usr/share/wordnet] [--hugo DIR]

Reads WordNet's `index.*` (the lemmas) and `data.*` (the glosses) from Debian's wordnet-base and writes
OUT/glossary.yml, OUT/content/glossary/NNNNNN.md (front matter `term`, `part_of_speech`; the body the gloss of
each of the lemma's first three senses, as a list when there are several) and OUT/content/pages/page-NNNNN.md
(PAGES pages of REFS `[[lemma]]` references each, drawn from the lemmas with a seeded generator). Lemmas that
fold to the same term key (case, `_` as a space) are one entry. Deterministic: the same arguments give the same
files. Prints how many entries and pages it wrote. OUT is a scratch folder: never commit it.

--hugo DIR also writes the same site for Hugo in DIR: each entry a content page `terms/NNNNNN.md` (its term the
title, the same markdown body), the pages with each `[[lemma]]` a markdown link to its entry's page, and the layouts
of the shared corpus generator's Hugo twin (../shared/bench/gen-corpus: one list of every term at /terms/).
"""

import argparse
import importlib.machinery
import os
import random
import re
import sys

PARTS = [("noun", "noun"), ("verb", "verb"), ("adj", "adjective"), ("adv", "adverb")]
SENSES = 3


def read_glosses(path):
    """Maps a synset's byte offset (as written) to its gloss, from one `data.*` file."""
    glosses = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("  "):
                continue
            offset, _, rest = line.partition(" ")
            _, _, gloss = rest.partition("| ")
            glosses[offset] = gloss.strip()
    return glosses


def read_lemmas(wordnet):
    """Yields (lemma, part of speech, [gloss…]) for every line of every `index.*` file."""
    for short, long in PARTS:
        glosses = read_glosses(os.path.join(wordnet, "data." + short))
        with open(os.path.join(wordnet, "index." + short), encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("  "):
                    continue
                fields = line.split()
                lemma, pointers = fields[0], int(fields[3])
                senses = int(fields[2])
                offsets = fields[4 + pointers + 2 :][:senses]
                yield lemma, long, [glosses[o] for o in offsets[:SENSES] if o in glosses]


def markdown_text(text):
    """The text as markdown that renders it literally."""
    text = text.replace("&", "&amp;")
    return re.sub(r"([\\`*_\[\]<>#|~])", r"\\\1", text)


def yaml_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_hugo_frame(folder):
    """Writes the Hugo twin's configuration and layouts (the shared generator's); returns its terms and pages folders."""
    shared = os.environ.get("SHARED", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared"))
    generator = importlib.machinery.SourceFileLoader("gen_corpus", os.path.join(shared, "bench", "gen-corpus")).load_module()
    with open(os.path.join(folder, "config.toml"), "w", encoding="utf-8") as f:
        f.write(generator.HUGO_CONFIG)
    for relative, text in generator.HUGO_LAYOUTS.items():
        os.makedirs(os.path.dirname(os.path.join(folder, "layouts", relative)), exist_ok=True)
        with open(os.path.join(folder, "layouts", relative), "w", encoding="utf-8") as f:
            f.write(text)
    terms, pages = os.path.join(folder, "content", "terms"), os.path.join(folder, "content", "pages")
    os.makedirs(terms, exist_ok=True)
    os.makedirs(pages, exist_ok=True)
    with open(os.path.join(terms, "_index.md"), "w", encoding="utf-8") as f:
        f.write('---\ntitle: "Glossary"\n---\n')
    return terms, pages


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--refs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wordnet", default=os.environ.get("WNSEARCHDIR", "/usr/share/wordnet"))
    parser.add_argument("--hugo", help="also write the Hugo twin of the site in this folder")
    args = parser.parse_args()

    entries = {}
    for lemma, part, glosses in read_lemmas(args.wordnet):
        term = lemma.replace("_", " ")
        key = " ".join(term.casefold().split())
        if key not in entries:
            entries[key] = (term, part, glosses)
    glossary = os.path.join(args.out, "content", "glossary")
    pages = os.path.join(args.out, "content", "pages")
    os.makedirs(glossary, exist_ok=True)
    os.makedirs(pages, exist_ok=True)
    with open(os.path.join(args.out, "glossary.yml"), "w", encoding="utf-8") as f:
        f.write("title: WordNet\nbase_url: /\ndictionary:\n  cache: .glossary/cache\n")

    hugo_terms = hugo_pages = None
    if args.hugo:
        hugo_terms, hugo_pages = write_hugo_frame(args.hugo)
    terms = []
    numbers = {}
    for number, (term, part, glosses) in enumerate(entries.values(), start=1):
        if len(glosses) == 1:
            body = markdown_text(glosses[0]) + "\n"
        else:
            body = "".join(f"{i}. {markdown_text(g)}\n" for i, g in enumerate(glosses, start=1))
        with open(os.path.join(glossary, f"{number:06d}.md"), "w", encoding="utf-8") as f:
            f.write(f"---\nterm: {yaml_string(term)}\npart_of_speech: {part}\n---\n\n{body or 'No gloss.'}\n")
        if hugo_terms:
            with open(os.path.join(hugo_terms, f"{number:06d}.md"), "w", encoding="utf-8") as f:
                f.write(f"---\ntitle: {yaml_string(term)}\n---\n\n{body or 'No gloss.'}\n")
        terms.append(term)
        numbers[term] = number

    # Only references the scanner reads back as the same word: no brackets or pipes inside.
    referable = [t for t in terms if re.fullmatch(r"[A-Za-z][A-Za-z' -]*", t)]
    rng = random.Random(args.seed)
    for page in range(1, args.pages + 1):
        words = [rng.choice(referable) for _ in range(args.refs)]
        lines = [f"---\ntitle: Page {page}\n---\n", f"# Page {page}\n"]
        for i in range(0, len(words), 2):
            lines.append(" ".join(f"Here is [[{w}]]." for w in words[i : i + 2]) + "\n")
        with open(os.path.join(pages, f"page-{page:05d}.md"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        if hugo_pages:
            text = re.sub(r"\[\[([^\]]+)\]\]", lambda m: f"[{m.group(1)}](/terms/{numbers[m.group(1)]:06d}/)", "\n".join(lines))
            with open(os.path.join(hugo_pages, f"page-{page:05d}.md"), "w", encoding="utf-8") as f:
                f.write(text)
    print(f"{len(terms)} entries and {args.pages} pages in {args.out} (seed {args.seed})")


if __name__ == "__main__":
    sys.exit(main())
