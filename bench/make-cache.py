#!/usr/bin/env python3
"""Fills a site's definitions cache from the fake dictionary API, so benchmarks can build --offline with
every vocabulary term defined (term pages included), as a real site with a committed cache would.

Usage: bench/make-cache.py SITE_DIR VOCAB_FILE [--shared DIR]
Starts ../shared/bench/fake-dictionary-api on a loopback port, asks it for each word, writes
SITE_DIR/.glossary/cache/en/<word>.json in the cache's format (200 and 404 entries), then stops it.
"""
import argparse, json, os, subprocess, sys, urllib.request, urllib.error

parser = argparse.ArgumentParser()
parser.add_argument("site")
parser.add_argument("vocab")
parser.add_argument("--shared", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared"))
args = parser.parse_args()

api = os.path.join(args.shared, "bench", "fake-dictionary-api")
server = subprocess.Popen([api, "--vocab", args.vocab, "--port", "0", "--max-seconds", "300"], stdout=subprocess.PIPE, text=True)
try:
    port = int(server.stdout.readline().strip())
    folder = os.path.join(args.site, ".glossary", "cache", "en")
    os.makedirs(folder, exist_ok=True)
    words = [w.strip() for w in open(args.vocab) if w.strip()]
    opener = urllib.request.build_opener()
    for word in words:
        url = f"http://127.0.0.1:{port}/api/v2/entries/en/{word}"
        try:
            with opener.open(url) as response:
                status, body = response.status, json.load(response)
        except urllib.error.HTTPError as error:
            status, body = error.code, json.load(error)
        envelope = {"format": 1, "key": word, "language": "en",
                    "url": f"https://api.dictionaryapi.dev/api/v2/entries/en/{word}",
                    "status": status, "fetched_at": "2026-11-29T12:00:00Z", "body": body}
        with open(os.path.join(folder, word + ".json"), "w") as out:
            json.dump(envelope, out, indent=2, sort_keys=True, ensure_ascii=False)
            out.write("\n")
    print(f"make-cache: {len(words)} entries in {folder}", file=sys.stderr)
finally:
    server.terminate()
    server.wait()
