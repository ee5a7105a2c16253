#!/usr/bin/env python3
"""Times `glossary lsp` on a site: keystroke → diagnostics, and completion after `[[`.

Starts the server on the site, waits for its first diagnostics (the site read), opens one page, then types into it:
each keystroke is a `didChange` of one character, alternately breaking and mending one of the page's references (so
every keystroke changes the page's diagnostics), timed from the write of the change to the `publishDiagnostics` of
that version. Then times completion requests just after a `[[` in the page. Prints JSON: medians, p90s, counts.

Usage: lsp-latency.py --glossary BIN --site DIR [--page FILE] [--edits 40] [--completions 40]
"""

import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path


class Client:
    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def read(self):
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            byte = self.process.stdout.read(1)
            if not byte:
                raise SystemExit("the server closed its output")
            header += byte
        return json.loads(self.process.stdout.read(int(header.split(b":")[1].strip())))

    def request(self, method, params):
        id = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == id and "method" not in message:
                return message

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for(self, predicate):
        while True:
            message = self.read()
            if predicate(message):
                return message


def p90(values):
    return sorted(values)[max(0, int(len(values) * 0.9) - 1)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--glossary", required=True)
    parser.add_argument("--site", required=True)
    parser.add_argument("--page")
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--completions", type=int, default=40)
    args = parser.parse_args()
    site = Path(args.site).resolve()
    pages = sorted(p for p in (site / "content").rglob("*.md") if "glossary" not in p.parts)
    page = Path(args.page).resolve() if args.page else pages[1]
    text = page.read_text(encoding="utf-8")
    lines = text.split("\n")
    # A line with a reference outside code: the edits go just after its `[[`.
    line = next(i for i, l in enumerate(lines) if "[[" in l and not l.startswith(("    ", "`")) and "`[[" not in l and "matrix[[" not in l)
    column = len(lines[line][: lines[line].index("[[") + 2].encode("utf-16-le")) // 2

    client = Client([args.glossary, "lsp"])
    started = time.perf_counter()
    # As VS Code does: the completion list gives its edit range once (itemDefaults).
    completion = {"completionList": {"itemDefaults": ["editRange"]}, "completionItem": {"documentationFormat": ["markdown", "plaintext"]}}
    capabilities = {"textDocument": {"completion": completion}}
    client.request("initialize", {"processId": os.getpid(), "rootUri": site.as_uri(), "capabilities": capabilities})
    client.notify("initialized", {})
    uri = page.as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
    client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri and m["params"].get("version") == 1)
    loaded = time.perf_counter() - started

    keystrokes = []
    for version in range(2, args.edits + 2):
        # Odd edits insert "q" after the `[[` (an unknown word), even ones remove it again.
        if version % 2 == 0:
            change = {"range": {"start": {"line": line, "character": column}, "end": {"line": line, "character": column}}, "text": "q"}
        else:
            change = {"range": {"start": {"line": line, "character": column}, "end": {"line": line, "character": column + 1}}, "text": ""}
        start = time.perf_counter()
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri and m["params"].get("version") == version)
        keystrokes.append((time.perf_counter() - start) * 1000)

    completions = []
    count = 0
    for _ in range(args.completions):
        start = time.perf_counter()
        answer = client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": line, "character": column}})
        completions.append((time.perf_counter() - start) * 1000)
        count = len(answer["result"]["items"])
    client.request("shutdown", None)
    client.notify("exit", None)
    client.process.wait()
    print(json.dumps({
        "pages": len(pages), "page": str(page.relative_to(site)), "site_loaded_s": round(loaded, 2),
        "keystroke_median_ms": round(statistics.median(keystrokes), 1), "keystroke_p90_ms": round(p90(keystrokes), 1), "keystrokes": len(keystrokes),
        "completion_median_ms": round(statistics.median(completions), 1), "completion_p90_ms": round(p90(completions), 1),
        "completion_items": count, "completions": len(completions),
    }))


if __name__ == "__main__":
    main()
